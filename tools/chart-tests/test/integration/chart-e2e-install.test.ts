/**
 * The chart installed as a user installs it (issue 39): `helm install --wait` with every app on, the
 * apps' pods run by the process kubelet as this repository's build, webhooks and CRD conversion
 * reached through the chart's Services. No app flag is set by the test; the only values are the
 * feature gates and the placement on the kubelet's node. Each step builds on the one before, as a
 * user's day would: install, use every kind, lose a replica, delete all the apps' pods, upgrade,
 * uninstall.
 */
import {
  AppsV1Api,
  CoordinationV1Api,
  CoreV1Api,
  CustomObjectsApi,
  PatchStrategy,
  setHeaderOptions,
  Watch,
} from '@kubernetes/client-node';
import type { V1ContainerStateTerminated, V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { PROCESS_NODE_NAME } from '@kruise-ts/local-cluster';
import { waitFor } from '@kruise-ts/local-cluster/testing';

import {
  CHART_APP_LABEL,
  chartPods,
  expectHelmSuccess,
  helmInstall,
  helmUpgrade,
  startChartCluster,
  waitForChartDeployments,
} from '../support/installed-chart.ts';
import type { ChartCluster } from '../support/installed-chart.ts';
import type { HelmResult } from '../support/helm.ts';
import { apiGroup, cloneSet, podOutsideChart, sidecarSet, statefulSet, broadcastJob } from '../support/e2e-objects.ts';
import { statusCode } from '../support/status-code.ts';

const RELEASE = 'kts';
const SYSTEM = 'kruise-system';
const WORKLOADS = 'e2e';

/** A step waits on several rollouts of real processes; on 2 busy cores that takes minutes, not the default 2. */
const E2E_TEST_TIMEOUT_MS = 300_000;

let cluster: ChartCluster;
let install: HelmResult;
let core: CoreV1Api;
let custom: CustomObjectsApi;

type Json = Record<string, unknown>;

function fieldOf(object: unknown, ...path: string[]): unknown {
  let value: unknown = object;
  for (const key of path) {
    value = typeof value === 'object' && value !== null ? (value as Json)[key] : undefined;
  }
  return value;
}

async function readyCount(plural: string, version: string, name: string): Promise<unknown> {
  const object: unknown = await custom.getNamespacedCustomObject({
    ...apiGroup(version),
    namespace: WORKLOADS,
    plural,
    name,
  });
  return fieldOf(object, 'status', 'readyReplicas');
}

function appPod(pods: readonly V1Pod[], app: string): V1Pod {
  const pod = pods.find(
    (candidate) =>
      candidate.metadata?.labels?.['app.kubernetes.io/component'] === app &&
      candidate.metadata.deletionTimestamp === undefined,
  );
  if (pod === undefined) {
    throw new Error(`no pod of the ${app} app`);
  }
  return pod;
}

function mergePatch(): ReturnType<typeof setHeaderOptions> {
  return setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
}

/** The terminated state of the pod's container in the last status the kubelet wrote before the pod went. */
async function watchContainerExits(podName: string): Promise<V1ContainerStateTerminated | undefined> {
  let last: V1ContainerStateTerminated | undefined;
  const gone = Promise.withResolvers<undefined>();
  const request = await new Watch(cluster.kubeConfig).watch(
    `/api/v1/namespaces/${SYSTEM}/pods`,
    { fieldSelector: `metadata.name=${podName}` },
    (type: string, pod: V1Pod) => {
      last = pod.status?.containerStatuses?.[0]?.state?.terminated ?? last;
      if (type === 'DELETED') {
        gone.resolve(undefined);
      }
    },
    () => {
      gone.resolve(undefined);
    },
  );
  await gone.promise;
  request.abort();
  return last;
}

beforeAll(async () => {
  cluster = await startChartCluster('install');
  core = cluster.kubeConfig.makeApiClient(CoreV1Api);
  custom = cluster.kubeConfig.makeApiClient(CustomObjectsApi);
  install = await helmInstall(cluster, { release: RELEASE, namespace: SYSTEM, values: cluster.values() });
  await core.createNamespace({ body: { metadata: { name: WORKLOADS } } });
});

afterAll(async () => {
  await cluster.stop();
});

describe('the chart as installed, every app on', { timeout: E2E_TEST_TIMEOUT_MS }, () => {
  it('installs with --wait: every app Ready on the process kubelet, nothing restarted', async () => {
    expectHelmSuccess(install, 'helm install --wait');
    const pods = await chartPods(cluster, SYSTEM);
    expect(pods.map((pod) => pod.metadata?.labels?.['app.kubernetes.io/component']).sort()).toEqual([
      'advanced-statefulset',
      'broadcastjob',
      'cloneset',
      'sidecarset',
      'sidecarset',
    ]);
    for (const pod of pods) {
      expect(pod.spec?.nodeName).toBe(PROCESS_NODE_NAME);
      expect(pod.status?.conditions?.find((condition) => condition.type === 'Ready')?.status).toBe('True');
      expect(pod.status?.containerStatuses?.[0]?.restartCount).toBe(0);
    }
  });

  it('reconciles a CloneSet, and its validation webhook refuses a bad template naming the field', async () => {
    await custom.createNamespacedCustomObject({
      ...apiGroup('v1alpha1'),
      namespace: WORKLOADS,
      plural: 'clonesets',
      body: cloneSet('web', { replicas: 2 }),
    });
    await waitFor(async () => (await readyCount('clonesets', 'v1alpha1', 'web')) === 2, {
      description: 'CloneSet web: 2 ready replicas',
    });
    const refused = await custom
      .createNamespacedCustomObject({
        ...apiGroup('v1alpha1'),
        namespace: WORKLOADS,
        plural: 'clonesets',
        body: cloneSet('bad', { replicas: 1, containerName: 'Main' }),
      })
      .then(
        () => 'created',
        (error: unknown) => String(fieldOf(error, 'body')),
      );
    expect(refused).toContain('spec.template.spec.containers[0].name');
  });

  it("reconciles an Advanced StatefulSet written in v1beta1 and read in v1alpha1 through the chart's conversion Service", async () => {
    await custom.createNamespacedCustomObject({
      ...apiGroup('v1beta1'),
      namespace: WORKLOADS,
      plural: 'statefulsets',
      body: statefulSet('db', { replicas: 2 }),
    });
    await waitFor(async () => (await readyCount('statefulsets', 'v1alpha1', 'db')) === 2, {
      description: 'Advanced StatefulSet db read in v1alpha1: 2 ready replicas',
    });
  });

  it("injects the chart's SidecarSet into a pod created outside the chart, and serves the SidecarSet in both versions", async () => {
    await custom.createClusterCustomObject({
      ...apiGroup('v1alpha1'),
      plural: 'sidecarsets',
      body: sidecarSet('log-agent', 'with-agent'),
    });
    const stored: unknown = await custom.getClusterCustomObject({
      ...apiGroup('v1beta1'),
      plural: 'sidecarsets',
      name: 'log-agent',
    });
    expect(fieldOf(stored, 'apiVersion')).toBe('apps.kruise.io/v1beta1');
    // The webhook's cache sees the new SidecarSet a moment after the write: the pod is created until it does.
    const pod = await waitFor(
      async () => {
        const created = await core.createNamespacedPod({
          namespace: WORKLOADS,
          body: podOutsideChart(`app-${String(Date.now())}`, 'with-agent'),
        });
        const names = created.spec?.containers.map((container) => container.name) ?? [];
        return names.includes('log-agent') ? created : false;
      },
      { description: "a pod created with the SidecarSet's label gets its sidecar" },
    );
    expect(pod.spec?.containers.map((container) => container.name)).toEqual(['log-agent', 'app']);
  });

  it('runs a BroadcastJob on every node its pods may use', async () => {
    await custom.createNamespacedCustomObject({
      ...apiGroup('v1alpha1'),
      namespace: WORKLOADS,
      plural: 'broadcastjobs',
      body: broadcastJob('everywhere'),
    });
    const status = await waitFor(
      async () => {
        const job: unknown = await custom.getNamespacedCustomObject({
          ...apiGroup('v1alpha1'),
          namespace: WORKLOADS,
          plural: 'broadcastjobs',
          name: 'everywhere',
        });
        return fieldOf(job, 'status', 'desired') === 2 ? fieldOf(job, 'status') : false;
      },
      { description: 'BroadcastJob everywhere: desired 2 (the two kwok nodes; the tainted process node is not one)' },
    );
    expect(status).toMatchObject({ desired: 2 });
  });
});

describe('the installed apps when their pods go away', { timeout: E2E_TEST_TIMEOUT_MS }, () => {
  it('restarts a SIGKILLed replica: restartCount 1, Ready again', async () => {
    const pod = appPod(await chartPods(cluster, SYSTEM), 'cloneset');
    const name = pod.metadata?.name ?? '';
    const pid = cluster.kubelet.pid(SYSTEM, name, 'cloneset');
    expect(pid).toBeGreaterThan(0);
    process.kill(pid ?? 0, 'SIGKILL');
    const restarted = await waitFor(
      async () => {
        const current = await core.readNamespacedPod({ namespace: SYSTEM, name });
        const status = current.status?.containerStatuses?.[0];
        return status?.restartCount === 1 && status.ready ? status : false;
      },
      { description: `pod ${name} restarted and Ready`, timeoutMs: 60_000 },
    );
    expect(restarted.lastState?.terminated).toMatchObject({ exitCode: 137, reason: 'Error' });
  });

  it('hands the Lease over at once when the leading replica is deleted gracefully', async () => {
    const leases = cluster.kubeConfig.makeApiClient(CoordinationV1Api);
    const leaseName = `${RELEASE}-kruise-ts-sidecarset`;
    const before = await leases.readNamespacedLease({ namespace: SYSTEM, name: leaseName });
    const holder = before.spec?.holderIdentity ?? '';
    const leader = (await chartPods(cluster, SYSTEM)).find((pod) => holder.startsWith(`${pod.metadata?.name ?? '-'}_`));
    expect(leader, `a pod named in the holder ${holder}`).toBeDefined();
    const deletedAt = Date.now();
    await core.deleteNamespacedPod({ namespace: SYSTEM, name: leader?.metadata?.name ?? '' });
    const after = await waitFor(
      async () => {
        const lease = await leases.readNamespacedLease({ namespace: SYSTEM, name: leaseName });
        const next = lease.spec?.holderIdentity ?? '';
        return next !== '' && next !== holder ? lease : false;
      },
      { description: "another replica holds the SidecarSet app's Lease", timeoutMs: 60_000 },
    );
    // Released, not expired: the next holder acquired it before the old holder's term would have ended.
    const durationMs = (before.spec?.leaseDurationSeconds ?? 0) * 1000;
    // MicroTime arrives as its RFC 3339 text: client-node does not parse it into the Date its type says.
    const acquiredAt = new Date(String(after.spec?.acquireTime)).getTime();
    expect(acquiredAt - deletedAt).toBeLessThan(durationMs);
    await waitForChartDeployments(cluster, SYSTEM);
  });

  it("comes back and serves again after every app's pods are deleted at once, with stored objects of every kind", async () => {
    const pods = await chartPods(cluster, SYSTEM);
    // As after a power cut: the control plane restarts while no app runs. kube-apiserver's watch cache
    // of SidecarSets in v1alpha1 (the version the app reads; v1beta1 is stored) starts empty, and
    // filling it needs the conversion webhook, served by the apps whose readiness needs the list.
    await core.deleteCollectionNamespacedPod({
      namespace: SYSTEM,
      labelSelector: CHART_APP_LABEL,
      gracePeriodSeconds: 0,
    });
    await cluster.restartApiServer();
    await waitFor(
      async () => {
        const current = await chartPods(cluster, SYSTEM);
        return current.every((pod) => !pods.some((old) => old.metadata?.uid === pod.metadata?.uid));
      },
      { description: 'every old pod of the apps gone' },
    );
    await waitForChartDeployments(cluster, SYSTEM);
    await custom.patchNamespacedCustomObject(
      {
        ...apiGroup('v1alpha1'),
        namespace: WORKLOADS,
        plural: 'clonesets',
        name: 'web',
        body: { spec: { replicas: 3 } },
      },
      mergePatch(),
    );
    await waitFor(async () => (await readyCount('clonesets', 'v1alpha1', 'web')) === 3, {
      description: 'CloneSet web scaled to 3 by the new pods',
    });
    await custom.patchNamespacedCustomObject(
      {
        ...apiGroup('v1alpha1'),
        namespace: WORKLOADS,
        plural: 'statefulsets',
        name: 'db',
        body: { spec: { replicas: 3 } },
      },
      mergePatch(),
    );
    await waitFor(async () => (await readyCount('statefulsets', 'v1beta1', 'db')) === 3, {
      description: 'Advanced StatefulSet db scaled to 3 through a v1alpha1 write',
    });
    const sidecars: unknown = await custom.listClusterCustomObject({ ...apiGroup('v1alpha1'), plural: 'sidecarsets' });
    expect(fieldOf(sidecars, 'items')).toHaveLength(1);
  });
});

describe('writes while the apps are down', { timeout: E2E_TEST_TIMEOUT_MS }, () => {
  async function scaleApps(replicas: (app: string) => number): Promise<void> {
    const apps = cluster.kubeConfig.makeApiClient(AppsV1Api);
    for (const deployment of (await apps.listNamespacedDeployment({ namespace: SYSTEM })).items) {
      const app = deployment.metadata?.labels?.['app.kubernetes.io/component'] ?? '';
      await apps.patchNamespacedDeployment(
        { namespace: SYSTEM, name: deployment.metadata?.name ?? '', body: { spec: { replicas: replicas(app) } } },
        mergePatch(),
      );
    }
  }

  it('admits writes in the stored version unchecked (fail-open), refuses writes that need a conversion, and injects nothing', async () => {
    await scaleApps(() => 0);
    await waitFor(async () => (await chartPods(cluster, SYSTEM)).length === 0, {
      description: 'no pod of the apps left',
    });
    // Stored versions: the validation webhooks are fail-open and, registered for every served version, need no conversion.
    await custom.createClusterCustomObject({
      ...apiGroup('v1beta1'),
      plural: 'sidecarsets',
      body: { ...sidecarSet('down-agent', 'down'), apiVersion: 'apps.kruise.io/v1beta1' },
    });
    await custom.createNamespacedCustomObject({
      ...apiGroup('v1beta1'),
      namespace: WORKLOADS,
      plural: 'statefulsets',
      body: statefulSet('down-db', { replicas: 1 }),
    });
    await custom.createNamespacedCustomObject({
      ...apiGroup('v1alpha1'),
      namespace: WORKLOADS,
      plural: 'clonesets',
      body: cloneSet('down-web', { replicas: 1 }),
    });
    await custom.createNamespacedCustomObject({
      ...apiGroup('v1alpha1'),
      namespace: WORKLOADS,
      plural: 'broadcastjobs',
      body: broadcastJob('down-job'),
    });
    // The pod webhook is fail-open: the pod is created, without its sidecar.
    const pod = await core.createNamespacedPod({ namespace: WORKLOADS, body: podOutsideChart('while-down', 'down') });
    expect(pod.spec?.containers.map((container) => container.name)).toEqual(['app']);
    // A write in the other version must be converted to be stored: that needs the app.
    const refused = await custom
      .createNamespacedCustomObject({
        ...apiGroup('v1alpha1'),
        namespace: WORKLOADS,
        plural: 'statefulsets',
        body: { ...statefulSet('down-db-2', { replicas: 1 }), apiVersion: 'apps.kruise.io/v1alpha1' },
      })
      .then(
        () => 'created',
        (error: unknown) => String(fieldOf(error, 'body')),
      );
    expect(refused).toContain('conversion webhook');
    await scaleApps((app) => (app === 'sidecarset' ? 2 : 1));
    await waitForChartDeployments(cluster, SYSTEM);
    await waitFor(async () => (await readyCount('statefulsets', 'v1beta1', 'down-db')) === 1, {
      description: 'the StatefulSet written while its app was down reconciled once it is back',
    });
  });
});

describe('helm upgrade and uninstall', { timeout: E2E_TEST_TIMEOUT_MS }, () => {
  it("rolls an app's Deployment when its flags change; the old pods stop gracefully", async () => {
    const apps = cluster.kubeConfig.makeApiClient(AppsV1Api);
    const old = appPod(await chartPods(cluster, SYSTEM), 'broadcastjob');
    const exits = watchContainerExits(old.metadata?.name ?? '');
    const upgrade = await helmUpgrade(cluster, {
      release: RELEASE,
      namespace: SYSTEM,
      values: cluster.values({ apps: { broadcastjob: { workers: 5 } } }),
    });
    expectHelmSuccess(upgrade, 'helm upgrade');
    const deployment = await apps.readNamespacedDeployment({
      namespace: SYSTEM,
      name: `${RELEASE}-kruise-ts-broadcastjob`,
    });
    expect(deployment.spec?.template.spec?.containers[0]?.args).toContain('--workers=5');
    // The kubelet's last status of the old pod: its container stopped on SIGTERM with exit code 0.
    const exit = await exits;
    expect(exit).toMatchObject({ exitCode: 0, reason: 'Completed' });
    await waitForChartDeployments(cluster, SYSTEM);
    const current = appPod(await chartPods(cluster, SYSTEM), 'broadcastjob');
    expect(current.metadata?.uid).not.toBe(old.metadata?.uid);
    expect(current.status?.containerStatuses?.[0]?.ready).toBe(true);
  });

  it('helm uninstall leaves the CRDs and every workload', async () => {
    expectHelmSuccess(await cluster.helm(['uninstall', RELEASE, '--namespace', SYSTEM, '--wait']), 'helm uninstall');
    for (const [plural, version] of [
      ['clonesets', 'v1alpha1'],
      ['statefulsets', 'v1beta1'],
      ['broadcastjobs', 'v1alpha1'],
    ] as const) {
      const list: unknown = await custom.listNamespacedCustomObject({
        ...apiGroup(version),
        namespace: WORKLOADS,
        plural,
      });
      expect(fieldOf(list, 'items'), plural).not.toHaveLength(0);
    }
    expect(
      await statusCode(() =>
        custom.getClusterCustomObject({ ...apiGroup('v1beta1'), plural: 'sidecarsets', name: 'log-agent' }),
      ),
    ).toBe(200);
    const workloadPods = await core.listNamespacedPod({ namespace: WORKLOADS });
    expect(workloadPods.items.length).toBeGreaterThanOrEqual(5);
  });
});
