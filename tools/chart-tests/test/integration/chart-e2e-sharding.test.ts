/**
 * The chart's sharding as installed (issue 39): workloads made while one replica per app reconciled
 * everything, their pods' bucket labels removed (as pods OpenKruise made have none), then `helm upgrade` with `apps.<app>.shards=3` for CloneSet, Advanced StatefulSet and
 * BroadcastJob. Every pre-existing pod must get its bucket label from the apps' own RBAC (a missing
 * `patch` on pods left a sharded BroadcastJob app's pods unlabelled for ever), a shard pod killed is
 * replaced and the work goes on, and a rollout of 1,000 pods stays within the chart's memory limit
 * (the process kubelet kills a container above it, reason OOMKilled, as the kernel would).
 */
import { CoreV1Api, CustomObjectsApi, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import type { V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { waitFor } from '@kruise-ts/local-cluster/testing';

import { apiGroup, broadcastJob, cloneSet, statefulSet } from '../support/e2e-objects.ts';
import {
  chartPods,
  expectHelmSuccess,
  helmInstall,
  helmUpgrade,
  startChartCluster,
  waitForChartDeployments,
} from '../support/installed-chart.ts';
import type { ChartCluster } from '../support/installed-chart.ts';

const RELEASE = 'kts';
const SYSTEM = 'kruise-system';
const WORKLOADS = 'sharded';
const BUCKET_LABEL = 'shard.kruise-ts.io/bucket';
const SHARDED = { cloneset: { shards: 3 }, 'advanced-statefulset': { shards: 3 }, broadcastjob: { shards: 3 } };
const ROLLOUT_PODS = 1000;

/** A step waits on several rollouts of real processes; on 2 busy cores that takes minutes, not the default 2. */
const E2E_TEST_TIMEOUT_MS = 300_000;

let cluster: ChartCluster;
let core: CoreV1Api;
let custom: CustomObjectsApi;

function status(object: unknown): Record<string, unknown> {
  const value = typeof object === 'object' && object !== null && 'status' in object ? object.status : undefined;
  return typeof value === 'object' && value !== null ? { ...value } : {};
}

async function workloadStatus(plural: string, name: string): Promise<Record<string, unknown>> {
  const object: unknown = await custom.getNamespacedCustomObject({
    ...apiGroup('v1alpha1'),
    namespace: WORKLOADS,
    plural,
    name,
  });
  return status(object);
}

async function workloadPods(): Promise<V1Pod[]> {
  return (await core.listNamespacedPod({ namespace: WORKLOADS })).items;
}

beforeAll(async () => {
  cluster = await startChartCluster('sharding', { nodes: 3 });
  core = cluster.kubeConfig.makeApiClient(CoreV1Api);
  custom = cluster.kubeConfig.makeApiClient(CustomObjectsApi);
  expectHelmSuccess(
    await helmInstall(cluster, { release: RELEASE, namespace: SYSTEM, values: cluster.values() }),
    'helm install',
  );
  await core.createNamespace({ body: { metadata: { name: WORKLOADS } } });
  await custom.createNamespacedCustomObject({
    ...apiGroup('v1alpha1'),
    namespace: WORKLOADS,
    plural: 'clonesets',
    body: cloneSet('web', { replicas: 3 }),
  });
  await custom.createNamespacedCustomObject({
    ...apiGroup('v1beta1'),
    namespace: WORKLOADS,
    plural: 'statefulsets',
    body: statefulSet('db', { replicas: 3 }),
  });
  await custom.createNamespacedCustomObject({
    ...apiGroup('v1alpha1'),
    namespace: WORKLOADS,
    plural: 'broadcastjobs',
    body: broadcastJob('agents'),
  });
  // 3 + 3 pods, and one job pod on each of the 3 kwok nodes; none labelled: sharding is off.
  await waitFor(async () => (await workloadPods()).length === 9, { description: '9 workload pods before sharding' });
});

afterAll(async () => {
  await cluster.stop();
});

describe('apps.<app>.shards=3 over workloads made before sharding', { timeout: E2E_TEST_TIMEOUT_MS }, () => {
  it("labels every pre-existing pod with its owner's bucket", async () => {
    // The apps label the pods they create even unsharded; pods made by OpenKruise have no label: as those.
    for (const pod of await workloadPods()) {
      await core.patchNamespacedPod(
        {
          namespace: WORKLOADS,
          name: pod.metadata?.name ?? '',
          body: { metadata: { labels: { [BUCKET_LABEL]: null } } },
        },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
    }
    expect((await workloadPods()).filter((pod) => pod.metadata?.labels?.[BUCKET_LABEL] !== undefined)).toEqual([]);
    expectHelmSuccess(
      await helmUpgrade(cluster, { release: RELEASE, namespace: SYSTEM, values: cluster.values({ apps: SHARDED }) }),
      'helm upgrade to 3 shards',
    );
    await waitForChartDeployments(cluster, SYSTEM);
    const replicas = await chartPods(cluster, SYSTEM);
    expect(
      replicas.filter((pod) => pod.metadata?.labels?.['app.kubernetes.io/component'] === 'broadcastjob'),
    ).toHaveLength(3);
    const labelled = await waitFor(
      async () => {
        const pods = await workloadPods();
        return pods.every((pod) => /^\d+$/u.test(pod.metadata?.labels?.[BUCKET_LABEL] ?? '')) ? pods : false;
      },
      {
        description: 'every workload pod has a bucket label',
        timeoutMs: 60_000,
        state: async () =>
          (await workloadPods()).map(
            (pod) => `${pod.metadata?.name ?? ''}=${pod.metadata?.labels?.[BUCKET_LABEL] ?? '-'}`,
          ),
      },
    );
    expect(labelled).toHaveLength(9);
  });

  it('replaces a killed shard pod, and the workloads are reconciled again', async () => {
    const victim = (await chartPods(cluster, SYSTEM)).find(
      (pod) => pod.metadata?.labels?.['app.kubernetes.io/component'] === 'cloneset',
    );
    await core.deleteNamespacedPod({ namespace: SYSTEM, name: victim?.metadata?.name ?? '', gracePeriodSeconds: 0 });
    await waitForChartDeployments(cluster, SYSTEM);
    await custom.patchNamespacedCustomObject(
      {
        ...apiGroup('v1alpha1'),
        namespace: WORKLOADS,
        plural: 'clonesets',
        name: 'web',
        body: { spec: { replicas: 5 } },
      },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    await waitFor(async () => (await workloadStatus('clonesets', 'web'))['readyReplicas'] === 5, {
      description: 'CloneSet web at 5 ready replicas after a shard pod was replaced',
    });
  });

  it(`keeps every app within the chart's memory limit through a rollout of ${String(ROLLOUT_PODS)} pods`, async () => {
    await custom.createNamespacedCustomObject({
      ...apiGroup('v1alpha1'),
      namespace: WORKLOADS,
      plural: 'clonesets',
      body: cloneSet('fleet', { replicas: ROLLOUT_PODS }),
    });
    await waitFor(async () => (await workloadStatus('clonesets', 'fleet'))['readyReplicas'] === ROLLOUT_PODS, {
      description: `CloneSet fleet: ${String(ROLLOUT_PODS)} ready`,
      timeoutMs: 300_000,
      intervalMs: 2000,
    });
    const image = { spec: { template: { spec: { containers: [{ name: 'main', image: 'nginx:1.28' }] } } } };
    await custom.patchNamespacedCustomObject(
      { ...apiGroup('v1alpha1'), namespace: WORKLOADS, plural: 'clonesets', name: 'fleet', body: image },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    await waitFor(
      async () => {
        const current = await workloadStatus('clonesets', 'fleet');
        return current['updatedReadyReplicas'] === ROLLOUT_PODS;
      },
      {
        description: `CloneSet fleet: ${String(ROLLOUT_PODS)} updated and ready`,
        timeoutMs: 300_000,
        intervalMs: 2000,
      },
    );
    for (const pod of await chartPods(cluster, SYSTEM)) {
      const container = pod.status?.containerStatuses?.[0];
      expect(container?.lastState?.terminated?.reason, pod.metadata?.name).not.toBe('OOMKilled');
      expect(container?.restartCount, pod.metadata?.name).toBe(0);
    }
  }, 720_000);
});
