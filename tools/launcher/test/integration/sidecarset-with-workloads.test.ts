/**
 * SidecarSet next to a workload controller in one process, on the real control plane: a CloneSet's
 * (or an Advanced StatefulSet's) pods get the sidecar through the pod webhook; the workload's own
 * in-place update changes only its container (the sidecar is neither removed nor restarted), and the
 * sidecars never make its pods look out of date; then the SidecarSet's upgrade changes only the
 * sidecar, and the workload stays updated and ready.
 */
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { parseFeatureGates } from '@kruise-ts/app-config';
import type { CloneSet, Pod, StatefulSet } from '@kruise-ts/api';
import { setupStatefulSetController, statefulSetResource } from '@kruise-ts/advanced-statefulset';
import { cloneSetResource, setupCloneSetController } from '@kruise-ts/cloneset';
import { createLogger } from '@kruise-ts/controller-runtime';
import type { LogLevel, Manager } from '@kruise-ts/controller-runtime';
import { podSummary } from '@kruise-ts/workload/testing';
import { testClient } from '@kruise-ts/controller-runtime/testing';
import {
  applyCrdFiles,
  createTestNamespace,
  kwokLogOf,
  testKubeConfig,
  waitFor,
} from '@kruise-ts/local-cluster/testing';
import { sidecarSetResource } from '@kruise-ts/sidecarset';
import { TestPodWebhook } from '@kruise-ts/sidecarset/testing';
import { podResource } from '@kruise-ts/workload';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);
const logger = createLogger({ level: (process.env['KRUISE_TS_TEST_LOG_LEVEL'] ?? 'silent') as LogLevel });
const crd = (file: string): string => fileURLToPath(new URL(`../../../../crds/${file}`, import.meta.url));

const containerOf = (pod: Pod, name: string) => pod.spec?.containers.find((container) => container.name === name);
const statusOf = (pod: Pod, name: string) => pod.status?.containerStatuses?.find((status) => status.name === name);

async function webPods(namespace: string): Promise<Pod[]> {
  return (await client.list(podResource, { namespace, labelSelector: 'app=web' })).items.sort((a, b) =>
    (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''),
  );
}

function settledCloneSet(cloneSet: CloneSet): boolean {
  const status = cloneSet.status;
  return (
    status?.observedGeneration === cloneSet.metadata.generation &&
    status?.updatedReadyReplicas === 2 &&
    status.readyReplicas === 2 &&
    status.currentRevision === status.updateRevision
  );
}

/**
 * A namespace with the SidecarSet controller and webhook (registered with the API server, failurePolicy
 * Fail so that no pod escapes it) next to the workload controller `setup` adds, and a SidecarSet
 * `logs-<namespace>` (logger, busybox:1.36) for the pods labelled app=web; `run` gets the namespace.
 */
async function withSidecarSet(
  prefix: string,
  setup: (manager: Manager) => void,
  run: (namespace: string, setName: string) => Promise<void>,
): Promise<void> {
  await applyCrdFiles(kubeConfig, [
    crd('apps.kruise.io_clonesets.yaml'),
    crd('apps.kruise.io_statefulsets.yaml'),
    crd('apps.kruise.io_sidecarsets.yaml'),
  ]);
  await using ns = await createTestNamespace(kubeConfig, prefix);
  const namespace = ns.name;
  // Fail (the helper's default): no pod of the namespace is created before the API server calls the webhook.
  const webhook = new TestPodWebhook({ client, namespace, logger });
  const manager = webhook.startManager(kubeConfig, setup);
  const setName = `logs-${namespace}`;
  try {
    await client.create(sidecarSetResource, {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'SidecarSet',
      metadata: { name: setName },
      spec: {
        namespace,
        selector: { matchLabels: { app: 'web' } },
        containers: [{ name: 'logger', image: 'busybox:1.36' }],
        updateStrategy: { maxUnavailable: '100%' },
      },
    } as never);
    await webhook.start();
    await run(namespace, setName);
  } finally {
    await webhook.stop();
    await manager.stop();
    await client.delete(sidecarSetResource, { name: setName }).catch(() => undefined);
  }
}

/** Upgrades the SidecarSet's image and waits until both pods run it. */
async function upgradeSidecar(setName: string): Promise<void> {
  await client.patch(
    sidecarSetResource,
    { name: setName },
    { type: 'merge', body: { spec: { containers: [{ name: 'logger', image: 'busybox:1.37' }] } } },
  );
  await waitFor(
    async () => {
      const set = await client.get(sidecarSetResource, { name: setName });
      return set.status?.updatedReadyPods === 2 && set.status.observedGeneration === set.metadata.generation
        ? true
        : undefined;
    },
    { description: 'the sidecars upgraded' },
  );
}

/** Each pod's sidecar image, app image, sidecar restarts and app restarts. */
async function containersOf(namespace: string): Promise<(string | number | undefined)[][]> {
  return (await webPods(namespace)).map((pod) => [
    containerOf(pod, 'logger')?.image,
    containerOf(pod, 'app')?.image,
    statusOf(pod, 'logger')?.restartCount,
    statusOf(pod, 'app')?.restartCount,
  ]);
}

/** The CloneSet's status, its pods and what kwok did to them, for a timeout message. */
async function cloneSetState(namespace: string): Promise<unknown> {
  const cloneSet = await client.get(cloneSetResource, { namespace, name: 'web' });
  return {
    generation: cloneSet.metadata.generation,
    status: cloneSet.status,
    pods: (await webPods(namespace)).map(podSummary),
    kwok: await kwokLogOf(namespace),
  };
}

const uidsOf = async (namespace: string): Promise<(string | undefined)[]> =>
  (await webPods(namespace)).map((pod) => pod.metadata?.uid);

describe('SidecarSet with a workload controller in one process', () => {
  it("leaves the sidecar alone during a CloneSet's in-place update, and the CloneSet alone during the sidecar's", async () => {
    const cloneSets = (created: Manager): void => {
      setupCloneSetController(created, {
        featureGates: parseFeatureGates(''),
        workers: 2,
        expectationTimeoutMs: 60_000,
        scalingExcludePreparingDelete: false,
        stripPodManagedFields: true,
      });
    };
    await withSidecarSet('sidecar-cloneset', cloneSets, async (namespace, setName) => {
      await client.create(cloneSetResource, {
        apiVersion: 'apps.kruise.io/v1alpha1',
        kind: 'CloneSet',
        metadata: { name: 'web', namespace },
        spec: {
          replicas: 2,
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] },
          },
          updateStrategy: { type: 'InPlaceIfPossible' },
        },
      } as never);
      await waitFor(
        async () =>
          settledCloneSet(await client.get(cloneSetResource, { namespace, name: 'web' })) ? true : undefined,
        {
          description: 'the CloneSet ready',
          state: () => cloneSetState(namespace),
        },
      );
      const before = await uidsOf(namespace);
      expect((await webPods(namespace)).map((pod) => pod.spec?.containers.map((container) => container.name))).toEqual([
        ['logger', 'app'],
        ['logger', 'app'],
      ]);
      await client.patch(
        cloneSetResource,
        { namespace, name: 'web' },
        {
          type: 'merge',
          body: { spec: { template: { spec: { containers: [{ name: 'app', image: 'nginx:1.28' }] } } } },
        },
      );
      await waitFor(
        async () =>
          settledCloneSet(await client.get(cloneSetResource, { namespace, name: 'web' })) &&
          (await webPods(namespace)).every((pod) => containerOf(pod, 'app')?.image === 'nginx:1.28')
            ? true
            : undefined,
        { description: 'the CloneSet updated in place', state: () => cloneSetState(namespace) },
      );
      expect(await uidsOf(namespace)).toEqual(before);
      expect(await containersOf(namespace)).toEqual([
        ['busybox:1.36', 'nginx:1.28', 0, 1],
        ['busybox:1.36', 'nginx:1.28', 0, 1],
      ]);
      await upgradeSidecar(setName);
      expect(await uidsOf(namespace)).toEqual(before);
      expect(await containersOf(namespace)).toEqual([
        ['busybox:1.37', 'nginx:1.28', 1, 1],
        ['busybox:1.37', 'nginx:1.28', 1, 1],
      ]);
      expect(settledCloneSet(await client.get(cloneSetResource, { namespace, name: 'web' }))).toBe(true);
    });
  });

  it("does the same with an Advanced StatefulSet's in-place update", async () => {
    const statefulSets = (created: Manager): void => {
      setupStatefulSetController(created, {
        featureGates: parseFeatureGates(''),
        workers: 2,
        expectationTimeoutMs: 60_000,
        stripPodManagedFields: true,
      });
    };
    await withSidecarSet('sidecar-asts', statefulSets, async (namespace, setName) => {
      await client.create(statefulSetResource, {
        apiVersion: 'apps.kruise.io/v1beta1',
        kind: 'StatefulSet',
        metadata: { name: 'web', namespace },
        spec: {
          replicas: 2,
          serviceName: 'web',
          podManagementPolicy: 'Parallel',
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: {
              readinessGates: [{ conditionType: 'InPlaceUpdateReady' }],
              containers: [{ name: 'app', image: 'nginx:1.27' }],
            },
          },
          updateStrategy: {
            type: 'RollingUpdate',
            rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', maxUnavailable: 2 },
          },
        },
      } as never);
      const settled = (set: StatefulSet): boolean =>
        set.status?.observedGeneration === set.metadata.generation &&
        set.status?.updatedReplicas === 2 &&
        set.status.readyReplicas === 2 &&
        set.status.currentRevision === set.status.updateRevision;
      await waitFor(
        async () => (settled(await client.get(statefulSetResource, { namespace, name: 'web' })) ? true : undefined),
        { description: 'the StatefulSet ready' },
      );
      const before = await uidsOf(namespace);
      await client.patch(
        statefulSetResource,
        { namespace, name: 'web' },
        {
          type: 'merge',
          body: { spec: { template: { spec: { containers: [{ name: 'app', image: 'nginx:1.28' }] } } } },
        },
      );
      await waitFor(
        async () =>
          settled(await client.get(statefulSetResource, { namespace, name: 'web' })) &&
          (await webPods(namespace)).every((pod) => containerOf(pod, 'app')?.image === 'nginx:1.28')
            ? true
            : undefined,
        { description: 'the StatefulSet updated in place' },
      );
      expect(await uidsOf(namespace)).toEqual(before);
      expect(await containersOf(namespace)).toEqual([
        ['busybox:1.36', 'nginx:1.28', 0, 1],
        ['busybox:1.36', 'nginx:1.28', 0, 1],
      ]);
      await upgradeSidecar(setName);
      expect(await containersOf(namespace)).toEqual([
        ['busybox:1.37', 'nginx:1.28', 1, 1],
        ['busybox:1.37', 'nginx:1.28', 1, 1],
      ]);
      expect(settled(await client.get(statefulSetResource, { namespace, name: 'web' }))).toBe(true);
    });
  });
});
