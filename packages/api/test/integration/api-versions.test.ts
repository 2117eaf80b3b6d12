/**
 * Both served versions of Advanced StatefulSet, SidecarSet and BroadcastJob on a real API server, as
 * OpenKruise 1.9 serves them (storage v1beta1): an object created in one version reads back in the
 * other with OpenKruise's conversion, and a round trip through the other version (read, edit, write
 * back) loses nothing. The conversion webhook is the test run's (the apps' own converter, see
 * tools/launcher/src/testing/conversion-global-setup.ts).
 */
import { randomBytes } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { CustomObjectsApi } from '@kubernetes/client-node';
import { createTestNamespace, testKubeConfig } from '@kruise-ts/local-cluster/testing';

import { conversionAnnotation } from '../../src/index.ts';

interface Json {
  readonly apiVersion?: string;
  readonly metadata?: {
    readonly name?: string;
    readonly labels?: Record<string, string>;
    readonly annotations?: Record<string, string>;
  };
  readonly spec?: Record<string, unknown>;
}
interface Kind {
  readonly plural: string;
  readonly namespaced: boolean;
}
type Version = 'v1alpha1' | 'v1beta1';

const kubeConfig = testKubeConfig();
const api = kubeConfig.makeApiClient(CustomObjectsApi);
const group = 'apps.kruise.io';

/** The few calls these tests make on one kind in one version (namespace '' for cluster-scoped kinds). */
function objects(
  kind: Kind,
  version: Version,
  namespace = '',
): {
  create: (body: object) => Promise<Json>;
  get: (name: string) => Promise<Json>;
  update: (body: Json) => Promise<Json>;
} {
  const at = { group, version, plural: kind.plural };
  return {
    create: async (body) =>
      (kind.namespaced
        ? api.createNamespacedCustomObject({ ...at, namespace, body })
        : api.createClusterCustomObject({ ...at, body })) as Promise<Json>,
    get: async (name) =>
      (kind.namespaced
        ? api.getNamespacedCustomObject({ ...at, namespace, name })
        : api.getClusterCustomObject({ ...at, name })) as Promise<Json>,
    update: async (body) => {
      const name = body.metadata?.name ?? '';
      return (
        kind.namespaced
          ? api.replaceNamespacedCustomObject({ ...at, namespace, name, body })
          : api.replaceClusterCustomObject({ ...at, name, body })
      ) as Promise<Json>;
    },
  };
}

async function deleteSidecarSet(name: string): Promise<void> {
  await api.deleteClusterCustomObject({ group, version: 'v1beta1', plural: 'sidecarsets', name });
}

const sts: Kind = { plural: 'statefulsets', namespaced: true };
const scs: Kind = { plural: 'sidecarsets', namespaced: false };
const bcj: Kind = { plural: 'broadcastjobs', namespaced: true };

const podTemplate = {
  metadata: { labels: { app: 'db' } },
  spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] },
};

describe('Advanced StatefulSet in v1alpha1 and v1beta1', () => {
  it("a v1alpha1 set (OpenKruise's older examples) is stored as v1beta1 and reads back the same in v1alpha1", async () => {
    await using namespace = await createTestNamespace(kubeConfig, 'versions-sts');
    const spec = {
      replicas: 2,
      serviceName: 'db',
      selector: { matchLabels: { app: 'db' } },
      template: podTemplate,
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1, maxUnavailable: 1 } },
    };
    await objects(sts, 'v1alpha1', namespace.name).create({
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'StatefulSet',
      metadata: { name: 'old' },
      spec,
    });
    const beta = await objects(sts, 'v1beta1', namespace.name).get('old');
    expect(beta.apiVersion).toBe('apps.kruise.io/v1beta1');
    expect(beta.spec).toMatchObject(spec);
    const alpha = await objects(sts, 'v1alpha1', namespace.name).get('old');
    expect(alpha.spec).toMatchObject(spec);
    expect(alpha.metadata?.annotations).toBeUndefined();
  });

  it("v1beta1's own fields are absent from v1alpha1 and survive an update written in v1alpha1", async () => {
    await using namespace = await createTestNamespace(kubeConfig, 'versions-sts');
    const only = {
      reserveOrdinals: [1],
      ordinals: { start: 3 },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Retain' },
      scaleStrategy: { maxUnavailable: 1 },
    };
    const spec = {
      replicas: 2,
      selector: { matchLabels: { app: 'db' } },
      template: podTemplate,
      podManagementPolicy: 'Parallel',
      ...only,
    };
    await objects(sts, 'v1beta1', namespace.name).create({
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'StatefulSet',
      metadata: { name: 'new' },
      spec,
    });
    const alpha = await objects(sts, 'v1alpha1', namespace.name).get('new');
    for (const field of Object.keys(only)) {
      expect(alpha.spec?.[field], field).toBeUndefined();
    }
    expect(Object.keys(alpha.metadata?.annotations ?? {})).toEqual([conversionAnnotation('v1beta1')]);
    // kubectl edit in v1alpha1: the whole object written back with one change.
    await objects(sts, 'v1alpha1', namespace.name).update({ ...alpha, spec: { ...alpha.spec, replicas: 4 } });
    const beta = await objects(sts, 'v1beta1', namespace.name).get('new');
    expect(beta.spec).toMatchObject({ ...only, replicas: 4 });
    expect(beta.metadata?.annotations).toBeUndefined();
  });

  it('the stale annotation that restores ordinals.start (issue 38): an old copy of the v1alpha1 annotation written back does not put back what v1beta1 removed since', async () => {
    await using namespace = await createTestNamespace(kubeConfig, 'versions-sts');
    const spec = {
      replicas: 2,
      selector: { matchLabels: { app: 'db' } },
      template: podTemplate,
      ordinals: { start: 3 },
    };
    await objects(sts, 'v1beta1', namespace.name).create({
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'StatefulSet',
      metadata: { name: 'stale' },
      spec,
    });
    const copy = await objects(sts, 'v1alpha1', namespace.name).get('stale');
    // Generation 2: ordinals removed in v1beta1 (the v1alpha1 view does not change).
    const beta = await objects(sts, 'v1beta1', namespace.name).get('stale');
    const withoutOrdinals = Object.fromEntries(
      Object.entries(beta.spec ?? {}).filter(([field]) => field !== 'ordinals'),
    );
    await objects(sts, 'v1beta1', namespace.name).update({ ...beta, spec: withoutOrdinals });
    // The old copy's annotation written back (as an apply of a saved file does) with the current object.
    const current = await objects(sts, 'v1alpha1', namespace.name).get('stale');
    await objects(sts, 'v1alpha1', namespace.name).update({
      ...current,
      metadata: { ...current.metadata, annotations: copy.metadata?.annotations ?? {} },
    });
    expect((await objects(sts, 'v1beta1', namespace.name).get('stale')).spec?.['ordinals']).toBeUndefined();
  });
});

describe('SidecarSet in v1alpha1 and v1beta1', () => {
  const name = (): string => `versions-${randomBytes(3).toString('hex')}`;
  const containers = [{ name: 'logger', image: 'busybox:1.36' }];

  it("v1alpha1's namespace and custom-version label are v1beta1's namespaceSelector and customVersion, and come back as written", async () => {
    const setName = name();
    const created = {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'SidecarSet',
      metadata: { name: setName, labels: { 'apps.kruise.io/sidecarset-custom-version': 'v7', team: 'a' } },
      spec: { namespace: 'team-a', selector: { matchLabels: { app: 'web' } }, containers },
    };
    await objects(scs, 'v1alpha1').create(created);
    try {
      const beta = await objects(scs, 'v1beta1').get(setName);
      expect(beta.spec).toMatchObject({
        namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'team-a' } },
        customVersion: 'v7',
      });
      expect(beta.spec?.['namespace']).toBeUndefined();
      expect(beta.metadata?.labels).toEqual({ team: 'a' });
      const alpha = await objects(scs, 'v1alpha1').get(setName);
      expect(alpha.spec).toMatchObject({ namespace: 'team-a' });
      expect(alpha.spec?.['namespaceSelector']).toBeUndefined();
      expect(alpha.metadata?.labels).toEqual(created.metadata.labels);
      expect(alpha.metadata?.annotations).toBeUndefined();
    } finally {
      await deleteSidecarSet(setName);
    }
  });

  it('a v1beta1 SidecarSet (OpenKruise 1.9 documentation) reads in v1alpha1 with the custom-version label', async () => {
    const setName = name();
    await objects(scs, 'v1beta1').create({
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'SidecarSet',
      metadata: { name: setName },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        namespaceSelector: { matchLabels: { env: 'prod' } },
        customVersion: 'v2',
        containers,
      },
    });
    try {
      const alpha = await objects(scs, 'v1alpha1').get(setName);
      expect(alpha.metadata?.labels).toEqual({ 'apps.kruise.io/sidecarset-custom-version': 'v2' });
      expect(alpha.spec).toMatchObject({ namespaceSelector: { matchLabels: { env: 'prod' } } });
      expect(alpha.spec?.['customVersion']).toBeUndefined();
      await objects(scs, 'v1alpha1').update({ ...alpha, spec: { ...alpha.spec, revisionHistoryLimit: 3 } });
      const beta = await objects(scs, 'v1beta1').get(setName);
      expect(beta.spec).toMatchObject({
        customVersion: 'v2',
        revisionHistoryLimit: 3,
        namespaceSelector: { matchLabels: { env: 'prod' } },
      });
      expect(beta.metadata?.labels).toBeUndefined();
    } finally {
      await deleteSidecarSet(setName);
    }
  });
});

describe('BroadcastJob in v1alpha1 and v1beta1', () => {
  it("is the same object in both versions (the CRD converts with strategy None, as OpenKruise 1.9's)", async () => {
    await using namespace = await createTestNamespace(kubeConfig, 'versions-bcj');
    const spec = {
      parallelism: 2,
      template: { spec: { containers: [{ name: 'work', image: 'busybox:1.36' }], restartPolicy: 'Never' } },
      completionPolicy: { type: 'Always', ttlSecondsAfterFinished: 30 },
      failurePolicy: { type: 'FailFast' },
    };
    await objects(bcj, 'v1beta1', namespace.name).create({
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'BroadcastJob',
      metadata: { name: 'job' },
      spec,
    });
    const alpha = await objects(bcj, 'v1alpha1', namespace.name).get('job');
    const beta = await objects(bcj, 'v1beta1', namespace.name).get('job');
    expect(alpha.apiVersion).toBe('apps.kruise.io/v1alpha1');
    expect(alpha.spec).toEqual(beta.spec);
    expect(beta.spec).toMatchObject(spec);
  });
});
