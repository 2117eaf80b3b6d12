/**
 * The SidecarSet controller on the real control plane, without the pod webhook: a pod created with the
 * sidecars (as the webhook would have made it) is counted matched, updated and ready; a pod created
 * without them (webhook down or skipped) is reported: a Warning Event on the pod and on the SidecarSet,
 * and the MissedInjection condition with the count. Pods created before the SidecarSet, of another
 * label, or in an excluded namespace are not reported.
 */
import { setTimeout as sleep } from 'node:timers/promises';

import { describe, expect, it } from 'vitest';

import type { Pod, SidecarSet } from '@kruise-ts/api';
import { testClient } from '@kruise-ts/controller-runtime/testing';
import { testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';
import { eventResource } from '@kruise-ts/controller-runtime';
import { podResource } from '@kruise-ts/workload';

import {
  injectingSidecarSets,
  injectSidecars,
  MISSED_INJECTION,
  SIDECAR_INJECTION_MISSED_REASON,
  sidecarSetHash,
  sidecarSetHashWithoutImage,
  sidecarSetResource,
} from '../../src/index.ts';
import { createPod, createSidecarSet, webPod, waitForSidecarSet, withController } from '../support/harness.ts';

const client = testClient(testKubeConfig());

/** The pod as the webhook would have injected it. */
function injected(pod: Pod, set: SidecarSet, namespace: string): Pod {
  const sets = injectingSidecarSets(
    [set],
    { ...pod, metadata: { ...pod.metadata, namespace } },
    { name: namespace, labels: {} },
  );
  expect(sets).toHaveLength(1);
  return injectSidecars(pod, sets, new Date());
}

describe('SidecarSet controller', () => {
  it('counts injected pods and reports a pod created without its sidecars, once, on the pod and the SidecarSet', async () => {
    await withController('sidecarset-status', async (namespace) => {
      await createPod(client, namespace, webPod('before-the-set'));
      // creationTimestamp has whole seconds: a pod of the same second as the SidecarSet counts as after it.
      await sleep(1100);
      await using set = await createSidecarSet(client, namespace);
      const name = set.metadata.name ?? '';
      await createPod(client, namespace, injected(webPod('with-sidecars'), set, namespace));
      await createPod(
        client,
        namespace,
        webPod('other-label', { metadata: { name: 'other-label', labels: { app: 'db' } } }),
      );
      await createPod(client, namespace, webPod('missed'));
      const reported = await waitForSidecarSet(
        client,
        { name, description: 'one matched pod and one missed' },
        (current) =>
          current.status?.matchedPods === 1 &&
          current.status.readyPods === 1 &&
          (current.status.conditions ?? []).some((c) => c.type === MISSED_INJECTION),
      );
      expect(reported.status).toMatchObject({
        matchedPods: 1,
        updatedPods: 1,
        readyPods: 1,
        updatedReadyPods: 1,
        observedGeneration: reported.metadata.generation,
      });
      const condition = reported.status?.conditions?.find((c) => c.type === MISSED_INJECTION);
      expect(condition).toMatchObject({ status: 'True', reason: 'PodsCreatedWithoutSidecars' });
      expect(condition?.message).toContain(`1 pod(s) created without the sidecars`);
      expect(condition?.message).toContain(`${namespace}/missed`);
      const events = await waitFor(
        async () => {
          const list = (await client.list(eventResource, { namespace })).items.filter(
            (event) => event.reason === SIDECAR_INJECTION_MISSED_REASON,
          );
          return list.length >= 1 ? list : undefined;
        },
        { description: 'the Warning Event on the pod' },
      );
      expect(events.map((event) => [event.type, event.involvedObject.kind, event.involvedObject.name])).toEqual([
        ['Warning', 'Pod', 'missed'],
      ]);
      expect(events[0]?.message).toContain(`SidecarSet ${name}`);
      // The SidecarSet is cluster-scoped: its Events go to the default namespace.
      const onSet = await waitFor(
        async () => {
          const list = (await client.list(eventResource, { namespace: 'default' })).items.filter(
            (event) => event.involvedObject.name === name && event.reason === SIDECAR_INJECTION_MISSED_REASON,
          );
          return list.length >= 1 ? list : undefined;
        },
        { description: 'the Warning Event on the SidecarSet' },
      );
      expect(onSet.map((event) => [event.type, event.involvedObject.kind])).toEqual([['Warning', 'SidecarSet']]);
    });
  });

  it('drops the condition when the missed pod is gone, and counts an outdated pod as not updated', async () => {
    await withController('sidecarset-outdated', async (namespace) => {
      // NotUpdate: the pod must stay outdated (with RollingUpdate the controller upgrades it in place).
      await using set = await createSidecarSet(client, namespace, { updateStrategy: { type: 'NotUpdate' } });
      const name = set.metadata.name ?? '';
      await createPod(client, namespace, injected(webPod('injected'), set, namespace));
      await createPod(client, namespace, webPod('missed'));
      await waitForSidecarSet(client, { name, description: 'the missed pod reported' }, (current) =>
        (current.status?.conditions ?? []).some((c) => c.type === MISSED_INJECTION),
      );
      await client.delete(podResource, { namespace, name: 'missed' }, { gracePeriodSeconds: 0 });
      await client.patch(
        sidecarSetResource,
        { name },
        { type: 'merge', body: { spec: { containers: [{ name: 'logger', image: 'busybox:1.37' }] } } },
      );
      const after = await waitForSidecarSet(
        client,
        { name, description: 'no missed pod and the new hash' },
        (current) =>
          current.status?.observedGeneration === current.metadata.generation &&
          (current.status?.conditions ?? []).length === 0,
      );
      expect(after.status).toMatchObject({ matchedPods: 1, updatedPods: 0, readyPods: 1, updatedReadyPods: 0 });
    });
  });

  // OpenKruise e2e apps/v1alpha1/sidecarset.go:859, :959: the SidecarSet carries both hashes, as OpenKruise's webhook stamps them.
  it('writes both hash annotations on the SidecarSet, and new ones when its containers change', async () => {
    await withController('sidecarset-hash-annotations', async (namespace) => {
      await using set = await createSidecarSet(client, namespace);
      const name = set.metadata.name ?? '';
      const hashed = (current: SidecarSet): boolean =>
        current.metadata.annotations?.['kruise.io/sidecarset-hash'] === sidecarSetHash(current.spec) &&
        current.metadata.annotations['kruise.io/sidecarset-hash-without-image'] ===
          sidecarSetHashWithoutImage(current.spec);
      const first = await waitForSidecarSet(client, { name, description: 'both hashes on the SidecarSet' }, hashed);
      await client.patch(
        sidecarSetResource,
        { name },
        { type: 'merge', body: { spec: { containers: [{ name: 'logger', image: 'busybox:1.37' }] } } },
      );
      const second = await waitForSidecarSet(
        client,
        { name, description: 'the new image hashed' },
        (current) => current.metadata.generation === 2 && hashed(current),
      );
      expect(second.metadata.annotations?.['kruise.io/sidecarset-hash']).not.toBe(
        first.metadata.annotations?.['kruise.io/sidecarset-hash'],
      );
      expect(second.metadata.annotations?.['kruise.io/sidecarset-hash-without-image']).toBe(
        first.metadata.annotations?.['kruise.io/sidecarset-hash-without-image'],
      );
    });
  });

  // The reconcile reads its pods from the pod index (src/pod-index/): it must follow label and selector changes.
  it("follows a pod's new labels and the SidecarSet's new selector", async () => {
    await withController('sidecarset-pod-index', async (namespace) => {
      await using set = await createSidecarSet(client, namespace, { updateStrategy: { type: 'NotUpdate' } });
      const name = set.metadata.name ?? '';
      await createPod(client, namespace, injected(webPod('a'), set, namespace));
      await createPod(client, namespace, webPod('m', { metadata: { name: 'm', labels: { app: 'db' } } }));
      await waitForSidecarSet(
        client,
        { name, description: 'the injected pod counted' },
        (current) => current.status?.matchedPods === 1,
      );
      const missed = (current: SidecarSet): string | undefined =>
        current.status?.conditions?.find((c) => c.type === MISSED_INJECTION)?.message;

      // The selector moves to the pod created without sidecars: it is reported, and the injected one leaves the count.
      await client.patch(
        sidecarSetResource,
        { name },
        { type: 'merge', body: { spec: { selector: { matchLabels: { app: 'db' } } } } },
      );
      const moved = await waitForSidecarSet(
        client,
        { name, description: 'the bare pod reported, the other one not counted' },
        (current) => current.status?.matchedPods === 0 && (missed(current) ?? '').includes(`${namespace}/m`),
      );
      expect(moved.status?.observedGeneration).toBe(moved.metadata.generation);

      // The pods' labels change: the bare pod leaves the selector, the injected one joins it.
      await client.patch(
        podResource,
        { namespace, name: 'm' },
        { type: 'merge', body: { metadata: { labels: { app: 'none' } } } },
      );
      await waitForSidecarSet(
        client,
        { name, description: 'the bare pod no longer reported' },
        (current) => missed(current) === undefined,
      );
      await client.patch(
        podResource,
        { namespace, name: 'a' },
        { type: 'merge', body: { metadata: { labels: { app: 'db' } } } },
      );
      await waitForSidecarSet(
        client,
        { name, description: 'the injected pod counted again' },
        (current) => current.status?.matchedPods === 1,
      );
    });
  });

  it('reports no missed injection with PodWebhook=false (nothing injects then)', async () => {
    await withController(
      'sidecarset-no-pod-webhook',
      async (namespace) => {
        await using set = await createSidecarSet(client, namespace);
        const name = set.metadata.name ?? '';
        await createPod(client, namespace, webPod('not-injected'));
        // Created after the pod above: once it is counted, the controller has seen both.
        await createPod(client, namespace, injected(webPod('with-sidecars'), set, namespace));
        const counted = await waitForSidecarSet(
          client,
          { name, description: 'the injected pod counted' },
          (current) => current.status?.matchedPods === 1,
        );
        expect(counted.status?.conditions ?? []).toEqual([]);
      },
      { podWebhook: false },
    );
  });
});
