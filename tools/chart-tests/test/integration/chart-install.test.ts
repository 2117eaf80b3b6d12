/**
 * The chart on a real control plane: `helm install --wait` into a namespace that enforces Pod Security
 * "restricted" (the API server's PodSecurity admission judges the pods; kwok runs them as Running and
 * Ready without starting anything), then each app runs out of cluster with exactly the args the chart
 * rendered for its Deployment and a token of the chart's ServiceAccount for it (not an admin identity),
 * and reconciles a CloneSet end to end in another namespace, which proves the RBAC is sufficient;
 * requests outside the roles are denied; `helm uninstall` leaves the CloneSets. The chart's CRDs
 * are left out here (crds.install=false, see installChart in ../support/helm.ts); their install, with
 * helm.sh/resource-policy: keep, is proven by tools/launcher/test/integration/openkruise-crds.test.ts.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import {
  ApiException,
  AppsV1Api,
  AuthorizationV1Api,
  CoordinationV1Api,
  CoreV1Api,
  CustomObjectsApi,
  PatchStrategy,
  RbacAuthorizationV1Api,
  ApiextensionsV1Api,
  setHeaderOptions,
} from '@kubernetes/client-node';
import type { V1Deployment, V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { serviceAccountKubeConfig } from '@kruise-ts/local-cluster';
import type { ServiceAccountKubeConfig } from '@kruise-ts/local-cluster';
import { createTestNamespace, testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';
import type { TestNamespace } from '@kruise-ts/local-cluster/testing';

import { CHART_DIRECTORY, REPOSITORY_ROOT, restrictedViolations } from '../../src/index.ts';
import { statusCode } from '../support/status-code.ts';
import { outOfClusterFlags, startApp } from '../support/app-process.ts';
import type { AppProcess } from '../support/app-process.ts';
import { CHART_TEST_CRD_ARGS, runHelm } from '../support/helm.ts';
import type { HelmResult } from '../support/helm.ts';

const admin = testKubeConfig();
const core = admin.makeApiClient(CoreV1Api);
const apps = admin.makeApiClient(AppsV1Api);
const custom = admin.makeApiClient(CustomObjectsApi);

const RELEASE = `kt-${randomBytes(3).toString('hex')}`;
const APP = `${RELEASE}-kruise-ts-cloneset`;
const CLONESET = { group: 'apps.kruise.io', version: 'v1alpha1', plural: 'clonesets' } as const;
/** The gate string of README.md's install example. */
const README_GATES = 'CloneSet=true,InPlaceWorkloadVerticalScaling=true';
const MERGE_PATCH = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

interface CloneSetView {
  readonly metadata: { readonly generation?: number };
  readonly spec: { readonly replicas: number };
  readonly status?: {
    readonly observedGeneration?: number;
    readonly replicas?: number;
    readonly readyReplicas?: number;
    readonly updatedReadyReplicas?: number;
    readonly currentRevision?: string;
    readonly updateRevision?: string;
  };
}

let releaseNamespace: TestNamespace;
let workloadNamespace: TestNamespace;
let installed = false;
let account: ServiceAccountKubeConfig | undefined;

/** helm with the run's admin kubeconfig (the one the tests use). */
async function helmAgainstCluster(args: readonly string[]): Promise<HelmResult> {
  return runHelm(args, { kubeconfig: inject('kubeconfigPath') });
}

async function readCloneSet(namespace: string, name: string): Promise<CloneSetView> {
  return (await custom.getNamespacedCustomObject({ ...CLONESET, namespace, name })) as CloneSetView;
}

/** The app whose CloneSet a test waits for: its log goes into a timeout's message. */
let runningApp: AppProcess | undefined;

/** Where a wait stopped: the CloneSet's status, its pods and claims, the app's last log lines. */
async function cloneSetState(namespace: string): Promise<unknown> {
  const cs = await readCloneSet(namespace, 'sample-data').catch((error: unknown) => String(error));
  const pods = (await activePods(namespace)).map((pod) => ({
    name: pod.metadata?.name,
    phase: pod.status?.phase,
    conditions: pod.status?.conditions?.map((condition) => `${condition.type}=${condition.status}`),
    lifecycle: pod.metadata?.labels?.['lifecycle.apps.kruise.io/state'],
  }));
  const claims = (await core.listNamespacedPersistentVolumeClaim({ namespace })).items.map(
    (claim) => claim.metadata?.name,
  );
  return { cloneSet: cs, pods, claims, appLog: runningApp?.output().split('\n').slice(-40) };
}

async function waitForCloneSet(
  namespace: string,
  description: string,
  check: (cs: CloneSetView) => boolean,
): Promise<CloneSetView> {
  return waitFor(
    async () => {
      const cs = await readCloneSet(namespace, 'sample-data');
      return check(cs) ? cs : undefined;
    },
    { description, timeoutMs: 90_000, state: () => cloneSetState(namespace) },
  );
}

function settled(cs: CloneSetView, replicas: number): boolean {
  const status = cs.status;
  return (
    status?.observedGeneration === cs.metadata.generation &&
    status?.replicas === replicas &&
    status.readyReplicas === replicas &&
    status.updatedReadyReplicas === replicas &&
    status.currentRevision === status.updateRevision
  );
}

async function activePods(namespace: string): Promise<V1Pod[]> {
  const pods = await core.listNamespacedPod({ namespace, labelSelector: 'app=sample' });
  return pods.items
    .filter((pod) => pod.metadata?.deletionTimestamp === undefined)
    .sort((a, b) => (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''));
}

async function installedDeployment(): Promise<V1Deployment> {
  return apps.readNamespacedDeployment({ name: APP, namespace: releaseNamespace.name });
}

beforeAll(async () => {
  releaseNamespace = await createTestNamespace(admin, 'chart-release');
  workloadNamespace = await createTestNamespace(admin, 'chart-workload');
  // Every pod of the release namespace must pass the restricted profile, or the API server rejects it.
  await core.patchNamespace(
    {
      name: releaseNamespace.name,
      body: {
        metadata: {
          labels: {
            'pod-security.kubernetes.io/enforce': 'restricted',
            'pod-security.kubernetes.io/enforce-version': 'latest',
            'pod-security.kubernetes.io/warn': 'restricted',
          },
        },
      },
    },
    MERGE_PATCH,
  );
});

afterAll(async () => {
  if (installed) {
    await helmAgainstCluster(['uninstall', RELEASE, '--namespace', releaseNamespace.name, '--wait']);
  }
  await workloadNamespace[Symbol.asyncDispose]();
  await releaseNamespace[Symbol.asyncDispose]();
});

describe('the kruise-ts chart on the local control plane', () => {
  it("uses the gate string of README.md's install command", async () => {
    const readme = await readFile(path.join(REPOSITORY_ROOT, 'README.md'), 'utf8');
    expect(readme).toContain(`--set featureGates='${README_GATES.replaceAll(',', '\\,')}'`);
  });

  it('installs with --wait into a namespace that enforces Pod Security "restricted"', async () => {
    // The README's install command (gates as in README.md, commas escaped for --set), without the CRDs
    // the test run has installed already (CHART_TEST_CRD_ARGS).
    const result = await helmAgainstCluster([
      'install',
      RELEASE,
      CHART_DIRECTORY,
      '--namespace',
      releaseNamespace.name,
      '--create-namespace',
      '--set',
      `featureGates=${README_GATES.replaceAll(',', '\\,')}`,
      '--wait',
      '--timeout',
      '3m',
      ...CHART_TEST_CRD_ARGS,
    ]);
    expect(result.stderr).not.toContain('Error');
    expect(result.code).toBe(0);
    installed = true;
    expect(result.stdout).toContain(`Deployment ${APP}`);

    const deployment = await installedDeployment();
    expect(deployment.status?.availableReplicas).toBe(1);
    const pods = await core.listNamespacedPod({
      namespace: releaseNamespace.name,
      labelSelector: `app.kubernetes.io/instance=${RELEASE},app.kubernetes.io/component=cloneset`,
    });
    expect(pods.items).toHaveLength(1);
    const [pod] = pods.items;
    expect(pod?.status?.phase).toBe('Running');
    expect(restrictedViolations(pod?.spec ?? { containers: [] }, pod?.metadata?.annotations ?? {})).toEqual([]);

    // The namespace really enforces it: the same pod without its security settings is refused.
    const unsafe = { metadata: { name: 'unsafe' }, spec: { containers: [{ name: 'app', image: 'kruise-ts:0.1.0' }] } };
    const refused = await core
      .createNamespacedPod({ namespace: releaseNamespace.name, body: unsafe, dryRun: 'All' })
      .then(
        () => '',
        (error: unknown) =>
          error instanceof ApiException
            ? (JSON.parse(String(error.body)) as { message: string }).message
            : String(error),
      );
    expect(refused).toContain('pods "unsafe" is forbidden: violates PodSecurity "restricted:latest"');
  });

  it("runs the CloneSet app out of cluster with the Deployment's args and its ServiceAccount's token, and reconciles a CloneSet end to end", async () => {
    const container = (await installedDeployment()).spec?.template.spec?.containers[0];
    const [entrypoint = '', ...flags] = container?.args ?? [];
    expect(entrypoint).toBe('dist/cloneset.mjs');
    expect(flags).toContain(`--feature-gates=${README_GATES}`);
    account = await serviceAccountKubeConfig(admin, {
      namespace: releaseNamespace.name,
      name: (await installedDeployment()).spec?.template.spec?.serviceAccountName ?? '',
    });
    expect(account.username).toBe(`system:serviceaccount:${releaseNamespace.name}:${APP}`);

    // --namespace: the run's cluster is shared with other test files, whose CloneSets this app must not
    // touch. The cluster-wide rules are checked on their own below (listing across namespaces).
    // With the container command's node flags (the chart's nodeFlags): node must accept them.
    const [node, ...nodeFlags] = container?.command ?? [];
    expect(node).toBe('node');
    expect(nodeFlags.length).toBeGreaterThan(0);
    const app: AppProcess = await startApp(
      entrypoint,
      [...outOfClusterFlags(flags), `--kubeconfig=${account.path}`, `--namespace=${workloadNamespace.name}`],
      nodeFlags,
    );
    runningApp = app;
    try {
      const leaseName = flags.find((flag) => flag.startsWith('--leader-election-id='))?.split('=')[1] ?? '';
      const lease = await waitFor(
        async () =>
          (
            await admin
              .makeApiClient(CoordinationV1Api)
              .readNamespacedLease({ name: leaseName, namespace: releaseNamespace.name })
          ).spec?.holderIdentity,
        { description: `the app to hold its Lease ${leaseName} in the release namespace`, timeoutMs: 60_000 },
      );
      expect(lease).not.toBe('');
      const healthPort = await waitFor(() => Promise.resolve(/"healthProbePort":(\d+)/.exec(app.output())?.[1]), {
        description: 'the health probe port in the log',
      });
      expect((await fetch(`http://127.0.0.1:${healthPort}/healthz`)).status).toBe(200);
      await waitFor(async () => (await fetch(`http://127.0.0.1:${healthPort}/readyz`)).status === 200, {
        description: '/readyz (caches synced)',
      });

      const namespace = workloadNamespace.name;
      await custom.createNamespacedCustomObject({
        ...CLONESET,
        namespace,
        body: {
          apiVersion: 'apps.kruise.io/v1alpha1',
          kind: 'CloneSet',
          metadata: { name: 'sample-data', labels: { app: 'sample' } },
          spec: {
            replicas: 2,
            selector: { matchLabels: { app: 'sample' } },
            template: {
              metadata: { labels: { app: 'sample' } },
              spec: {
                containers: [
                  {
                    name: 'nginx',
                    image: 'nginx:alpine',
                    volumeMounts: [{ name: 'data-vol', mountPath: '/usr/share/nginx/html' }],
                  },
                ],
              },
            },
            volumeClaimTemplates: [
              {
                metadata: { name: 'data-vol' },
                spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '20Gi' } } },
              },
            ],
            updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: '50%' },
          },
        },
      });
      await waitForCloneSet(namespace, 'two ready pods', (cs) => settled(cs, 2));

      // Scale out: new pods with their own PVCs.
      await custom.patchNamespacedCustomObject(
        { ...CLONESET, namespace, name: 'sample-data', body: { spec: { replicas: 4 } } },
        MERGE_PATCH,
      );
      await waitForCloneSet(namespace, 'four ready pods', (cs) => settled(cs, 4));
      const before = await activePods(namespace);
      expect(before).toHaveLength(4);
      const claims = (await core.listNamespacedPersistentVolumeClaim({ namespace })).items;
      expect(claims).toHaveLength(4);
      expect(claims.every((claim) => claim.metadata?.ownerReferences?.[0]?.kind === 'CloneSet')).toBe(true);

      // In-place image update: same pods (names and UIDs), new image, one container restart each.
      await custom.patchNamespacedCustomObject(
        {
          ...CLONESET,
          namespace,
          name: 'sample-data',
          body: {
            spec: {
              template: {
                spec: {
                  containers: [
                    {
                      name: 'nginx',
                      image: 'nginx:mainline',
                      volumeMounts: [{ name: 'data-vol', mountPath: '/usr/share/nginx/html' }],
                    },
                  ],
                },
              },
            },
          },
        },
        MERGE_PATCH,
      );
      await waitForCloneSet(
        namespace,
        'all four updated in place',
        (cs) => settled(cs, 4) && cs.status?.updateRevision !== undefined,
      );
      const after = await activePods(namespace);
      expect(after.map((pod) => pod.metadata?.uid)).toEqual(before.map((pod) => pod.metadata?.uid));
      expect(after.map((pod) => pod.spec?.containers[0]?.image)).toEqual(Array<string>(4).fill('nginx:mainline'));
      expect(after.map((pod) => pod.status?.containerStatuses?.[0]?.restartCount)).toEqual([1, 1, 1, 1]);

      // Events in the workload's namespace, written with the app's identity.
      const events = (
        await core.listNamespacedEvent({
          namespace,
          fieldSelector: 'involvedObject.kind=CloneSet,involvedObject.name=sample-data',
        })
      ).items;
      const reasons = new Set(events.map((event) => event.reason));
      expect(reasons).toContain('SuccessfulCreate');
      expect(reasons).toContain('SuccessfulUpdatePodInPlace');
      expect(events.every((event) => event.source?.component === 'cloneset-controller')).toBe(true);
    } finally {
      expect(await app.stop()).toBe(0);
    }
    expect(app.output()).not.toMatch(/forbidden/i);
    expect(app.output()).toContain('Shutting down');
  });

  it("denies the app's ServiceAccount everything its roles do not grant (403), and grants what they do across namespaces", async () => {
    if (account === undefined) {
      throw new Error('the previous test did not get a ServiceAccount token');
    }
    const asApp = account.kubeConfig;
    const appCore = asApp.makeApiClient(CoreV1Api);
    const appApps = asApp.makeApiClient(AppsV1Api);
    const appCustom = asApp.makeApiClient(CustomObjectsApi);
    const appLeases = asApp.makeApiClient(CoordinationV1Api);
    const namespace = workloadNamespace.name;

    expect(await statusCode(() => appCore.listNamespacedSecret({ namespace }))).toBe(403);
    expect(await statusCode(() => appCore.listSecretForAllNamespaces())).toBe(403);
    expect(await statusCode(() => appCore.listNamespacedConfigMap({ namespace }))).toBe(403);
    const deployment = {
      metadata: { name: 'not-allowed' },
      spec: {
        selector: { matchLabels: { a: 'b' } },
        template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'c' }] } },
      },
    };
    expect(await statusCode(() => appApps.createNamespacedDeployment({ namespace, body: deployment }))).toBe(403);
    const cloneSet: object = (await appCustom.getNamespacedCustomObject({
      ...CLONESET,
      namespace,
      name: 'sample-data',
    })) as object;
    expect(
      await statusCode(() =>
        appCustom.replaceNamespacedCustomObject({ ...CLONESET, namespace, name: 'sample-data', body: cloneSet }),
      ),
    ).toBe(403);
    expect(
      await statusCode(() => appCustom.deleteNamespacedCustomObject({ ...CLONESET, namespace, name: 'sample-data' })),
    ).toBe(403);
    expect(
      await statusCode(() => appLeases.createNamespacedLease({ namespace, body: { metadata: { name: 'elsewhere' } } })),
    ).toBe(403);
    expect(
      await statusCode(() =>
        appLeases.readNamespacedLease({ namespace: releaseNamespace.name, name: 'another-apps-lease' }),
      ),
    ).toBe(403);

    // Granted cluster-wide, as the app needs without --namespace.
    expect(await statusCode(() => appCustom.listClusterCustomObject({ ...CLONESET }))).toBe(200);
    expect(
      await statusCode(() =>
        appCore.listPodForAllNamespaces({ labelSelector: 'apps.kruise.io/cloneset-instance-id', limit: 1 }),
      ),
    ).toBe(200);
    expect(await statusCode(() => appCore.listNode({ limit: 1 }))).toBe(200);

    // pods/resize is granted only because this release sets InPlaceWorkloadVerticalScaling=true (the
    // render tests check that it is absent otherwise).
    const review = await asApp.makeApiClient(AuthorizationV1Api).createSelfSubjectAccessReview({
      body: { spec: { resourceAttributes: { namespace, verb: 'patch', resource: 'pods', subresource: 'resize' } } },
    });
    expect(review.status?.allowed).toBe(true);
  });

  it('lets users holding the built-in edit role manage CloneSets (aggregated ClusterRoles)', async () => {
    const namespace = workloadNamespace.name;
    await admin.makeApiClient(RbacAuthorizationV1Api).createNamespacedRoleBinding({
      namespace,
      body: {
        metadata: { name: 'alice-edit' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice' }],
      },
    });
    const can = async (verb: string, subresource = ''): Promise<boolean> =>
      (
        await admin.makeApiClient(AuthorizationV1Api).createSubjectAccessReview({
          body: {
            spec: {
              user: 'alice',
              resourceAttributes: { namespace, verb, group: 'apps.kruise.io', resource: 'clonesets', subresource },
            },
          },
        })
      ).status?.allowed === true;
    // The clusterrole-aggregation controller copies the rules into edit shortly after the install.
    await waitFor(async () => (await can('create')) && (await can('update', 'scale')), {
      description: 'edit to include the CloneSet rules',
    });
    expect(await can('update', 'status')).toBe(false);
  });

  it('uninstalls the apps and keeps the CloneSets', async () => {
    const result = await helmAgainstCluster(['uninstall', RELEASE, '--namespace', releaseNamespace.name, '--wait']);
    expect(result.code).toBe(0);
    installed = false;
    expect(await statusCode(() => installedDeployment())).toBe(404);
    expect(await statusCode(() => admin.makeApiClient(RbacAuthorizationV1Api).readClusterRole({ name: APP }))).toBe(
      404,
    );
    const crd = await admin
      .makeApiClient(ApiextensionsV1Api)
      .readCustomResourceDefinition({ name: 'clonesets.apps.kruise.io' });
    expect(crd.metadata?.deletionTimestamp).toBeUndefined();
    expect((await readCloneSet(workloadNamespace.name, 'sample-data')).spec.replicas).toBe(4);
  });
});
