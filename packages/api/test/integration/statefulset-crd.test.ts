/**
 * The generated Advanced StatefulSet CRD on a real kube-apiserver: the documentation's YAML applies
 * unchanged, the server applies OpenKruise's webhook defaults, the scale subresource works, and each
 * rule of OpenKruise's validating webhook that CEL can express refuses bad input naming the field,
 * while its corrected twin is accepted.
 */
import type { CustomObjectsApi } from '@kubernetes/client-node';
import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import type { TestNamespace } from '@kruise-ts/local-cluster/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Json, JsonObject } from '../support/cloneset-api.ts';
import { mergePatch, rejectionOf } from '../support/cloneset-api.ts';
import { statefulSetApi, STATEFULSETS, validStatefulSet } from '../support/statefulset-api.ts';

/**
 * The examples of https://openkruise.io/docs/user-manuals/advancedstatefulset (completed with the
 * selector and template the page elides with `# ...`).
 */
const documentationExamples: readonly { readonly name: string; readonly spec: Json }[] = [
  {
    name: 'max-unavailable',
    spec: {
      podManagementPolicy: 'Parallel',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '20%' } },
    },
  },
  {
    name: 'in-place',
    spec: {
      updateStrategy: {
        type: 'RollingUpdate',
        rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', inPlaceUpdateStrategy: { gracePeriodSeconds: 10 } },
      },
    },
  },
  {
    name: 'priority',
    spec: {
      podManagementPolicy: 'Parallel',
      updateStrategy: {
        rollingUpdate: {
          unorderedUpdate: {
            priorityStrategy: {
              weightPriority: [{ weight: 50, matchSelector: { matchLabels: { 'test-key': 'foo' } } }],
            },
          },
        },
      },
    },
  },
  { name: 'paused', spec: { updateStrategy: { rollingUpdate: { paused: true } } } },
  { name: 'reserve', spec: { replicas: 4, reserveOrdinals: [1, 3] } },
  { name: 'reserve-range', spec: { replicas: 3, reserveOrdinals: [1, '3-5'] } },
  { name: 'scale-max-unavailable', spec: { podManagementPolicy: 'Parallel', scaleStrategy: { maxUnavailable: 1 } } },
  { name: 'start-ordinal', spec: { ordinals: { start: 2 } } },
  {
    name: 'retention',
    spec: { persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Delete' } },
  },
  { name: 'on-delete', spec: { updateStrategy: { type: 'OnDelete' } } },
];

interface InvalidCase {
  readonly name: string;
  readonly invalid: Json;
  readonly corrected: Json;
  readonly field: string;
  readonly says?: string;
}

const mergePatchHeader = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
const spec = (value: Json): Json => ({ spec: value });
const rolling = (value: Json): Json => spec({ updateStrategy: { rollingUpdate: value } });

const cases: readonly InvalidCase[] = [
  {
    name: 'negative replicas',
    invalid: spec({ replicas: -1 }),
    corrected: spec({ replicas: 0 }),
    field: 'spec.replicas',
  },
  {
    name: 'empty selector',
    invalid: spec({ selector: { matchLabels: null } }),
    corrected: spec({}),
    field: 'spec.selector',
    says: 'empty selector is invalid for statefulset',
  },
  {
    name: 'selector not matching the template',
    invalid: spec({ selector: { matchLabels: { app: 'other' } } }),
    corrected: spec({}),
    field: 'spec.template.metadata.labels',
  },
  {
    name: 'unknown podManagementPolicy',
    invalid: spec({ podManagementPolicy: 'Random' }),
    corrected: spec({ podManagementPolicy: 'OrderedReady' }),
    field: 'spec.podManagementPolicy',
  },
  {
    name: 'scaleStrategy.maxUnavailable 0',
    invalid: spec({ scaleStrategy: { maxUnavailable: 0 } }),
    corrected: spec({ scaleStrategy: { maxUnavailable: 1 } }),
    field: 'spec.scaleStrategy.maxUnavailable',
    says: 'must be greater than 0',
  },
  {
    name: 'scaleStrategy.maxUnavailable 2 with OrderedReady',
    invalid: spec({ podManagementPolicy: 'OrderedReady', scaleStrategy: { maxUnavailable: 2 } }),
    corrected: spec({ podManagementPolicy: 'OrderedReady', scaleStrategy: { maxUnavailable: 1 } }),
    field: 'spec.scaleStrategy.maxUnavailable',
    says: 'can only work with Parallel',
  },
  {
    name: 'rollingUpdate.maxUnavailable 50% with OrderedReady',
    invalid: mergePatch(rolling({ maxUnavailable: '50%' }), spec({ podManagementPolicy: 'OrderedReady' })),
    corrected: mergePatch(rolling({ maxUnavailable: 1 }), spec({ podManagementPolicy: 'OrderedReady' })),
    field: 'spec.updateStrategy.rollingUpdate.maxUnavailable',
    says: 'can only work with Parallel',
  },
  {
    name: 'rollingUpdate.maxUnavailable 0%',
    invalid: rolling({ maxUnavailable: '0%' }),
    corrected: rolling({ maxUnavailable: '10%' }),
    field: 'spec.updateStrategy.rollingUpdate.maxUnavailable',
  },
  {
    name: 'a negative partition',
    invalid: rolling({ partition: -1 }),
    corrected: rolling({ partition: 0 }),
    field: 'spec.updateStrategy.rollingUpdate.partition',
  },
  {
    name: 'minReadySeconds above 300',
    invalid: rolling({ minReadySeconds: 301 }),
    corrected: rolling({ minReadySeconds: 300 }),
    field: 'spec.updateStrategy.rollingUpdate.minReadySeconds',
  },
  {
    name: 'an unknown podUpdatePolicy',
    invalid: rolling({ podUpdatePolicy: 'InPlace' }),
    corrected: rolling({ podUpdatePolicy: 'InPlaceOnly' }),
    field: 'spec.updateStrategy.rollingUpdate.podUpdatePolicy',
  },
  {
    name: 'an in-place policy without the InPlaceUpdateReady gate',
    invalid: mergePatch(
      rolling({ podUpdatePolicy: 'InPlaceIfPossible' }),
      spec({ template: { spec: { readinessGates: [{ conditionType: 'Other' }] } } }),
    ),
    corrected: rolling({ podUpdatePolicy: 'InPlaceIfPossible' }),
    field: 'spec.template.spec.readinessGates',
    says: 'must contain InPlaceUpdateReady',
  },
  {
    name: 'unorderedUpdate with OrderedReady',
    invalid: mergePatch(rolling({ unorderedUpdate: {} }), spec({ podManagementPolicy: 'OrderedReady' })),
    corrected: rolling({ unorderedUpdate: {} }),
    field: 'spec.updateStrategy.rollingUpdate.unorderedUpdate',
  },
  {
    name: 'rollingUpdate with OnDelete',
    invalid: spec({ updateStrategy: { type: 'OnDelete', rollingUpdate: { partition: 1 } } }),
    corrected: spec({ updateStrategy: { type: 'OnDelete' } }),
    field: 'spec.updateStrategy.rollingUpdate',
  },
  {
    name: 'restartPolicy Never',
    invalid: spec({ template: { spec: { restartPolicy: 'Never' } } }),
    corrected: spec({ template: { spec: { restartPolicy: 'Always' } } }),
    field: 'spec.template.spec.restartPolicy',
  },
  {
    name: 'activeDeadlineSeconds',
    invalid: spec({ template: { spec: { activeDeadlineSeconds: 10 } } }),
    corrected: spec({}),
    field: 'spec.template.spec.activeDeadlineSeconds',
    says: 'activeDeadlineSeconds in statefulset is not supported',
  },
  {
    name: 'no containers',
    invalid: spec({ template: { spec: { containers: [] } } }),
    corrected: spec({}),
    field: 'spec.template.spec.containers',
  },
];

describe('Advanced StatefulSet CRD on a real API server', () => {
  let api: CustomObjectsApi;
  let namespace: TestNamespace;

  beforeAll(async () => {
    ({ api, namespace } = await statefulSetApi('asts-crd'));
  });

  afterAll(() => namespace[Symbol.asyncDispose]());

  const create = (body: Json): Promise<JsonObject> =>
    api.createNamespacedCustomObject({
      ...STATEFULSETS,
      namespace: namespace.name,
      body: body as JsonObject,
    }) as Promise<JsonObject>;

  it("applies the defaults of OpenKruise's mutating webhook", async () => {
    const created = await create(
      mergePatch(
        validStatefulSet('defaults'),
        spec({
          replicas: null,
          podManagementPolicy: null,
          template: { spec: { readinessGates: null } },
          updateStrategy: { rollingUpdate: {} },
        }),
      ),
    );
    const stored = created['spec'] as JsonObject;
    expect(stored['replicas']).toBe(1);
    expect(stored['podManagementPolicy']).toBe('OrderedReady');
    expect(stored['revisionHistoryLimit']).toBe(10);
    expect(stored['updateStrategy']).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { partition: 0, maxUnavailable: 1, podUpdatePolicy: 'ReCreate', minReadySeconds: 0 },
    });
  });

  it.each(documentationExamples)(
    'accepts the documentation example "$name" unchanged',
    async ({ name, spec: example }) => {
      const created = await create(mergePatch(validStatefulSet(`doc-${name}`), { spec: example }));
      expect((created['metadata'] as JsonObject)['name']).toBe(`doc-${name}`);
    },
  );

  it.each(cases.map((testCase, index) => ({ ...testCase, index })))(
    'rejects $name and accepts its corrected twin',
    async (testCase) => {
      const rejection = await rejectionOf(() =>
        create(mergePatch(validStatefulSet(`bad-${String(testCase.index)}`), testCase.invalid)),
      );
      expect(rejection.code).toBe(422);
      expect(rejection.message).toContain(testCase.field);
      if (testCase.says !== undefined) {
        expect(rejection.message).toContain(testCase.says);
      }
      await create(mergePatch(validStatefulSet(`good-${String(testCase.index)}`), testCase.corrected));
    },
  );

  it('refuses changes to serviceName, podManagementPolicy and the selector, and allows replicas and the template', async () => {
    await create(validStatefulSet('immutable'));
    const patch = (body: Json): Promise<unknown> =>
      api.patchNamespacedCustomObject(
        { ...STATEFULSETS, namespace: namespace.name, name: 'immutable', body: body as JsonObject },
        mergePatchHeader,
      );
    for (const [body, field] of [
      [spec({ serviceName: 'other' }), 'spec.serviceName'],
      [spec({ podManagementPolicy: 'OrderedReady' }), 'spec.podManagementPolicy'],
      [
        spec({
          selector: { matchLabels: { app: 'sample', tier: 'x' } },
          template: { metadata: { labels: { app: 'sample', tier: 'x' } } },
        }),
        'spec.selector',
      ],
    ] as const) {
      const rejection = await rejectionOf(() => patch(body));
      expect(rejection.message).toContain(field);
    }
    await patch(spec({ replicas: 5, template: { spec: { containers: [{ name: 'main', image: 'nginx:1.27' }] } } }));
  });

  it('scales through the scale subresource', async () => {
    await create(validStatefulSet('scaled'));
    await api.patchNamespacedCustomObjectScale(
      { ...STATEFULSETS, namespace: namespace.name, name: 'scaled', body: { spec: { replicas: 7 } } },
      mergePatchHeader,
    );
    const scale = (await api.getNamespacedCustomObjectScale({
      ...STATEFULSETS,
      namespace: namespace.name,
      name: 'scaled',
    })) as JsonObject;
    expect((scale['spec'] as JsonObject)['replicas']).toBe(7);
  });
});
