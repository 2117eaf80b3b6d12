/**
 * In-place sidecar upgrades on the real control plane (kwok restarts a container whose spec image
 * changed): changing the SidecarSet's image upgrades the injected pods in place (same UIDs, only the
 * sidecar restarts, the app container never), keeps `partition` pods on the old image, never has more
 * than `maxUnavailable` upgraded pods unready at once (every pod event watched), and a paused
 * SidecarSet upgrades nothing.
 */
import { describe, expect, it } from 'vitest';

import type { Pod, SidecarSet } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { observeObjects, testClient } from '@kruise-ts/controller-runtime/testing';
import { testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';
import { podResource } from '@kruise-ts/workload';

import { injectingSidecarSets, injectSidecars, sidecarSetResource } from '../../src/index.ts';
import { createPod, createSidecarSet, waitForSidecarSet, webPod, withController } from '../support/harness.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);

function injected(pod: Pod, set: SidecarSet, namespace: string): Pod {
  const sets = injectingSidecarSets(
    [set],
    { ...pod, metadata: { ...pod.metadata, namespace } },
    { name: namespace, labels: {} },
  );
  return injectSidecars(pod, sets, new Date());
}

const imageOf = (pod: DeepReadonly<Pod>, name: string): string | undefined =>
  pod.spec?.containers.find((container) => container.name === name)?.image;
const restartsOf = (pod: DeepReadonly<Pod>, name: string): number | undefined =>
  pod.status?.containerStatuses?.find((status) => status.name === name)?.restartCount;
const isReady = (pod: DeepReadonly<Pod>): boolean =>
  (pod.status?.conditions ?? []).some((condition) => condition.type === 'Ready' && condition.status === 'True');

async function injectedPods(namespace: string, set: SidecarSet, count: number): Promise<Pod[]> {
  for (let index = 0; index < count; index += 1) {
    await createPod(client, namespace, injected(webPod(`web-${String(index)}`), set, namespace));
  }
  return waitFor(
    async () => {
      const pods = (await client.list(podResource, { namespace, labelSelector: 'app=web' })).items;
      return pods.length === count && pods.every(isReady) ? pods : undefined;
    },
    { description: `${String(count)} ready pods` },
  );
}

function setImage(name: string, image: string): Promise<unknown> {
  return client.patch(
    sidecarSetResource,
    { name },
    { type: 'merge', body: { spec: { containers: [{ name: 'logger', image }] } } },
  );
}

describe('SidecarSet in-place upgrade', () => {
  it('upgrades the sidecar in place, keeps partition pods, and stays within maxUnavailable', async () => {
    await withController('sidecarset-upgrade', async (namespace) => {
      await using set = await createSidecarSet(client, namespace, {
        updateStrategy: { partition: 1, maxUnavailable: 1 },
      });
      const name = set.metadata.name ?? '';
      const before = await injectedPods(namespace, set, 4);
      let worstUnready = 0;
      const observer = observeObjects(
        kubeConfig,
        { resource: podResource, namespace, labelSelector: 'app=web' },
        (pods) => {
          const upgradedUnready = pods.filter(
            (pod) => imageOf(pod, 'logger') === 'busybox:1.37' && !(isReady(pod) && restartsOf(pod, 'logger') === 1),
          ).length;
          worstUnready = Math.max(worstUnready, upgradedUnready);
        },
      );
      await observer.synced;
      await setImage(name, 'busybox:1.37');
      const done = await waitForSidecarSet(
        client,
        { name, description: '3 of 4 pods upgraded and ready' },
        (current) =>
          current.status?.observedGeneration === current.metadata.generation &&
          current.status?.updatedPods === 3 &&
          current.status.updatedReadyPods === 3,
      );
      observer.stop();
      expect(done.status).toMatchObject({ matchedPods: 4, updatedPods: 3, readyPods: 4 });
      const after = (await client.list(podResource, { namespace, labelSelector: 'app=web' })).items;
      expect(after.map((pod) => pod.metadata?.uid).sort()).toEqual(before.map((pod) => pod.metadata?.uid).sort());
      expect(after.map((pod) => imageOf(pod, 'logger')).sort()).toEqual([
        'busybox:1.36',
        'busybox:1.37',
        'busybox:1.37',
        'busybox:1.37',
      ]);
      for (const pod of after) {
        expect(restartsOf(pod, 'app')).toBe(0);
        expect(restartsOf(pod, 'logger')).toBe(imageOf(pod, 'logger') === 'busybox:1.37' ? 1 : 0);
      }
      expect(worstUnready).toBeLessThanOrEqual(1);
      const upgraded = after.find((pod) => imageOf(pod, 'logger') === 'busybox:1.37');
      expect(
        JSON.parse(upgraded?.metadata?.annotations?.['kruise.io/sidecarset-inplace-update-state'] ?? '{}'),
      ).toHaveProperty(name);
    });
  });

  it('upgrades nothing while paused, and everything once resumed', async () => {
    await withController('sidecarset-paused', async (namespace) => {
      await using set = await createSidecarSet(client, namespace, {
        updateStrategy: { paused: true, maxUnavailable: '100%' },
      });
      const name = set.metadata.name ?? '';
      await injectedPods(namespace, set, 2);
      await setImage(name, 'busybox:1.37');
      const paused = await waitForSidecarSet(
        client,
        { name, description: 'the new generation observed' },
        (current) =>
          current.status?.observedGeneration === current.metadata.generation && current.status?.matchedPods === 2,
      );
      expect(paused.status?.updatedPods).toBe(0);
      const pods = (await client.list(podResource, { namespace, labelSelector: 'app=web' })).items;
      expect(pods.map((pod) => imageOf(pod, 'logger'))).toEqual(['busybox:1.36', 'busybox:1.36']);
      await client.patch(
        sidecarSetResource,
        { name },
        { type: 'merge', body: { spec: { updateStrategy: { paused: false } } } },
      );
      await waitForSidecarSet(
        client,
        { name, description: 'both pods upgraded' },
        (current) => current.status?.updatedReadyPods === 2,
      );
    });
  });

  // OpenKruise e2e apps/v1alpha1/sidecarset.go:777, :1049: the SidecarSetUpgradable pod condition.
  it('marks upgraded pods SidecarSetUpgradable True, and False once more than the image changed', async () => {
    await withController('sidecarset-upgradable', async (namespace) => {
      await using set = await createSidecarSet(client, namespace, { updateStrategy: { maxUnavailable: '100%' } });
      const name = set.metadata.name ?? '';
      await injectedPods(namespace, set, 2);
      const upgradable = (pod: Pod) =>
        pod.status?.conditions?.find((condition) => condition.type === 'SidecarSetUpgradable');
      const podsWith = (description: string, check: (pod: Pod) => boolean) =>
        waitFor(
          async () => {
            const pods = (await client.list(podResource, { namespace, labelSelector: 'app=web' })).items;
            return pods.length === 2 && pods.every(check) ? pods : undefined;
          },
          { description },
        );
      await setImage(name, 'busybox:1.37');
      const upgraded = await podsWith(
        'both pods upgraded and marked upgradable',
        (pod) => imageOf(pod, 'logger') === 'busybox:1.37' && upgradable(pod)?.status === 'True',
      );
      for (const pod of upgraded) {
        expect(upgradable(pod)).toMatchObject({
          status: 'True',
          reason: 'AllSidecarsetUpgradable',
          message: `{"${name}":true}`,
        });
      }
      await client.patch(
        sidecarSetResource,
        { name },
        {
          type: 'merge',
          body: {
            spec: { containers: [{ name: 'logger', image: 'busybox:1.37', env: [{ name: 'version', value: 'v2' }] }] },
          },
        },
      );
      const refused = await podsWith('both pods marked not upgradable', (pod) => upgradable(pod)?.status === 'False');
      for (const pod of refused) {
        expect(upgradable(pod)).toMatchObject({
          status: 'False',
          reason: 'UpdateImmutableField',
          message: `{"${name}":false}`,
        });
        // Not upgraded: the env change is not in the pod.
        expect(
          (pod.spec?.containers.find((container) => container.name === 'logger')?.env ?? []).map((env) => env.name),
        ).toEqual(['IS_INJECTED']);
      }
      const status = await waitForSidecarSet(
        client,
        { name, description: 'no pod updated' },
        (current) => current.status?.observedGeneration === current.metadata.generation,
      );
      expect(status.status).toMatchObject({ matchedPods: 2, updatedPods: 0 });
    });
  });
});
