/**
 * The generated SidecarSet CRD on a real kube-apiserver: the documentation's YAML applies unchanged,
 * the server applies OpenKruise's webhook defaults, and each rule of OpenKruise's validating webhook
 * that CEL can express (§B.5) refuses bad input naming the field while its corrected twin is accepted.
 * SidecarSets are cluster-scoped: every name carries this run's suffix and is deleted after.
 */
import { randomBytes } from 'node:crypto';

import type { CustomObjectsApi } from '@kubernetes/client-node';
import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Json, JsonObject } from '../support/cloneset-api.ts';
import { mergePatch, rejectionOf } from '../support/cloneset-api.ts';
import { sidecarSetApi, SIDECARSETS, validSidecarSet } from '../support/sidecarset-api.ts';

const RUN = randomBytes(3).toString('hex');
const mergePatchHeader = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
const spec = (value: Json): Json => ({ spec: value });
const container = (extra: Json): Json =>
  spec({ containers: [mergePatch({ name: 'sidecar1', image: 'centos:6.7' }, extra)] });

const cases: readonly {
  readonly name: string;
  readonly invalid: Json;
  readonly corrected: Json;
  readonly field: string;
  readonly says?: string;
}[] = [
  {
    name: 'an empty selector',
    invalid: spec({ selector: { matchLabels: null } }),
    corrected: spec({}),
    field: 'spec.selector',
    says: 'empty selector is not valid for sidecarset',
  },
  {
    name: 'namespace with namespaceSelector',
    invalid: spec({ namespace: 'a', namespaceSelector: { matchLabels: { team: 'a' } } }),
    corrected: spec({ namespace: 'a' }),
    field: 'spec.namespace',
  },
  {
    name: 'an empty namespaceSelector',
    invalid: spec({ namespaceSelector: {} }),
    corrected: spec({ namespaceSelector: { matchLabels: { team: 'a' } } }),
    field: 'spec.namespaceSelector',
  },
  {
    name: 'no container at all',
    invalid: spec({ containers: null }),
    corrected: spec({ containers: null, initContainers: [{ name: 'init', image: 'busybox' }] }),
    field: 'spec.containers',
  },
  {
    name: 'a native sidecar init container with RollingUpdate',
    invalid: spec({ initContainers: [{ name: 'native', image: 'busybox', restartPolicy: 'Always' }] }),
    corrected: spec({
      initContainers: [{ name: 'native', image: 'busybox', restartPolicy: 'Always' }],
      updateStrategy: { type: 'NotUpdate' },
    }),
    field: 'spec.initContainers',
    says: 'in-place upgrade is not currently supported',
  },
  {
    name: 'partition with selector',
    invalid: spec({ updateStrategy: { partition: 2, selector: { matchLabels: { canary: 'true' } } } }),
    corrected: spec({ updateStrategy: { partition: 0, selector: { matchLabels: { canary: 'true' } } } }),
    field: 'spec.updateStrategy',
    says: 'partition and selector cannot be used together',
  },
  {
    name: 'a negative maxUnavailable',
    invalid: spec({ updateStrategy: { maxUnavailable: -1 } }),
    corrected: spec({ updateStrategy: { maxUnavailable: '50%' } }),
    field: 'spec.updateStrategy.maxUnavailable',
  },
  {
    name: 'a revision without name or version',
    invalid: spec({ injectionStrategy: { revision: { policy: 'Partial' } } }),
    corrected: spec({ injectionStrategy: { revision: { customVersion: 'v1', policy: 'Partial' } } }),
    field: 'spec.injectionStrategy.revision',
  },
  {
    name: 'an unknown podInjectPolicy',
    invalid: container({ podInjectPolicy: 'Somewhere' }),
    corrected: container({ podInjectPolicy: 'AfterAppContainer' }),
    field: 'podInjectPolicy',
  },
  {
    name: 'an unknown shareVolumePolicy',
    invalid: container({ shareVolumePolicy: { type: 'sometimes' } }),
    corrected: container({ shareVolumePolicy: { type: 'enabled' } }),
    field: 'shareVolumePolicy.type',
  },
  {
    name: 'HotUpgrade without an empty image',
    invalid: container({ upgradeStrategy: { upgradeType: 'HotUpgrade' } }),
    corrected: container({ upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'busybox:empty' } }),
    field: 'hotUpgradeEmptyImage',
  },
  {
    name: 'transferEnv from a fieldRef of another apiVersion',
    invalid: container({
      transferEnv: [
        { sourceContainerNameFrom: { fieldRef: { apiVersion: 'v2', fieldPath: 'metadata.name' } }, envName: 'A' },
      ],
    }),
    corrected: container({
      transferEnv: [
        { sourceContainerNameFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } }, envName: 'A' },
      ],
    }),
    field: 'sourceContainerNameFrom.fieldRef.apiVersion',
  },
  {
    name: 'patchPodMetadata without annotations',
    invalid: spec({ patchPodMetadata: [{ patchPolicy: 'Overwrite' }] }),
    corrected: spec({ patchPodMetadata: [{ annotations: { a: 'b' } }] }),
    field: 'annotations',
  },
  {
    name: 'two containers of one name',
    invalid: spec({
      containers: [
        { name: 'x', image: 'a' },
        { name: 'x', image: 'b' },
      ],
    }),
    corrected: spec({
      containers: [
        { name: 'x', image: 'a' },
        { name: 'y', image: 'b' },
      ],
    }),
    field: 'spec.containers',
  },
];

describe('SidecarSet CRD on a real API server', () => {
  let api: CustomObjectsApi;
  const created: string[] = [];

  beforeAll(async () => {
    api = await sidecarSetApi();
  });

  afterAll(async () => {
    await Promise.all(
      created.map((name) => api.deleteClusterCustomObject({ ...SIDECARSETS, name }).catch(() => undefined)),
    );
  });

  const create = async (body: Json): Promise<JsonObject> => {
    const result = (await api.createClusterCustomObject({ ...SIDECARSETS, body: body as JsonObject })) as JsonObject;
    const name = (result['metadata'] as JsonObject)['name'];
    if (typeof name === 'string') {
      created.push(name);
    }
    return result;
  };
  const named = (name: string): string => `${name}-${RUN}`;

  it("applies the defaults of OpenKruise's mutating webhook", async () => {
    const stored = (await create(
      mergePatch(
        validSidecarSet(named('defaults')),
        spec({ updateStrategy: null, initContainers: [{ name: 'init', image: 'busybox' }] }),
      ),
    )) as { spec: JsonObject };
    expect(stored.spec['updateStrategy']).toEqual({ type: 'RollingUpdate', partition: 0, maxUnavailable: 1 });
    expect(stored.spec['revisionHistoryLimit']).toBe(10);
    const [sidecar] = stored.spec['containers'] as JsonObject[];
    expect(sidecar).toMatchObject({
      podInjectPolicy: 'BeforeAppContainer',
      upgradeStrategy: { upgradeType: 'ColdUpgrade' },
      shareVolumePolicy: { type: 'disabled' },
    });
    const [init] = stored.spec['initContainers'] as JsonObject[];
    expect(init).toMatchObject({ podInjectPolicy: 'AfterAppContainer' });
    // The container body keeps what the schema does not declare.
    expect(sidecar?.['volumeMounts']).toEqual([{ name: 'log-volume', mountPath: '/var/log' }]);
  });

  it('is cluster-scoped and shows MATCHED, UPDATED and READY', async () => {
    const crd = await import('../../src/index.ts');
    expect(crd.sidecarSetCrdDefinition.scope).toBe('Cluster');
    expect(crd.SIDECARSET_PRINTER_COLUMNS.map((column) => column.name)).toEqual(['MATCHED', 'UPDATED', 'READY', 'AGE']);
  });

  it.each(cases.map((testCase, index) => ({ ...testCase, index })))(
    'rejects $name and accepts its corrected twin',
    async (testCase) => {
      const rejection = await rejectionOf(() =>
        create(mergePatch(validSidecarSet(named(`bad-${String(testCase.index)}`)), testCase.invalid)),
      );
      expect(rejection.code).toBe(422);
      expect(rejection.message).toContain(testCase.field);
      if (testCase.says !== undefined) {
        expect(rejection.message).toContain(testCase.says);
      }
      await create(mergePatch(validSidecarSet(named(`good-${String(testCase.index)}`)), testCase.corrected));
    },
  );

  it('refuses a name with other characters than letters, digits and dashes', async () => {
    const rejection = await rejectionOf(() => create(validSidecarSet(`dotted.${named('name')}`)));
    expect(rejection.message).toContain('metadata.name');
  });

  it('refuses a new container and a changed upgradeType on update, and allows a new image', async () => {
    const name = named('update');
    await create(validSidecarSet(name));
    const patch = (body: Json): Promise<unknown> =>
      api.patchClusterCustomObject({ ...SIDECARSETS, name, body: body as JsonObject }, mergePatchHeader);
    const added = await rejectionOf(() =>
      patch(
        spec({
          containers: [
            { name: 'sidecar1', image: 'centos:6.7' },
            { name: 'sidecar2', image: 'busybox' },
          ],
        }),
      ),
    );
    expect(added.message).toContain('a container cannot be added');
    const changed = await rejectionOf(() =>
      patch(
        spec({
          containers: [
            {
              name: 'sidecar1',
              image: 'centos:6.7',
              upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'e' },
            },
          ],
        }),
      ),
    );
    expect(changed.message).toContain('upgradeType: field is immutable');
    await patch(spec({ containers: [{ name: 'sidecar1', image: 'centos:7' }] }));
  });
});
