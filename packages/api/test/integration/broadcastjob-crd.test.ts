/**
 * The generated BroadcastJob CRD on a real kube-apiserver: the documentation's YAML applies unchanged
 * (also as `bcj`), the server applies OpenKruise's webhook defaults, and each rule of its validating
 * webhook (§C.2) refuses bad input naming the field while its corrected twin is accepted.
 */
import { randomBytes } from 'node:crypto';

import type { CustomObjectsApi } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createTestNamespace, testKubeConfig } from '@kruise-ts/local-cluster/testing';

import { BROADCASTJOB_PRINTER_COLUMNS, broadcastJobCrdDefinition, broadcastJobSchema } from '../../src/index.ts';
import type { Json, JsonObject } from '../support/cloneset-api.ts';
import { mergePatch, rejectionOf } from '../support/cloneset-api.ts';
import { broadcastJobApi, BROADCASTJOBS, validBroadcastJob } from '../support/broadcastjob-api.ts';

const RUN = randomBytes(3).toString('hex');
const spec = (value: Json): Json => ({ spec: value });
const podSpec = (value: Json): Json => spec({ template: { spec: value } });

const cases: readonly {
  readonly name: string;
  readonly invalid: Json;
  readonly corrected: Json;
  readonly field: string;
  readonly says?: string;
}[] = [
  {
    name: 'restartPolicy Always',
    invalid: podSpec({ restartPolicy: 'Always' }),
    corrected: podSpec({ restartPolicy: 'OnFailure' }),
    field: 'spec.template.spec.restartPolicy',
  },
  {
    name: 'no restartPolicy',
    invalid: podSpec({ restartPolicy: null }),
    corrected: podSpec({ restartPolicy: 'Never' }),
    field: 'spec.template.spec.restartPolicy',
  },
  {
    name: 'no container',
    invalid: podSpec({ containers: [] }),
    corrected: podSpec({ containers: [{ name: 'c', image: 'busybox' }] }),
    field: 'spec.template.spec.containers',
  },
  {
    name: 'the reserved label broadcastjob-name',
    invalid: spec({ template: { metadata: { labels: { 'broadcastjob-name': 'x' } } } }),
    corrected: spec({ template: { metadata: { labels: { app: 'x' } } } }),
    field: 'spec.template.metadata.labels',
    says: 'broadcastjob-name and broadcastjob-controller-uid are set by the broadcastjob controller',
  },
  {
    name: 'the reserved label broadcastjob-controller-uid',
    invalid: spec({ template: { metadata: { labels: { 'broadcastjob-controller-uid': 'x' } } } }),
    corrected: spec({}),
    field: 'spec.template.metadata.labels',
  },
  {
    name: 'ttlSecondsAfterFinished with Never',
    invalid: spec({ completionPolicy: { type: 'Never', ttlSecondsAfterFinished: 30 } }),
    corrected: spec({ completionPolicy: { type: 'Never', ttlSecondsAfterFinished: null } }),
    field: 'spec.completionPolicy.ttlSecondsAfterFinished',
  },
  {
    name: 'activeDeadlineSeconds with Never',
    invalid: spec({ completionPolicy: { type: 'Never', ttlSecondsAfterFinished: null, activeDeadlineSeconds: 60 } }),
    corrected: spec({ completionPolicy: { type: 'Always', activeDeadlineSeconds: 60 } }),
    field: 'spec.completionPolicy.activeDeadlineSeconds',
  },
  {
    name: 'a negative parallelism',
    invalid: spec({ parallelism: -1 }),
    corrected: spec({ parallelism: '50%' }),
    field: 'spec.parallelism',
  },
  {
    name: 'a parallelism that is no percentage',
    invalid: spec({ parallelism: 'half' }),
    corrected: spec({ parallelism: 2 }),
    field: 'spec.parallelism',
  },
  {
    name: 'an unknown failurePolicy',
    invalid: spec({ failurePolicy: { type: 'Retry' } }),
    corrected: spec({ failurePolicy: { type: 'Continue' } }),
    field: 'spec.failurePolicy.type',
  },
  {
    name: 'a negative restartLimit',
    invalid: spec({ failurePolicy: { restartLimit: -1 } }),
    corrected: spec({ failurePolicy: { restartLimit: 3 } }),
    field: 'spec.failurePolicy.restartLimit',
  },
  {
    name: 'an unknown completionPolicy',
    invalid: spec({ completionPolicy: { type: 'Sometimes' } }),
    corrected: spec({ completionPolicy: { type: 'Never', ttlSecondsAfterFinished: null } }),
    field: 'spec.completionPolicy.type',
  },
];

describe('BroadcastJob CRD on a real API server', () => {
  let api: CustomObjectsApi;
  let namespace: string;
  let dispose: (() => PromiseLike<void>) | undefined;

  beforeAll(async () => {
    api = await broadcastJobApi();
    const ns = await createTestNamespace(testKubeConfig(), 'bcj-crd');
    namespace = ns.name;
    dispose = () => ns[Symbol.asyncDispose]();
  });

  afterAll(async () => {
    await dispose?.();
  });

  const create = async (body: Json): Promise<JsonObject> =>
    (await api.createNamespacedCustomObject({ ...BROADCASTJOBS, namespace, body: body as JsonObject })) as JsonObject;
  const named = (name: string): string => `${name}-${RUN}`;

  it("accepts the documentation's example, applies OpenKruise's defaults, and reads back through the schema", async () => {
    const stored = await create(validBroadcastJob(named('defaults')));
    expect((stored['spec'] as JsonObject)['parallelism']).toBe(2147483647);
    expect((stored['spec'] as JsonObject)['paused']).toBe(false);
    expect((stored['spec'] as JsonObject)['failurePolicy']).toEqual({ type: 'FailFast', restartLimit: 0 });
    expect((stored['spec'] as JsonObject)['completionPolicy']).toEqual({ type: 'Always', ttlSecondsAfterFinished: 30 });
    expect(broadcastJobSchema.safeParse(stored).success).toBe(true);
    const listed = (await api.listNamespacedCustomObject({ ...BROADCASTJOBS, namespace })) as { items: JsonObject[] };
    expect(listed.items.length).toBeGreaterThan(0);
  });

  it('is namespaced, answers to bcj, and shows Desired, Active, Succeeded, Failed', () => {
    expect(broadcastJobCrdDefinition.scope).toBe('Namespaced');
    expect(broadcastJobCrdDefinition.names.shortNames).toEqual(['bcj']);
    expect(BROADCASTJOB_PRINTER_COLUMNS.map((column) => column.name)).toEqual([
      'Desired',
      'Active',
      'Succeeded',
      'Failed',
      'AGE',
    ]);
  });

  it.each(cases.map((testCase, index) => ({ ...testCase, index })))(
    'rejects $name and accepts its corrected twin',
    async (testCase) => {
      const rejection = await rejectionOf(() =>
        create(mergePatch(validBroadcastJob(named(`bad-${String(testCase.index)}`)), testCase.invalid)),
      );
      expect(rejection.code).toBe(422);
      expect(rejection.message).toContain(testCase.field);
      if (testCase.says !== undefined) {
        expect(rejection.message).toContain(testCase.says);
      }
      await create(mergePatch(validBroadcastJob(named(`good-${String(testCase.index)}`)), testCase.corrected));
    },
  );

  it('refuses a name with other characters than letters, digits and dashes', async () => {
    const rejection = await rejectionOf(() => create(validBroadcastJob(`dotted.${named('name')}`)));
    expect(rejection.message).toContain('metadata.name');
  });
});
