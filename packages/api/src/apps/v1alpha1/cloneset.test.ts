import { describe, expect, expectTypeOf, it } from 'vitest';

import type { PodTemplateSpec } from '../../meta/wire.ts';
import type { CloneSet, CloneSetInput } from './cloneset.ts';
import { cloneSetListSchema, cloneSetSchema } from './cloneset.ts';
import { cloneSetConditionSchema } from './cloneset-status.ts';
import { CloneSetUpdateStrategyType, DEFAULT_CLONESET_MAX_UNAVAILABLE } from './cloneset-update-strategy.ts';

/** A CloneSet as the API server returns it, every optional field set, plus fields this package does not model. */
const full = {
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  metadata: {
    name: 'sample',
    namespace: 'default',
    uid: '6f1c2d9e-0000-4000-8000-000000000001',
    resourceVersion: '4711',
    generation: 3,
    creationTimestamp: '2026-01-02T15:04:05Z',
    labels: { app: 'sample' },
    annotations: { 'apps.kruise.io/image-predownload-parallelism': '10' },
    finalizers: ['example.io/keep'],
    ownerReferences: [
      { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: 'u1', controller: false, futureRefField: 'x' },
    ],
    managedFields: [{ manager: 'kubectl', operation: 'Update', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': {} } }],
  },
  spec: {
    replicas: 5,
    selector: {
      matchLabels: { app: 'sample' },
      matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['db'] }],
    },
    template: {
      metadata: { labels: { app: 'sample' }, annotations: { note: 'kept' } },
      spec: {
        restartPolicy: 'Always',
        containers: [
          { name: 'nginx', image: 'nginx:alpine', imagePullPolicy: 'Always', ports: [{ containerPort: 80 }] },
        ],
        readinessGates: [{ conditionType: 'InPlaceUpdateReady' }],
      },
    },
    volumeClaimTemplates: [
      {
        metadata: { name: 'data-vol' },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '20Gi' } } },
      },
    ],
    scaleStrategy: {
      podsToDelete: ['sample-9m4hp'],
      maxUnavailable: 1,
      disablePVCReuse: true,
      excludePreparingDelete: true,
    },
    updateStrategy: {
      type: 'InPlaceIfPossible',
      partition: '20%',
      maxUnavailable: 0,
      maxSurge: '12.5%',
      paused: false,
      priorityStrategy: { weightPriority: [{ weight: 50, matchSelector: { matchLabels: { 'test-key': 'foo' } } }] },
      scatterStrategy: [{ key: 'foo', value: 'bar' }],
      inPlaceUpdateStrategy: {
        gracePeriodSeconds: 10,
        imagePreDownloadParallelism: 2,
        imagePreDownloadTimeoutSeconds: 600,
        imagePreDownloadMinUpdatedReadyPods: 1,
      },
      rollingUpdate: { fromAFutureVersion: true },
    },
    revisionHistoryLimit: 10,
    minReadySeconds: 30,
    lifecycle: {
      preDelete: { finalizersHandler: ['example.io/unready-blocker'], markPodNotReady: true },
      inPlaceUpdate: { labelsHandler: { 'example.io/block-unready': 'true' } },
      preNormal: { finalizersHandler: ['example.io/unready-blocker'] },
    },
    progressDeadlineSeconds: 600,
    aFutureSpecField: { nested: [1, 2, 3] },
  },
  status: {
    observedGeneration: 3,
    replicas: 5,
    readyReplicas: 5,
    availableReplicas: 4,
    updatedReplicas: 2,
    updatedReadyReplicas: 2,
    updatedAvailableReplicas: 2,
    expectedUpdatedReplicas: 4,
    updateRevision: 'sample-56dfb978d4',
    currentRevision: 'sample-d4d4fb5bd',
    collisionCount: 0,
    conditions: [
      {
        type: 'Progressing',
        status: 'True',
        reason: 'CloneSetUpdated',
        message: 'CloneSet is progressing',
        lastUpdateTime: '2026-01-02T15:04:05Z',
        lastTransitionTime: '2026-01-02T15:04:05Z',
      },
    ],
    labelSelector: 'app=sample,tier notin (db)',
    aFutureStatusField: 'kept',
  },
  aFutureTopLevelField: 'kept',
};

const minimal: CloneSetInput = {
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  metadata: { name: 'minimal' },
  spec: {
    selector: { matchLabels: { app: 'a' } },
    template: { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
  },
};

describe('cloneSetSchema', () => {
  it('round-trips a full CloneSet, keeping fields it does not model at every level', () => {
    expect(cloneSetSchema.parse(structuredClone(full))).toEqual(full);
  });

  it.each([
    {
      name: 'a stored minimal object',
      object: { ...minimal, spec: { ...minimal.spec, replicas: 1, revisionHistoryLimit: 10 } },
    },
    {
      name: 'a paused OnDelete strategy read from the API',
      object: { ...full, spec: { ...full.spec, updateStrategy: { ...full.spec.updateStrategy, type: 'OnDelete' } } },
    },
    { name: 'a CloneSet without status', object: { ...full, status: undefined } },
  ])('round-trips $name once defaulted', ({ object }) => {
    const once = cloneSetSchema.parse(structuredClone(object));
    expect(cloneSetSchema.parse(structuredClone(once))).toEqual(once);
  });

  it('applies the defaults the API server applies', () => {
    const parsed = cloneSetSchema.parse(minimal);
    expect(parsed.spec).toMatchObject({
      replicas: 1,
      revisionHistoryLimit: 10,
      updateStrategy: {
        type: CloneSetUpdateStrategyType.ReCreate,
        partition: 0,
        maxUnavailable: DEFAULT_CLONESET_MAX_UNAVAILABLE,
        maxSurge: 0,
      },
    });
    expect(parsed.spec).not.toHaveProperty('minReadySeconds');
    expect(parsed.spec).not.toHaveProperty('scaleStrategy');
  });

  it('fills the missing fields of a partly given updateStrategy', () => {
    const parsed = cloneSetSchema.parse({
      ...minimal,
      spec: { ...minimal.spec, updateStrategy: { type: 'InPlaceOnly', maxUnavailable: 1 } },
    });
    expect(parsed.spec.updateStrategy).toEqual({ type: 'InPlaceOnly', partition: 0, maxUnavailable: 1, maxSurge: 0 });
  });

  it.each([
    { name: 'a missing spec', patch: { spec: undefined } },
    { name: 'a missing selector', patch: { spec: { ...minimal.spec, selector: undefined } } },
    { name: 'an unknown update type', patch: { spec: { ...minimal.spec, updateStrategy: { type: 'Rolling' } } } },
    { name: 'a non-integer replicas', patch: { spec: { ...minimal.spec, replicas: 1.5 } } },
    { name: 'a boolean partition', patch: { spec: { ...minimal.spec, updateStrategy: { partition: true } } } },
    { name: 'a wrong apiVersion', patch: { apiVersion: 'apps.kruise.io/v1beta1' } },
  ])('rejects $name', ({ patch }) => {
    expect(cloneSetSchema.safeParse({ ...minimal, ...patch }).success).toBe(false);
  });

  /** `minimal` with its one container replaced by `container` (name and image kept unless overridden). */
  const withContainer = (container: object): object => ({
    ...minimal,
    spec: {
      ...minimal.spec,
      template: { ...minimal.spec.template, spec: { containers: [{ name: 'c', image: 'nginx', ...container }] } },
    },
  });

  it.each([
    {
      name: 'an empty containers list',
      object: { ...minimal, spec: { ...minimal.spec, template: { spec: { containers: [] } } } },
    },
    {
      name: 'a template without a pod spec',
      object: { ...minimal, spec: { ...minimal.spec, template: { metadata: { labels: { app: 'a' } } } } },
    },
    { name: 'containerPort as a string', object: withContainer({ ports: [{ containerPort: '80' }] }) },
    { name: 'a quantity that is not one', object: withContainer({ resources: { requests: { cpu: 'one' } } }) },
    {
      name: 'a boolean template annotation',
      object: {
        ...minimal,
        spec: { ...minimal.spec, template: { ...minimal.spec.template, metadata: { annotations: { a: true } } } },
      },
    },
    {
      name: 'a PVC template storage request that is not a quantity',
      object: {
        ...minimal,
        spec: { ...minimal.spec, volumeClaimTemplates: [{ spec: { resources: { requests: { storage: 'lots' } } } }] },
      },
    },
  ])('rejects $name, as the CRD does', ({ object }) => {
    expect(cloneSetSchema.safeParse(object).success).toBe(false);
  });

  it('keeps every quantity a Pod accepts as written: numbers (0.5 too) and quantity strings', () => {
    const resources = {
      requests: { cpu: 0.5, memory: 128974848 },
      limits: { cpu: '500m', memory: '1Gi', 'example.com/gpu': 1 },
    };
    expect(cloneSetSchema.parse(withContainer({ resources, env: [{ name: 'EMPTY', value: '' }] }))).toMatchObject(
      withContainer({ resources }),
    );
  });

  it('infers wire types: template is a client-node PodTemplateSpec with string timestamps', () => {
    expectTypeOf<CloneSet['spec']['template']>().toEqualTypeOf<PodTemplateSpec>();
    expectTypeOf<CloneSet['spec']['replicas']>().toEqualTypeOf<number>();
    expectTypeOf<CloneSet['spec']['updateStrategy']['maxUnavailable']>().toEqualTypeOf<number | string>();
    expectTypeOf<CloneSetInput['spec']['replicas']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<NonNullable<CloneSet['metadata']['creationTimestamp']>>().toEqualTypeOf<string>();
  });

  it('parses lists of CloneSets', () => {
    const list = {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'CloneSetList',
      metadata: { resourceVersion: '1' },
      items: [full],
    };
    expect(cloneSetListSchema.parse(structuredClone(list))).toEqual(list);
  });
});

describe('cloneSetConditionSchema', () => {
  it.each([
    { type: 'Progressing', status: 'True', reason: 'CloneSetUpdated' },
    { type: 'Progressing', status: 'True', reason: 'ProgressPartitionAvailable' },
    { type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded' },
  ])('accepts the condition of the documentation with reason $reason', (condition) => {
    expect(cloneSetConditionSchema.parse(condition)).toEqual(condition);
  });

  it('rejects an unquoted YAML boolean status (the API stores condition status as a string)', () => {
    expect(cloneSetConditionSchema.safeParse({ type: 'Progressing', status: false }).success).toBe(false);
  });
});
