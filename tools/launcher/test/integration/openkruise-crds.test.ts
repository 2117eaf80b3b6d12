/**
 * kruise-ts's CRDs installed where OpenKruise's were (issue 29), on a control plane of this test's own
 * (the CRDs of the test run's cluster are shared by every other test file). The OpenKruise CRDs are
 * built here with the shape that matters for the switch (names, versions with their served and storage
 * flags, the conversion webhook pointing at OpenKruise's Service, which no longer answers, and
 * schemas that keep every field); OpenKruise's own YAML is not part of this repository.
 *
 * - OpenKruise 1.9: Advanced StatefulSet, SidecarSet and BroadcastJob serve v1alpha1 and v1beta1 and
 *   store v1beta1 (storedVersions [v1beta1]); CloneSet v1alpha1.
 * - OpenKruise 1.7/1.8: SidecarSet and BroadcastJob serve and store v1alpha1 only.
 * Objects created under them are read back after `kubectl apply -f crds/` and after `helm install`
 * and `helm upgrade` of the chart, in both versions, with the launcher's conversion webhook running.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { ApiextensionsV1Api, KubeConfig } from '@kubernetes/client-node';
import type { V1CustomResourceDefinition } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createLogger, defineResource } from '@kruise-ts/controller-runtime';
import type { KubeObject, ResourceType } from '@kruise-ts/controller-runtime';
import { testClient } from '@kruise-ts/controller-runtime/testing';
import { startLocalCluster } from '@kruise-ts/local-cluster';
import type { LocalCluster } from '@kruise-ts/local-cluster';
import { toolBinary, waitFor } from '@kruise-ts/local-cluster/testing';

import { launcherFlagsSchema } from '../../src/apps.ts';
import { startControllers } from '../../src/controllers.ts';
import type { RunningControllers } from '../../src/controllers.ts';

type Json = KubeObject & { readonly spec?: Record<string, unknown> };

const REPO = fileURLToPath(new URL('../../../../', import.meta.url));
const CHART = path.join(REPO, 'charts', 'kruise-ts');
const NAMESPACE = 'default';

interface Kind {
  readonly kind: string;
  readonly plural: string;
  readonly namespaced: boolean;
  readonly scale?: boolean;
  /** OpenKruise's CRD converts through its webhook (Advanced StatefulSet; SidecarSet from 1.9); BroadcastJob's has strategy None. */
  readonly webhookConversion?: boolean;
}
const STS: Kind = {
  kind: 'StatefulSet',
  plural: 'statefulsets',
  namespaced: true,
  scale: true,
  webhookConversion: true,
};
const SCS: Kind = { kind: 'SidecarSet', plural: 'sidecarsets', namespaced: false, webhookConversion: true };
const BCJ: Kind = { kind: 'BroadcastJob', plural: 'broadcastjobs', namespaced: true };
const CS: Kind = { kind: 'CloneSet', plural: 'clonesets', namespaced: true, scale: true };

function resource(kind: Kind, version: string): ResourceType<Json> {
  return defineResource<Json>({
    group: 'apps.kruise.io',
    version,
    plural: kind.plural,
    kind: kind.kind,
    namespaced: kind.namespaced,
  });
}

/** An OpenKruise-shaped CRD: `versions` [name, storage], every field kept, conversion through OpenKruise's Service. */
function openKruiseCrd(kind: Kind, versions: readonly (readonly [string, boolean])[]): V1CustomResourceDefinition {
  // client-node's model property (it serialises only the properties it knows, by their model names).
  const schema = { openAPIV3Schema: { type: 'object', x_kubernetes_preserve_unknown_fields: true } };
  const subresources = {
    status: {},
    ...(kind.scale === true
      ? {
          scale: {
            specReplicasPath: '.spec.replicas',
            statusReplicasPath: '.status.replicas',
            labelSelectorPath: '.status.labelSelector',
          },
        }
      : {}),
  };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: {
      name: `${kind.plural}.apps.kruise.io`,
      annotations: { 'controller-gen.kubebuilder.io/version': 'v0.17.3' },
    },
    spec: {
      group: 'apps.kruise.io',
      names: { kind: kind.kind, listKind: `${kind.kind}List`, plural: kind.plural, singular: kind.plural.slice(0, -1) },
      scope: kind.namespaced ? 'Namespaced' : 'Cluster',
      versions: versions.map(([name, storage]) => ({ name, served: true, storage, schema, subresources })),
      ...(kind.webhookConversion === true
        ? {
            conversion: {
              strategy: 'Webhook',
              webhook: {
                conversionReviewVersions: ['v1', 'v1beta1'],
                clientConfig: {
                  service: { name: 'kruise-webhook-service', namespace: 'kruise-system', path: '/convert' },
                },
              },
            },
          }
        : {}),
    },
  };
}

let runDir = '';
let cluster: LocalCluster;
let kubeConfig: KubeConfig;

function run(binary: string, args: readonly string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      binary,
      args,
      {
        env: {
          ...process.env,
          KUBECONFIG: cluster.kubeconfigPath,
          HELM_CONFIG_HOME: path.join(runDir, 'helm'),
          HELM_CACHE_HOME: path.join(runDir, 'helm'),
          HELM_DATA_HOME: path.join(runDir, 'helm'),
        },
        maxBuffer: 32 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        resolve({
          code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1,
          output: `${stdout}${stderr}`,
        });
      },
    );
  });
}

async function kubectl(...args: string[]): Promise<{ code: number; output: string }> {
  return run(path.join(path.dirname(await toolBinary('kube')), 'kubectl'), args);
}

async function installCrds(crds: readonly V1CustomResourceDefinition[]): Promise<void> {
  const api = kubeConfig.makeApiClient(ApiextensionsV1Api);
  for (const crd of crds) {
    await api.createCustomResourceDefinition({ body: crd });
  }
  await waitFor(
    async () =>
      (
        await Promise.all(
          crds.map(
            async (crd) =>
              (await api.readCustomResourceDefinition({ name: crd.metadata?.name ?? '' })).status?.conditions?.some(
                (c) => c.type === 'Established' && c.status === 'True',
              ) === true,
          ),
        )
      ).every(Boolean),
    { description: 'the OpenKruise-shaped CRDs Established' },
  );
}

async function deleteCrds(names: readonly string[]): Promise<void> {
  const api = kubeConfig.makeApiClient(ApiextensionsV1Api);
  for (const name of names) {
    await api.deleteCustomResourceDefinition({ name }).catch(() => undefined);
  }
  await waitFor(
    async () =>
      (await api.listCustomResourceDefinition()).items.every((crd) => !names.includes(crd.metadata?.name ?? '')),
    { description: 'the CRDs deleted', timeoutMs: 60_000 },
  );
}

async function storedVersions(name: string): Promise<string[]> {
  return (
    (await kubeConfig.makeApiClient(ApiextensionsV1Api).readCustomResourceDefinition({ name })).status
      ?.storedVersions ?? []
  );
}

/** The launcher with the three apps, pointing the CRDs' conversion webhooks at itself (as `npm run controllers`). */
function startLauncher(): RunningControllers {
  const flags = launcherFlagsSchema.parse({
    'feature-gates': 'CloneSet=true,AdvancedStatefulSet=true,SidecarSet=true,BroadcastJob=true',
    'leader-elect': 'false',
    'metrics-bind-address': '0',
    'health-probe-bind-address': '0',
    'webhook-local-configuration': 'openkruise-crds-test',
    'webhook-port': '0',
    'sidecarset-revision-namespace': NAMESPACE,
  });
  return startControllers({ flags, kubeConfig, logger: createLogger({ level: 'silent' }) });
}

/** Until reading `kind` in `version` works (the launcher has registered the conversion webhook). */
async function readable(kind: Kind, version: string, name: string): Promise<Json> {
  const client = testClient(kubeConfig);
  const key = kind.namespaced ? { namespace: NAMESPACE, name } : { name };
  return waitFor(() => client.get(resource(kind, version), key).catch(() => undefined), {
    description: `${kind.kind} ${name} readable in ${version}`,
    timeoutMs: 60_000,
    intervalMs: 250,
  });
}

beforeAll(async () => {
  runDir = await mkdtemp(path.join(os.tmpdir(), 'kruise-ts-openkruise-crds-'));
  cluster = await startLocalCluster({ name: 'openkruise-crds', runDir, nodes: 1, handleSignals: false });
  kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(cluster.kubeconfigPath);
}, 180_000);

afterAll(async () => {
  await cluster.stop();
  await rm(runDir, { recursive: true, force: true });
});

const ASTS_SPEC = {
  replicas: 1,
  serviceName: 'db',
  reserveOrdinals: [0],
  selector: { matchLabels: { app: 'db' } },
  template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] } },
  updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
};
const SCS_V1BETA1_SPEC = {
  selector: { matchLabels: { app: 'web' } },
  namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': NAMESPACE } },
  customVersion: 'v3',
  containers: [{ name: 'logger', image: 'busybox:1.36' }],
};
const BCJ_SPEC = {
  template: { spec: { containers: [{ name: 'work', image: 'busybox:1.36' }], restartPolicy: 'Never' } },
  completionPolicy: { type: 'Never' },
};
const CS_SPEC = {
  replicas: 0,
  selector: { matchLabels: { app: 'web' } },
  template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] } },
};

const ALL_CRDS = [
  'statefulsets.apps.kruise.io',
  'sidecarsets.apps.kruise.io',
  'broadcastjobs.apps.kruise.io',
  'clonesets.apps.kruise.io',
];

/** OpenKruise 1.9's CRDs with one object of each kind, created in the version OpenKruise stores. */
async function openKruise19WithObjects(): Promise<Record<'sts' | 'scs' | 'bcj' | 'cs', Json>> {
  const beta = [
    ['v1alpha1', false],
    ['v1beta1', true],
  ] as const;
  await installCrds([
    openKruiseCrd(STS, beta),
    openKruiseCrd(SCS, beta),
    openKruiseCrd(BCJ, beta),
    openKruiseCrd(CS, [['v1alpha1', true]]),
  ]);
  const client = testClient(kubeConfig);
  const stored = {
    sts: await client.create(resource(STS, 'v1beta1'), {
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'StatefulSet',
      metadata: { name: 'db', namespace: NAMESPACE },
      spec: ASTS_SPEC,
    }),
    scs: await client.create(resource(SCS, 'v1beta1'), {
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'SidecarSet',
      metadata: { name: 'logs' },
      spec: SCS_V1BETA1_SPEC,
    }),
    bcj: await client.create(resource(BCJ, 'v1beta1'), {
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'BroadcastJob',
      metadata: { name: 'job', namespace: NAMESPACE },
      spec: BCJ_SPEC,
    }),
    cs: await client.create(resource(CS, 'v1alpha1'), {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'CloneSet',
      metadata: { name: 'web', namespace: NAMESPACE },
      spec: CS_SPEC,
    }),
  };
  for (const plural of ['statefulsets', 'sidecarsets', 'broadcastjobs']) {
    expect(await storedVersions(`${plural}.apps.kruise.io`)).toEqual(['v1beta1']);
  }
  return stored;
}

/** Every object of openKruise19WithObjects reads back: the same object in v1beta1, OpenKruise's conversion in v1alpha1. */
async function expectReadBack(stored: Record<'sts' | 'scs' | 'bcj' | 'cs', Json>): Promise<void> {
  const sts = await readable(STS, 'v1beta1', 'db');
  expect(sts.spec).toMatchObject(ASTS_SPEC);
  expect(sts.metadata?.uid).toBe(stored.sts.metadata?.uid);
  const stsAlpha = await readable(STS, 'v1alpha1', 'db');
  expect(stsAlpha.spec?.['reserveOrdinals']).toBeUndefined();
  expect(stsAlpha.spec).toMatchObject({ replicas: 1, serviceName: 'db' });
  const scs = await readable(SCS, 'v1beta1', 'logs');
  expect(scs.spec).toMatchObject(SCS_V1BETA1_SPEC);
  expect(scs.metadata?.uid).toBe(stored.scs.metadata?.uid);
  const scsAlpha = await readable(SCS, 'v1alpha1', 'logs');
  expect(scsAlpha.metadata?.labels).toEqual({ 'apps.kruise.io/sidecarset-custom-version': 'v3' });
  expect(scsAlpha.spec).toMatchObject({ namespaceSelector: SCS_V1BETA1_SPEC.namespaceSelector });
  expect((await readable(BCJ, 'v1alpha1', 'job')).spec).toMatchObject(BCJ_SPEC);
  expect((await readable(BCJ, 'v1beta1', 'job')).metadata?.uid).toBe(stored.bcj.metadata?.uid);
  expect((await readable(CS, 'v1alpha1', 'web')).spec).toMatchObject(CS_SPEC);
}

describe('over OpenKruise 1.9 CRDs (storedVersions [v1beta1])', () => {
  it('kubectl apply --server-side -f crds/ replaces them; every object reads back unchanged in v1beta1 and converted in v1alpha1', async () => {
    const stored = await openKruise19WithObjects();
    const applied = await kubectl('apply', '--server-side', '--force-conflicts', '-f', path.join(REPO, 'crds'));
    expect(applied.output).not.toContain('Invalid value');
    expect(applied.code, applied.output).toBe(0);
    const controllers = startLauncher();
    try {
      await expectReadBack(stored);
    } finally {
      await controllers.stop();
    }
    await deleteCrds(ALL_CRDS);
  }, 300_000);

  it('helm install (and helm upgrade) of the chart takes them over; every object reads back', async () => {
    const stored = await openKruise19WithObjects();
    const helm = await toolBinary('helm');
    const gates = 'AdvancedStatefulSet=true\\,SidecarSet=true\\,BroadcastJob=true';
    const install = await run(helm, [
      'install',
      'kts',
      CHART,
      '--namespace',
      'kruise-system',
      '--create-namespace',
      '--set',
      `featureGates=${gates}`,
      '--take-ownership',
      '--force-conflicts',
    ]);
    expect(install.code, install.output).toBe(0);
    const cloneSets = await kubeConfig
      .makeApiClient(ApiextensionsV1Api)
      .readCustomResourceDefinition({ name: 'clonesets.apps.kruise.io' });
    expect(cloneSets.metadata?.annotations).toMatchObject({
      'helm.sh/resource-policy': 'keep',
      'meta.helm.sh/release-name': 'kts',
    });
    // The chart's apps run no pod here: the launcher serves the conversions (as `npm run controllers`).
    let controllers = startLauncher();
    try {
      await expectReadBack(stored);
      // The launcher puts the chart's conversion back when it stops, and the upgrade applies the chart's again.
      await controllers.stop();
      const upgrade = await run(helm, [
        'upgrade',
        'kts',
        CHART,
        '--namespace',
        'kruise-system',
        '--set',
        `featureGates=${gates}`,
        '--set',
        'logging.level=debug',
      ]);
      expect(upgrade.code, upgrade.output).toBe(0);
      controllers = startLauncher();
      await expectReadBack(stored);
    } finally {
      await controllers.stop();
    }
    const uninstall = await run(helm, ['uninstall', 'kts', '--namespace', 'kruise-system']);
    expect(uninstall.code, uninstall.output).toBe(0);
    // helm.sh/resource-policy: keep
    expect((await readable(CS, 'v1alpha1', 'web')).metadata?.uid).toBe(stored.cs.metadata?.uid);
    await deleteCrds(ALL_CRDS);
  }, 300_000);
});

describe('over OpenKruise 1.7/1.8 CRDs (SidecarSet and BroadcastJob stored in v1alpha1)', () => {
  it('kubectl apply -f crds/ replaces them; objects stored in v1alpha1 read back in both versions', async () => {
    await installCrds([
      openKruiseCrd(STS, [
        ['v1alpha1', false],
        ['v1beta1', true],
      ]),
      openKruiseCrd(SCS, [['v1alpha1', true]]),
      openKruiseCrd(BCJ, [['v1alpha1', true]]),
    ]);
    const client = testClient(kubeConfig);
    const scsSpec = {
      namespace: NAMESPACE,
      selector: { matchLabels: { app: 'web' } },
      containers: [{ name: 'logger', image: 'busybox:1.36' }],
    };
    await client.create(resource(SCS, 'v1alpha1'), {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'SidecarSet',
      metadata: { name: 'old-logs', labels: { 'apps.kruise.io/sidecarset-custom-version': 'v1' } },
      spec: scsSpec,
    });
    await client.create(resource(BCJ, 'v1alpha1'), {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'BroadcastJob',
      metadata: { name: 'old-job', namespace: NAMESPACE },
      spec: BCJ_SPEC,
    });

    const applied = await kubectl('apply', '-f', path.join(REPO, 'crds'));
    expect(applied.code, applied.output).toBe(0);
    // The API server adds the new storage version at once and keeps the old one while objects may be stored in it.
    expect(await storedVersions('sidecarsets.apps.kruise.io')).toEqual(['v1alpha1', 'v1beta1']);

    const controllers = startLauncher();
    try {
      const alpha = await readable(SCS, 'v1alpha1', 'old-logs');
      expect(alpha.spec).toMatchObject(scsSpec);
      expect(alpha.metadata?.labels).toEqual({ 'apps.kruise.io/sidecarset-custom-version': 'v1' });
      const beta = await readable(SCS, 'v1beta1', 'old-logs');
      expect(beta.spec).toMatchObject({
        namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': NAMESPACE } },
        customVersion: 'v1',
      });
      expect((await readable(BCJ, 'v1beta1', 'old-job')).spec).toMatchObject(BCJ_SPEC);
    } finally {
      await controllers.stop();
    }
  }, 300_000);
});
