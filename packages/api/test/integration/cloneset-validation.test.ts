/**
 * The generated CloneSet CRD on a real kube-apiserver: every invalid CloneSet below is rejected with an
 * error naming the field, and its corrected twin (differing only in that field) is accepted, which
 * shows that the rejection came from the rule under test.
 */
import type { CustomObjectsApi } from '@kubernetes/client-node';
import type { TestNamespace } from '@kruise-ts/local-cluster/testing';
import { createTestNamespace, testKubeConfig } from '@kruise-ts/local-cluster/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Json, JsonObject } from '../support/cloneset-api.ts';
import { CLONESETS, installCloneSetCrd, mergePatch, rejectionOf, validCloneSet } from '../support/cloneset-api.ts';

interface InvalidCase {
  readonly name: string;
  /** Merge patch applied to {@link validCloneSet} that breaks exactly one rule. */
  readonly invalid: Json;
  /** Merge patch applied to {@link validCloneSet} that fixes the same field. */
  readonly corrected: Json;
  /** Field path the API server must name, in the message and as a cause's field. */
  readonly field: string;
  /** Text the message must contain besides the field (the rule's own wording). */
  readonly says?: string;
}

const spec = (value: Json): Json => ({ spec: value });
const updateStrategy = (value: Json): Json => spec({ updateStrategy: value });
const templateLabels = (labels: Json): Json => spec({ template: { metadata: { labels } } });
const selector = (value: Json): Json => spec({ selector: value });
const podSpec = (value: Json): Json => spec({ template: { spec: value } });
/** The template's one container with `fields` added (a merge patch replaces the whole list). */
const container = (fields: JsonObject): Json =>
  podSpec({ containers: [{ name: 'nginx', image: 'nginx:alpine', ...fields }] });

const cases: readonly InvalidCase[] = [
  {
    name: 'negative replicas',
    invalid: spec({ replicas: -1 }),
    corrected: spec({ replicas: 0 }),
    field: 'spec.replicas',
  },
  {
    name: 'missing selector',
    invalid: spec({ selector: null }),
    corrected: spec({}),
    field: 'spec.selector',
    says: 'Required value',
  },
  {
    name: 'empty selector',
    invalid: spec({ selector: { matchLabels: null } }),
    corrected: spec({}),
    field: 'spec.selector',
    says: 'empty selector is invalid for cloneset',
  },
  {
    name: 'matchLabels key missing from the template',
    invalid: selector({ matchLabels: { tier: 'web' } }),
    corrected: mergePatch(selector({ matchLabels: { tier: 'web' } }), templateLabels({ tier: 'web' })),
    field: 'spec.template.metadata.labels',
    says: '`selector` does not match template `labels`',
  },
  {
    name: 'matchLabels value differing from the template',
    invalid: templateLabels({ app: 'other' }),
    corrected: templateLabels({ app: 'sample' }),
    field: 'spec.template.metadata.labels',
    says: '`selector` does not match template `labels`',
  },
  {
    name: 'matchExpressions In not matching the template',
    invalid: selector({ matchExpressions: [{ key: 'app', operator: 'In', values: ['web', 'api'] }] }),
    corrected: selector({ matchExpressions: [{ key: 'app', operator: 'In', values: ['web', 'sample'] }] }),
    field: 'spec.template.metadata.labels',
  },
  {
    name: 'matchExpressions NotIn excluding the template',
    invalid: selector({ matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['sample'] }] }),
    corrected: selector({ matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['web'] }] }),
    field: 'spec.template.metadata.labels',
  },
  {
    name: 'matchExpressions Exists on a label the template lacks',
    invalid: selector({ matchExpressions: [{ key: 'tier', operator: 'Exists' }] }),
    corrected: selector({ matchExpressions: [{ key: 'app', operator: 'Exists' }] }),
    field: 'spec.template.metadata.labels',
  },
  {
    name: 'matchExpressions DoesNotExist on a template label',
    invalid: selector({ matchExpressions: [{ key: 'app', operator: 'DoesNotExist' }] }),
    corrected: selector({ matchExpressions: [{ key: 'tier', operator: 'DoesNotExist' }] }),
    field: 'spec.template.metadata.labels',
  },
  {
    name: 'matchExpressions In without values',
    invalid: selector({ matchExpressions: [{ key: 'app', operator: 'In' }] }),
    corrected: selector({ matchExpressions: [{ key: 'app', operator: 'In', values: ['sample'] }] }),
    field: 'spec.selector.matchExpressions[0].values',
  },
  {
    name: 'matchExpressions Exists with values',
    invalid: selector({ matchExpressions: [{ key: 'app', operator: 'Exists', values: ['sample'] }] }),
    corrected: selector({ matchExpressions: [{ key: 'app', operator: 'Exists' }] }),
    field: 'spec.selector.matchExpressions[0].values',
  },
  {
    name: 'unknown selector operator',
    invalid: selector({ matchExpressions: [{ key: 'app', operator: 'Equals', values: ['sample'] }] }),
    corrected: selector({ matchExpressions: [{ key: 'app', operator: 'In', values: ['sample'] }] }),
    field: 'spec.selector.matchExpressions[0].operator',
  },
  {
    name: 'invalid matchLabels key',
    invalid: mergePatch(selector({ matchLabels: { 'bad key!': 'x' } }), templateLabels({ 'bad key!': 'x' })),
    corrected: mergePatch(
      selector({ matchLabels: { 'example.com/good-key': 'x' } }),
      templateLabels({ 'example.com/good-key': 'x' }),
    ),
    field: 'spec.selector.matchLabels',
    says: 'every key must be a valid label key',
  },
  {
    name: 'invalid matchLabels value',
    invalid: mergePatch(selector({ matchLabels: { app: '-sample-' } }), templateLabels({ app: '-sample-' })),
    corrected: mergePatch(selector({ matchLabels: { app: 'sample-1' } }), templateLabels({ app: 'sample-1' })),
    field: 'spec.selector.matchLabels.app',
  },
  {
    name: 'restartPolicy other than Always',
    invalid: spec({ template: { spec: { restartPolicy: 'Never' } } }),
    corrected: spec({ template: { spec: { restartPolicy: 'Always' } } }),
    field: 'spec.template.spec.restartPolicy',
  },
  {
    name: 'activeDeadlineSeconds set',
    invalid: spec({ template: { spec: { activeDeadlineSeconds: 30 } } }),
    corrected: spec({ template: { spec: { terminationGracePeriodSeconds: 30 } } }),
    field: 'spec.template.spec.activeDeadlineSeconds',
    says: 'activeDeadlineSeconds in cloneset is not supported',
  },
  {
    name: 'duplicate podsToDelete',
    invalid: spec({ scaleStrategy: { podsToDelete: ['sample-abcde', 'sample-abcde'] } }),
    corrected: spec({ scaleStrategy: { podsToDelete: ['sample-abcde', 'sample-fghij'] } }),
    field: 'spec.scaleStrategy.podsToDelete[1]',
    says: 'Duplicate value',
  },
  {
    name: 'unknown update type',
    invalid: updateStrategy({ type: 'RollingUpdate' }),
    corrected: updateStrategy({ type: 'InPlaceIfPossible' }),
    field: 'spec.updateStrategy.type',
  },
  {
    name: 'OnDelete update type in v1alpha1',
    invalid: updateStrategy({ type: 'OnDelete' }),
    corrected: updateStrategy({ type: 'ReCreate' }),
    field: 'spec.updateStrategy.type',
    says: 'OnDelete is not supported in apps.kruise.io/v1alpha1',
  },
  {
    name: 'partition as a plain numeric string',
    invalid: updateStrategy({ partition: '2' }),
    corrected: updateStrategy({ partition: 2 }),
    field: 'spec.updateStrategy.partition',
    says: 'must be a non-negative integer or a percentage',
  },
  {
    name: 'negative partition',
    invalid: updateStrategy({ partition: -1 }),
    corrected: updateStrategy({ partition: 1 }),
    field: 'spec.updateStrategy.partition',
  },
  {
    name: 'partition above 100%',
    invalid: updateStrategy({ partition: '100.5%' }),
    corrected: updateStrategy({ partition: '100%' }),
    field: 'spec.updateStrategy.partition',
  },
  {
    name: 'maxUnavailable not a number',
    invalid: updateStrategy({ maxUnavailable: 'half' }),
    corrected: updateStrategy({ maxUnavailable: '12.5%' }),
    field: 'spec.updateStrategy.maxUnavailable',
  },
  {
    name: 'maxUnavailable above 100%',
    invalid: updateStrategy({ maxUnavailable: '150%' }),
    corrected: updateStrategy({ maxUnavailable: '100%' }),
    field: 'spec.updateStrategy.maxUnavailable',
  },
  {
    name: 'negative percentage maxSurge',
    invalid: updateStrategy({ maxSurge: '-10%' }),
    corrected: updateStrategy({ maxSurge: '10%' }),
    field: 'spec.updateStrategy.maxSurge',
  },
  {
    name: 'scaleStrategy.maxUnavailable in exponent notation',
    invalid: spec({ scaleStrategy: { maxUnavailable: '1e1%' } }),
    corrected: spec({ scaleStrategy: { maxUnavailable: '10%' } }),
    field: 'spec.scaleStrategy.maxUnavailable',
  },
  {
    name: 'maxSurge with InPlaceOnly',
    invalid: updateStrategy({ type: 'InPlaceOnly', maxSurge: 1 }),
    corrected: updateStrategy({ type: 'InPlaceOnly', maxSurge: 0 }),
    field: 'spec.updateStrategy.maxSurge',
    says: 'can not use maxSurge with strategy type InPlaceOnly',
  },
  {
    name: 'percentage maxSurge with InPlaceOnly and replicas > 0',
    invalid: updateStrategy({ type: 'InPlaceOnly', maxSurge: '10%' }),
    // 10% of 0 replicas rounds up to 0, which OpenKruise accepts.
    corrected: mergePatch(updateStrategy({ type: 'InPlaceOnly', maxSurge: '10%' }), spec({ replicas: 0 })),
    field: 'spec.updateStrategy.maxSurge',
  },
  {
    name: 'maxUnavailable and maxSurge both 0',
    invalid: updateStrategy({ maxUnavailable: 0, maxSurge: 0 }),
    corrected: mergePatch(updateStrategy({ maxUnavailable: 0, maxSurge: 0 }), spec({ replicas: 0 })),
    field: 'spec.updateStrategy.maxUnavailable',
    says: 'maxUnavailable and maxSurge should not both be less than 1',
  },
  {
    name: 'maxUnavailable and maxSurge both 0%',
    invalid: updateStrategy({ maxUnavailable: '0%', maxSurge: '0.0%' }),
    // 0.5% of 3 replicas rounds up to 1.
    corrected: updateStrategy({ maxUnavailable: '0%', maxSurge: '0.5%' }),
    field: 'spec.updateStrategy.maxUnavailable',
  },
  {
    name: 'both weight and order priority',
    invalid: updateStrategy({
      priorityStrategy: {
        weightPriority: [{ weight: 50, matchSelector: { matchLabels: { a: 'b' } } }],
        orderPriority: [{ orderedKey: 'k' }],
      },
    }),
    corrected: updateStrategy({
      priorityStrategy: { weightPriority: [{ weight: 50, matchSelector: { matchLabels: { a: 'b' } } }] },
    }),
    field: 'spec.updateStrategy.priorityStrategy',
    says: 'only one of weightPriority and orderPriority can be used',
  },
  {
    name: 'priority weight above 100',
    invalid: updateStrategy({
      priorityStrategy: { weightPriority: [{ weight: 101, matchSelector: { matchLabels: { a: 'b' } } }] },
    }),
    corrected: updateStrategy({
      priorityStrategy: { weightPriority: [{ weight: 100, matchSelector: { matchLabels: { a: 'b' } } }] },
    }),
    field: 'spec.updateStrategy.priorityStrategy.weightPriority[0].weight',
  },
  {
    name: 'empty priority matchSelector',
    invalid: updateStrategy({ priorityStrategy: { weightPriority: [{ weight: 10, matchSelector: {} }] } }),
    corrected: updateStrategy({
      priorityStrategy: { weightPriority: [{ weight: 10, matchSelector: { matchLabels: { a: 'b' } } }] },
    }),
    field: 'spec.updateStrategy.priorityStrategy.weightPriority[0].matchSelector',
    says: 'selector can not be empty',
  },
  {
    name: 'empty orderedKey',
    invalid: updateStrategy({ priorityStrategy: { orderPriority: [{ orderedKey: '' }] } }),
    corrected: updateStrategy({ priorityStrategy: { orderPriority: [{ orderedKey: 'example.com/order' }] } }),
    field: 'spec.updateStrategy.priorityStrategy.orderPriority[0].orderedKey',
  },
  {
    name: 'empty scatter key',
    invalid: updateStrategy({ scatterStrategy: [{ key: '', value: 'bar' }] }),
    corrected: updateStrategy({ scatterStrategy: [{ key: 'foo', value: 'bar' }] }),
    field: 'spec.updateStrategy.scatterStrategy[0].key',
  },
  {
    name: 'duplicate scatter term',
    invalid: updateStrategy({
      scatterStrategy: [
        { key: 'foo', value: 'bar' },
        { key: 'foo', value: 'bar' },
      ],
    }),
    corrected: updateStrategy({
      scatterStrategy: [
        { key: 'foo', value: 'bar' },
        { key: 'foo', value: 'baz' },
      ],
    }),
    field: 'spec.updateStrategy.scatterStrategy[1]',
    says: 'Duplicate value',
  },
  {
    name: 'negative progressDeadlineSeconds',
    invalid: spec({ progressDeadlineSeconds: -1 }),
    corrected: spec({ progressDeadlineSeconds: 600 }),
    field: 'spec.progressDeadlineSeconds',
  },
  {
    name: 'progressDeadlineSeconds not above minReadySeconds',
    invalid: spec({ minReadySeconds: 30, progressDeadlineSeconds: 30 }),
    // MaxInt32 means "no deadline" and is exempt.
    corrected: spec({ minReadySeconds: 30, progressDeadlineSeconds: 2147483647 }),
    field: 'spec.progressDeadlineSeconds',
    says: 'must be greater than minReadySeconds',
  },
  {
    name: 'progressDeadlineSeconds 0 without minReadySeconds',
    invalid: spec({ progressDeadlineSeconds: 0 }),
    corrected: spec({ progressDeadlineSeconds: 1 }),
    field: 'spec.progressDeadlineSeconds',
  },
  {
    name: 'negative minReadySeconds',
    invalid: spec({ minReadySeconds: -5 }),
    corrected: spec({ minReadySeconds: 5 }),
    field: 'spec.minReadySeconds',
  },
  {
    name: 'negative revisionHistoryLimit',
    invalid: spec({ revisionHistoryLimit: -1 }),
    corrected: spec({ revisionHistoryLimit: 0 }),
    field: 'spec.revisionHistoryLimit',
  },
  {
    name: 'percentage imagePreDownloadParallelism',
    invalid: updateStrategy({ inPlaceUpdateStrategy: { imagePreDownloadParallelism: '50%' } }),
    corrected: updateStrategy({ inPlaceUpdateStrategy: { imagePreDownloadParallelism: 5 } }),
    field: 'spec.updateStrategy.inPlaceUpdateStrategy.imagePreDownloadParallelism',
  },
  { name: 'missing spec', invalid: { spec: null }, corrected: {}, field: 'spec', says: 'Required value' },
  {
    name: 'name not a DNS subdomain',
    invalid: { metadata: { name: 'Not_A_Subdomain' } },
    corrected: {},
    field: 'metadata.name',
    says: 'RFC 1123 subdomain',
  },
  {
    name: 'missing template spec',
    invalid: spec({ template: { spec: null } }),
    corrected: {},
    field: 'spec.template.spec',
    says: 'Required value',
  },
  {
    name: 'missing containers',
    invalid: podSpec({ containers: null }),
    corrected: {},
    field: 'spec.template.spec.containers',
    says: 'Required value',
  },
  {
    name: 'empty containers list',
    invalid: podSpec({ containers: [] }),
    corrected: {},
    field: 'spec.template.spec.containers',
  },
  {
    name: 'containerPort as a string',
    invalid: container({ ports: [{ containerPort: '80' }] }),
    corrected: container({ ports: [{ containerPort: 80 }] }),
    field: 'spec.template.spec.containers[0].ports[0].containerPort',
  },
  {
    name: 'env value as a number',
    invalid: container({ env: [{ name: 'PORT', value: 8080 }] }),
    corrected: container({ env: [{ name: 'PORT', value: '8080' }] }),
    field: 'spec.template.spec.containers[0].env[0].value',
  },
  {
    name: 'a number in command',
    invalid: container({ command: ['sleep', 10] }),
    corrected: container({ command: ['sleep', '10'] }),
    field: 'spec.template.spec.containers[0].command[1]',
  },
  {
    name: 'an init container without a name',
    invalid: podSpec({ initContainers: [{ image: 'busybox' }] }),
    corrected: podSpec({ initContainers: [{ name: 'init', image: 'busybox' }] }),
    field: 'spec.template.spec.initContainers[0].name',
    says: 'Required value',
  },
  {
    name: 'a cpu request that is not a quantity',
    invalid: container({ resources: { requests: { cpu: 'one' } } }),
    corrected: container({ resources: { requests: { cpu: '1' } } }),
    field: 'spec.template.spec.containers[0].resources.requests.cpu',
    says: 'should match',
  },
  {
    name: 'an init container memory limit that is not a quantity',
    invalid: podSpec({
      initContainers: [{ name: 'init', image: 'busybox', resources: { limits: { memory: '1GB' } } }],
    }),
    corrected: podSpec({
      initContainers: [{ name: 'init', image: 'busybox', resources: { limits: { memory: '1G' } } }],
    }),
    field: 'spec.template.spec.initContainers[0].resources.limits.memory',
    says: 'should match',
  },
  {
    name: 'a boolean template annotation',
    invalid: spec({ template: { metadata: { annotations: { 'example.com/enabled': true } } } }),
    corrected: spec({ template: { metadata: { annotations: { 'example.com/enabled': 'true' } } } }),
    field: 'spec.template.metadata.annotations.example.com/enabled',
  },
  {
    name: 'a PVC template storage request that is not a quantity',
    invalid: spec({
      volumeClaimTemplates: [
        {
          metadata: { name: 'data' },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '20 GB' } } },
        },
      ],
    }),
    corrected: spec({
      volumeClaimTemplates: [
        {
          metadata: { name: 'data' },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '20G' } } },
        },
      ],
    }),
    field: 'spec.volumeClaimTemplates[0].spec.resources.requests.storage',
    says: 'should match',
  },
];

/** Requests (and limits) a Pod accepts; each must be stored as written. */
const quantitiesAccepted: readonly { readonly name: string; readonly requests: JsonObject }[] = [
  { name: 'cpu: 500m', requests: { cpu: '500m' } },
  { name: 'cpu: 1', requests: { cpu: 1 } },
  { name: 'memory: 1Gi', requests: { memory: '1Gi' } },
  { name: 'memory: 128974848', requests: { memory: 128974848 } },
  // The Kubernetes CRD convention for quantities (int-or-string with the pattern) refuses these two.
  { name: 'cpu: 0.5 (a number that is not an integer)', requests: { cpu: 0.5 } },
  { name: 'cpu: " 500m " (Go trims the spaces)', requests: { cpu: ' 500m ' } },
  { name: 'exponents, binary suffixes and signs', requests: { cpu: '1e3', memory: '1.5Ki', 'example.com/gpu': '+1' } },
];

describe('CloneSet CRD validation on a real API server', () => {
  let api: CustomObjectsApi;
  let namespace: TestNamespace;

  beforeAll(async () => {
    const kubeConfig = testKubeConfig();
    api = await installCloneSetCrd(kubeConfig);
    namespace = await createTestNamespace(kubeConfig, 'cloneset-validation');
  });

  afterAll(async () => {
    await namespace[Symbol.asyncDispose]();
  });

  const create = (body: Json): Promise<unknown> =>
    api.createNamespacedCustomObject({ ...CLONESETS, namespace: namespace.name, body });

  it('has at least 25 invalid cases, each with a distinct name', () => {
    expect(cases.length).toBeGreaterThanOrEqual(25);
    expect(new Set(cases.map((testCase) => testCase.name)).size).toBe(cases.length);
  });

  it.each(cases.map((testCase, index) => ({ ...testCase, index })))(
    'rejects $name and accepts its corrected twin',
    async (testCase) => {
      const invalid = mergePatch(validCloneSet(`invalid-${String(testCase.index)}`), testCase.invalid);
      const rejection = await rejectionOf(() => create(invalid));
      expect(rejection.code).toBe(422);
      expect(rejection.message).toContain(testCase.field);
      expect(rejection.fields).toContain(testCase.field);
      if (testCase.says !== undefined) {
        expect(rejection.message).toContain(testCase.says);
      }

      const corrected = mergePatch(
        validCloneSet(`corrected-${String(testCase.index)}`),
        testCase.corrected,
      ) as JsonObject;
      await expect(create(corrected)).resolves.toMatchObject({
        metadata: { name: `corrected-${String(testCase.index)}` },
      });
    },
  );

  it.each(quantitiesAccepted.map((quantity, index) => ({ ...quantity, index })))(
    'accepts a quantity a Pod accepts: $name, stored as written',
    async ({ requests, index }) => {
      const body = mergePatch(
        validCloneSet(`quantity-${String(index)}`),
        container({ resources: { requests, limits: requests } }),
      );
      await expect(create(body)).resolves.toMatchObject({
        spec: { template: { spec: { containers: [{ resources: { requests, limits: requests } }] } } },
      });
    },
  );

  it('keeps the nulls a Pod accepts as written (Go reads them as zero values) instead of refusing or dropping them', async () => {
    // Not a merge patch: there, null deletes.
    const template = {
      metadata: { labels: { app: 'sample' }, annotations: { note: null } },
      spec: {
        containers: [
          { name: 'nginx', image: 'nginx:alpine', command: [null, 'x'], resources: { limits: { cpu: null } } },
        ],
      },
    };
    const body = validCloneSet('nulls-as-written');
    await expect(create({ ...body, spec: { ...(body['spec'] as JsonObject), template } })).resolves.toMatchObject({
      spec: { template },
    });
  });

  it('accepts an empty env value and a port without name or protocol, as a Pod does', async () => {
    const body = mergePatch(
      validCloneSet('empty-env-value'),
      container({ env: [{ name: 'EMPTY', value: '' }], ports: [{ containerPort: 8080 }] }),
    );
    await expect(create(body)).resolves.toMatchObject({
      spec: { template: { spec: { containers: [{ env: [{ name: 'EMPTY', value: '' }] }] } } },
    });
  });
});
