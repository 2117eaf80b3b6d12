/**
 * Hot upgrade on the real control plane (the simulated kubelet restarts only a container whose image
 * changed): a HotUpgrade sidecar is injected as a pair (`proxy-1` working, `proxy-2` on the empty
 * image, with the version annotations and env); an image change puts the new image on the idle
 * member, which becomes the working one, then flips the old member back to the empty image. Every pod
 * event is watched: a pod is never without a running, ready member on a real image, the app container
 * never restarts, and the pods keep their UIDs.
 */
import { describe, expect, it } from 'vitest';

import { SIDECARSET_WORKING_HOT_UPGRADE_CONTAINER_ANNOTATION } from '@kruise-ts/api';
import type { Pod, SidecarSet, SidecarSetInput } from '@kruise-ts/api';
import { eventResource } from '@kruise-ts/controller-runtime';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { observeObjects, testClient } from '@kruise-ts/controller-runtime/testing';
import { testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';
import { podResource } from '@kruise-ts/workload';

import { injectingSidecarSets, injectSidecars, sidecarSetResource } from '../../src/index.ts';
import { createPod, createSidecarSet, waitForSidecarSet, webPod, withController } from '../support/harness.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);
const EMPTY = 'busybox:1.36-empty';

const proxy = (image: string): NonNullable<SidecarSetInput['spec']['containers']>[number] => ({
  name: 'proxy',
  image,
  upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: EMPTY },
});
const container = (pod: DeepReadonly<Pod>, name: string) =>
  pod.spec?.containers.find((candidate) => candidate.name === name);
const status = (pod: DeepReadonly<Pod>, name: string) =>
  pod.status?.containerStatuses?.find((candidate) => candidate.name === name);
const isReady = (pod: DeepReadonly<Pod>): boolean =>
  (pod.status?.conditions ?? []).some((condition) => condition.type === 'Ready' && condition.status === 'True');

/** A member that runs the sidecar: ready, on a real image. */
function hasRunningSidecar(pod: DeepReadonly<Pod>): boolean {
  return ['proxy-1', 'proxy-2'].some((name) => {
    const current = status(pod, name);
    return current?.ready === true && current.image !== EMPTY;
  });
}

async function injectedPods(namespace: string, set: SidecarSet, count: number): Promise<Pod[]> {
  for (let index = 0; index < count; index += 1) {
    const pod = webPod(`web-${String(index)}`);
    const sets = injectingSidecarSets(
      [set],
      { ...pod, metadata: { ...pod.metadata, namespace } },
      { name: namespace, labels: {} },
    );
    await createPod(client, namespace, injectSidecars(pod, sets, new Date()));
  }
  return waitFor(
    async () => {
      const pods = (await client.list(podResource, { namespace, labelSelector: 'app=web' })).items;
      return pods.length === count && pods.every(isReady) ? pods : undefined;
    },
    { description: `${String(count)} ready pods` },
  );
}

describe('SidecarSet hot upgrade', () => {
  it('injects the pair, then swaps the working member and resets the old one without a moment without a running sidecar', async () => {
    await withController('sidecarset-hot', async (namespace) => {
      await using set = await createSidecarSet(client, namespace, {
        containers: [proxy('envoy:1.30')],
        updateStrategy: { maxUnavailable: '100%' },
      });
      const name = set.metadata.name ?? '';
      const before = await injectedPods(namespace, set, 2);
      for (const pod of before) {
        expect([container(pod, 'proxy-1')?.image, container(pod, 'proxy-2')?.image]).toEqual(['envoy:1.30', EMPTY]);
        expect(container(pod, 'proxy-1')?.env).toContainEqual({
          name: 'SIDECARSET_VERSION',
          valueFrom: {
            fieldRef: { apiVersion: 'v1', fieldPath: "metadata.annotations['version.sidecarset.kruise.io/proxy-1']" },
          },
        });
        expect(pod.metadata?.annotations).toMatchObject({
          [SIDECARSET_WORKING_HOT_UPGRADE_CONTAINER_ANNOTATION]: '{"proxy":"proxy-1"}',
          'version.sidecarset.kruise.io/proxy-1': '1',
          'versionalt.sidecarset.kruise.io/proxy-1': '0',
          'version.sidecarset.kruise.io/proxy-2': '0',
          'versionalt.sidecarset.kruise.io/proxy-2': '1',
        });
      }
      await waitForSidecarSet(
        client,
        { name, description: 'both pods counted ready' },
        (current) => current.status?.readyPods === 2,
      );
      let withoutSidecar: string | undefined;
      const observer = observeObjects(
        kubeConfig,
        { resource: podResource, namespace, labelSelector: 'app=web' },
        (pods) => {
          withoutSidecar ??= pods.find((pod) => !hasRunningSidecar(pod))?.metadata?.name;
        },
      );
      await observer.synced;
      await client.patch(
        sidecarSetResource,
        { name },
        { type: 'merge', body: { spec: { containers: [proxy('envoy:1.31')] } } },
      );
      const done = await waitForSidecarSet(
        client,
        { name, description: 'both pods hot-upgraded and flipped' },
        (current) =>
          current.status?.observedGeneration === current.metadata.generation &&
          current.status?.updatedPods === 2 &&
          current.status.updatedReadyPods === 2,
      );
      observer.stop();
      expect(done.status).toMatchObject({ matchedPods: 2, readyPods: 2 });
      expect(withoutSidecar).toBeUndefined();
      const after = (await client.list(podResource, { namespace, labelSelector: 'app=web' })).items;
      expect(after.map((pod) => pod.metadata?.uid).sort()).toEqual(before.map((pod) => pod.metadata?.uid).sort());
      for (const pod of after) {
        expect([container(pod, 'proxy-1')?.image, container(pod, 'proxy-2')?.image]).toEqual([EMPTY, 'envoy:1.31']);
        expect(pod.metadata?.annotations).toMatchObject({
          [SIDECARSET_WORKING_HOT_UPGRADE_CONTAINER_ANNOTATION]: '{"proxy":"proxy-2"}',
          'version.sidecarset.kruise.io/proxy-1': '0',
          'versionalt.sidecarset.kruise.io/proxy-2': '0',
        });
        expect(pod.metadata?.annotations?.['version.sidecarset.kruise.io/proxy-2']).toMatch(/^\d+$/);
        expect(status(pod, 'app')?.restartCount).toBe(0);
        expect(status(pod, 'proxy-2')?.image).toBe('envoy:1.31');
      }
      const resets = await waitFor(
        async () => {
          const events = (await client.list(eventResource, { namespace })).items.filter(
            (event) => event.reason === 'ResetContainerSucceed',
          );
          return events.length >= 2 ? events : undefined;
        },
        { description: 'a ResetContainerSucceed event per pod' },
      );
      expect(new Set(resets.map((event) => event.involvedObject.name))).toEqual(new Set(['web-0', 'web-1']));
    });
  });
});
