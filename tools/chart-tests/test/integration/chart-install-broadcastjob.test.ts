/**
 * The chart with BroadcastJob=true on a real control plane: the app gets its own Deployment,
 * ServiceAccount and RBAC, and, run out of cluster with the Deployment's args and a token of that
 * ServiceAccount (not an admin identity), it runs BroadcastJobs end to end on fake nodes of this
 * test's own (labelled, and selected by the jobs' nodeSelector, so that no other test's node gets a
 * pod): a pod on each node, the pod of a node that stops fitting deleted, completion, and a finished
 * job deleted once its TTL passed. That proves each rule of its least-privilege ClusterRole is
 * sufficient; the same token is then denied what the roles do not grant.
 */
import { randomBytes } from 'node:crypto';

import {
  AppsV1Api,
  AuthorizationV1Api,
  CoordinationV1Api,
  CoreV1Api,
  CustomObjectsApi,
  PatchStrategy,
  setHeaderOptions,
} from '@kubernetes/client-node';
import type { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { serviceAccountKubeConfig } from '@kruise-ts/local-cluster';
import type { ServiceAccountKubeConfig } from '@kruise-ts/local-cluster';
import {
  createFakeNodes,
  createTestNamespace,
  TEST_NODE_TOLERATION,
  testKubeConfig,
  waitFor,
} from '@kruise-ts/local-cluster/testing';
import type { FakeNodes, TestNamespace } from '@kruise-ts/local-cluster/testing';

import { statusCode } from '../support/status-code.ts';
import { outOfClusterFlags, startApp } from '../support/app-process.ts';
import { installChart, runHelm } from '../support/helm.ts';

const admin = testKubeConfig();
const core = admin.makeApiClient(CoreV1Api);
const custom = admin.makeApiClient(CustomObjectsApi);
const RELEASE = `ktb-${randomBytes(3).toString('hex')}`;
const APP = `${RELEASE}-kruise-ts-broadcastjob`;
const BROADCASTJOBS = { group: 'apps.kruise.io', version: 'v1alpha1', plural: 'broadcastjobs' } as const;
const GATES = 'CloneSet=false,AdvancedStatefulSet=false,BroadcastJob=true';
/** The label of this test's nodes (its value: the workload namespace), which the jobs select. */
const NODE_LABEL = 'chart-bcj.kruise-ts.io/test';
const MERGE_PATCH = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
const JSON_PATCH = setHeaderOptions('Content-Type', PatchStrategy.JsonPatch);

interface JobView {
  readonly status?: {
    readonly desired?: number;
    readonly active?: number;
    readonly succeeded?: number;
    readonly failed?: number;
    readonly phase?: string;
    readonly conditions?: readonly { readonly type: string; readonly status: string }[];
  };
}

let releaseNamespace: TestNamespace;
let workloadNamespace: TestNamespace;
let nodes: FakeNodes | undefined;
let installed = false;
let account: ServiceAccountKubeConfig | undefined;

beforeAll(async () => {
  releaseNamespace = await createTestNamespace(admin, 'chart-bcj-release');
  workloadNamespace = await createTestNamespace(admin, 'chart-bcj-workload');
  nodes = await createFakeNodes(admin, {
    prefix: 'chart-bcj',
    count: 3,
    labels: { [NODE_LABEL]: workloadNamespace.name },
  });
});

afterAll(async () => {
  if (installed) {
    await runHelm(['uninstall', RELEASE, '--namespace', releaseNamespace.name, '--wait'], {
      kubeconfig: inject('kubeconfigPath'),
    });
  }
  await nodes?.[Symbol.asyncDispose]();
  await workloadNamespace[Symbol.asyncDispose]();
  await releaseNamespace[Symbol.asyncDispose]();
});

/** A job on this test's nodes: one container that the simulated kubelet runs for `runMs`. */
function jobBody(name: string, options: { readonly runMs: number; readonly ttlSecondsAfterFinished?: number }): object {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'BroadcastJob',
    metadata: { name },
    spec: {
      template: {
        metadata: { labels: { app: name }, annotations: { 'sim.kruise-ts.io/run-ms': String(options.runMs) } },
        spec: {
          containers: [{ name: 'work', image: 'busybox:1.36' }],
          restartPolicy: 'Never',
          nodeSelector: { [NODE_LABEL]: workloadNamespace.name },
          tolerations: [TEST_NODE_TOLERATION],
          terminationGracePeriodSeconds: 0,
        },
      },
      completionPolicy: {
        type: 'Always',
        ...(options.ttlSecondsAfterFinished === undefined
          ? {}
          : { ttlSecondsAfterFinished: options.ttlSecondsAfterFinished }),
      },
    },
  };
}

async function readJob(name: string): Promise<JobView> {
  return (await custom.getNamespacedCustomObject({
    ...BROADCASTJOBS,
    namespace: workloadNamespace.name,
    name,
  })) as JobView;
}

async function waitForJob(name: string, description: string, check: (job: JobView) => boolean): Promise<JobView> {
  return waitFor(
    async () => {
      const job = await readJob(name);
      return check(job) ? job : undefined;
    },
    { description, timeoutMs: 60_000 },
  );
}

async function allowed(
  kubeConfig: KubeConfig,
  attributes: {
    readonly verb: string;
    readonly group?: string;
    readonly resource: string;
    readonly subresource?: string;
  },
): Promise<boolean> {
  const review = await kubeConfig.makeApiClient(AuthorizationV1Api).createSelfSubjectAccessReview({
    body: { spec: { resourceAttributes: { namespace: workloadNamespace.name, ...attributes } } },
  });
  return review.status?.allowed === true;
}

async function jobEventReasons(name: string): Promise<{ readonly reasons: string[]; readonly components: string[] }> {
  const events = (
    await core.listNamespacedEvent({
      namespace: workloadNamespace.name,
      fieldSelector: `involvedObject.kind=BroadcastJob,involvedObject.name=${name}`,
    })
  ).items;
  return {
    reasons: events.map((event) => event.reason ?? ''),
    components: [...new Set(events.map((event) => event.source?.component ?? ''))],
  };
}

/** Runs the sample job; the pod of the node whose label is removed mid-run is deleted by the app. */
async function runSampleJob(nodeNames: readonly string[]): Promise<void> {
  const namespace = workloadNamespace.name;
  await custom.createNamespacedCustomObject({ ...BROADCASTJOBS, namespace, body: jobBody('sample', { runMs: 5000 }) });
  await waitForJob(
    'sample',
    'a running pod on each of the 3 nodes',
    (job) => job.status?.desired === 3 && job.status.active === 3,
  );
  const leaving = nodeNames[2] ?? '';
  await core.patchNode(
    { name: leaving, body: [{ op: 'remove', path: `/metadata/labels/${NODE_LABEL.replace('/', '~1')}` }] },
    JSON_PATCH,
  );
  const done = await waitForJob(
    'sample',
    'the job completed on the 2 nodes that still fit',
    (job) => job.status?.phase === 'completed',
  );
  expect(done.status).toMatchObject({ desired: 2, active: 0, succeeded: 2, failed: 0 });
  expect(done.status?.conditions).toContainEqual(expect.objectContaining({ type: 'Complete', status: 'True' }));
  const pods = await waitFor(
    async () => {
      const list = (await core.listNamespacedPod({ namespace, labelSelector: 'broadcastjob-name=sample' })).items;
      return list.length === 2 ? list : undefined;
    },
    { description: 'the pod of the node that left the selector to be gone' },
  );
  expect(pods.map((pod) => pod.spec?.nodeName).sort()).toEqual([...nodeNames.slice(0, 2)].sort());
  expect(pods.every((pod) => pod.status?.phase === 'Succeeded')).toBe(true);
  const events = await jobEventReasons('sample');
  expect(events.reasons.filter((reason) => reason === 'SuccessfulCreate')).toHaveLength(3);
  expect(events.reasons).toEqual(expect.arrayContaining(['SuccessfulDelete', 'JobComplete']));
  expect(events.components).toEqual(['broadcastjob-controller']);
}

/** A job with ttlSecondsAfterFinished 0 is deleted by the app once it completed. */
async function runShortLivedJob(): Promise<void> {
  await custom.createNamespacedCustomObject({
    ...BROADCASTJOBS,
    namespace: workloadNamespace.name,
    body: jobBody('short-lived', { runMs: 500, ttlSecondsAfterFinished: 0 }),
  });
  await waitFor(async () => ((await statusCode(() => readJob('short-lived'))) === 404 ? true : undefined), {
    description: 'the finished job deleted after its TTL',
    timeoutMs: 60_000,
  });
  expect((await jobEventReasons('short-lived')).reasons).toContain('JobComplete');
}

describe('the chart with BroadcastJob=true', () => {
  it('deploys the app with its own ServiceAccount and RBAC, and the app runs BroadcastJobs with that identity', async () => {
    const result = await installChart({
      release: RELEASE,
      namespace: releaseNamespace.name,
      gates: GATES,
      kubeconfig: inject('kubeconfigPath'),
    });
    expect(result.code, result.stderr).toBe(0);
    installed = true;
    const deployment = await admin
      .makeApiClient(AppsV1Api)
      .readNamespacedDeployment({ name: APP, namespace: releaseNamespace.name });
    expect(deployment.status?.availableReplicas).toBe(1);
    const serviceAccountName = deployment.spec?.template.spec?.serviceAccountName ?? '';
    expect(serviceAccountName).toBe(APP);
    const [entrypoint = '', ...flags] = deployment.spec?.template.spec?.containers[0]?.args ?? [];
    expect(entrypoint).toBe('dist/broadcastjob.mjs');
    expect(flags).toContain(`--feature-gates=${GATES}`);

    account = await serviceAccountKubeConfig(admin, { namespace: releaseNamespace.name, name: serviceAccountName });
    // --namespace: the run's cluster is shared with other test files, whose jobs this app must not touch.
    const app = await startApp(entrypoint, [
      ...outOfClusterFlags(flags),
      `--kubeconfig=${account.path}`,
      `--namespace=${workloadNamespace.name}`,
    ]);
    try {
      const leaseName = flags.find((flag) => flag.startsWith('--leader-election-id='))?.split('=')[1] ?? '';
      await waitFor(
        async () =>
          (
            await admin
              .makeApiClient(CoordinationV1Api)
              .readNamespacedLease({ name: leaseName, namespace: releaseNamespace.name })
          ).spec?.holderIdentity,
        {
          description: `the app to hold its Lease ${leaseName}`,
          timeoutMs: 60_000,
        },
      );
      await runSampleJob(nodes?.names ?? []);
      await runShortLivedJob();
    } finally {
      expect(await app.stop()).toBe(0);
    }
    expect(app.output()).not.toMatch(/forbidden/i);
  });

  it("denies the app's ServiceAccount what its roles do not grant (403), and grants what the app calls, cluster-wide", async () => {
    if (account === undefined) {
      throw new Error('the previous test did not get a ServiceAccount token');
    }
    const asApp = account.kubeConfig;
    const appCore = asApp.makeApiClient(CoreV1Api);
    const appCustom = asApp.makeApiClient(CustomObjectsApi);
    const namespace = workloadNamespace.name;
    const pod =
      (await core.listNamespacedPod({ namespace, labelSelector: 'broadcastjob-name=sample' })).items[0]?.metadata
        ?.name ?? '';
    const node = nodes?.names[0] ?? '';

    // Jobs and pods are read from the caches (list/watch), never by name, and never changed but for the job's status.
    expect(
      await statusCode(() => appCustom.getNamespacedCustomObject({ ...BROADCASTJOBS, namespace, name: 'sample' })),
    ).toBe(403);
    expect(
      await statusCode(() =>
        appCustom.patchNamespacedCustomObject(
          { ...BROADCASTJOBS, namespace, name: 'sample', body: { spec: { paused: true } } },
          MERGE_PATCH,
        ),
      ),
    ).toBe(403);
    expect(
      await statusCode(() =>
        appCustom.createNamespacedCustomObject({
          ...BROADCASTJOBS,
          namespace,
          body: jobBody('not-allowed', { runMs: 1 }),
        }),
      ),
    ).toBe(403);
    expect(await statusCode(() => appCore.readNamespacedPod({ namespace, name: pod }))).toBe(403);
    expect(
      await statusCode(() =>
        appCore.patchNamespacedPod(
          { namespace, name: pod, body: { metadata: { labels: { touched: 'yes' } } } },
          MERGE_PATCH,
        ),
      ),
    ).toBe(403);
    expect(
      await statusCode(() =>
        appCore.patchNode({ name: node, body: { metadata: { labels: { touched: 'yes' } } } }, MERGE_PATCH),
      ),
    ).toBe(403);
    expect(await statusCode(() => appCore.listNamespacedSecret({ namespace }))).toBe(403);
    expect(await statusCode(() => appCore.listNamespacedConfigMap({ namespace }))).toBe(403);
    expect(await statusCode(() => appCore.listNamespacedPersistentVolumeClaim({ namespace }))).toBe(403);
    expect(await statusCode(() => asApp.makeApiClient(AppsV1Api).listNamespacedControllerRevision({ namespace }))).toBe(
      403,
    );
    expect(await statusCode(() => asApp.makeApiClient(AppsV1Api).listNamespacedDeployment({ namespace }))).toBe(403);
    expect(
      await statusCode(() =>
        asApp
          .makeApiClient(CoordinationV1Api)
          .createNamespacedLease({ namespace, body: { metadata: { name: 'elsewhere' } } }),
      ),
    ).toBe(403);
    expect(
      await statusCode(() =>
        asApp
          .makeApiClient(CoordinationV1Api)
          .readNamespacedLease({ namespace: releaseNamespace.name, name: 'another-apps-lease' }),
      ),
    ).toBe(403);
    expect(
      await allowed(asApp, {
        verb: 'update',
        group: 'apps.kruise.io',
        resource: 'broadcastjobs',
        subresource: 'status',
      }),
    ).toBe(false);
    expect(await allowed(asApp, { verb: 'patch', resource: 'pods', subresource: 'status' })).toBe(false);
    expect(await allowed(asApp, { verb: 'create', resource: 'pods', subresource: 'binding' })).toBe(false);

    // Granted cluster-wide, as the app needs without --namespace.
    expect(await statusCode(() => appCustom.listClusterCustomObject({ ...BROADCASTJOBS, limit: 1 }))).toBe(200);
    expect(
      await statusCode(() =>
        appCore.listPodForAllNamespaces({ labelSelector: 'broadcastjob-controller-uid', limit: 1 }),
      ),
    ).toBe(200);
    expect(await statusCode(() => appCore.listNode({ limit: 1 }))).toBe(200);
    expect(
      await allowed(asApp, {
        verb: 'patch',
        group: 'apps.kruise.io',
        resource: 'broadcastjobs',
        subresource: 'status',
      }),
    ).toBe(true);
    expect(
      await allowed(asApp, {
        verb: 'update',
        group: 'apps.kruise.io',
        resource: 'broadcastjobs',
        subresource: 'finalizers',
      }),
    ).toBe(true);
  });
});
