/**
 * In-place updates on the real control plane (kwok restarts a container whose image changed, and
 * takes a pod out of Ready while a readiness gate is False).
 */
import { describe, expect, it } from 'vitest';

import type { CloneSetInput, Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { createTestNamespace, testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';

import { podResource } from '@kruise-ts/workload';

import { cloneSetResource } from '../../src/index.ts';
import {
  activeClaims,
  activePods,
  createCloneSet,
  installCloneSetCrd,
  observePods,
  PodWriteCounter,
  seedExample,
  settled,
  startController,
  testClient,
  waitForStatus,
  webCloneSet,
  withController,
} from '../support/harness.ts';
import type { ControllerHandle } from '../support/harness.ts';
import { conditionOf, imageOf, isAvailableNow, nameOf, restartsOf, uidOf } from '../support/pods.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);

async function setImage(namespace: string, name: string, image: string): Promise<void> {
  await client.patch(
    cloneSetResource,
    { namespace, name },
    { type: 'json', body: [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: image }] },
  );
}

const allUpdated = (cs: {
  status?: { currentRevision?: string | undefined; updateRevision?: string | undefined } | undefined;
}): boolean => cs.status?.currentRevision !== undefined && cs.status.currentRevision === cs.status.updateRevision;

/** sample-data (5 pods with a PVC each) updated in place, as the document's InPlaceIfPossible example. */
async function inPlaceSample(
  namespace: string,
  updateStrategy: CloneSetInput['spec']['updateStrategy'],
): Promise<void> {
  const example = await seedExample('003-L053.yaml');
  await createCloneSet(client, namespace, { ...example, spec: { ...example.spec, updateStrategy } });
  await waitForStatus(client, { namespace, name: 'sample-data', description: 'sample-data settled' }, settled);
}

/** Watches the namespace's `app=sample` pods and adds every pod seen with Ready False to `into`. */
function recordUnready(namespace: string, into: Set<string>): ReturnType<typeof observePods> {
  return observePods(kubeConfig, { namespace, labelSelector: 'app=sample' }, (pods) => {
    for (const pod of pods) {
      if (conditionOf(pod, 'Ready')?.status === 'False') {
        into.add(nameOf(pod));
      }
    }
  });
}

/** Sets the sample's image and waits until every pod is updated, then stops `observer`. */
async function rollOutSample(namespace: string, image: string, observer: { stop(): void }): Promise<void> {
  try {
    await setImage(namespace, 'sample-data', image);
    await waitForStatus(
      client,
      { namespace, name: 'sample-data', description: `all updated in place to ${image}`, timeoutMs: 90_000 },
      (cs) => settled(cs) && allUpdated(cs),
    );
  } finally {
    observer.stop();
  }
}

/** The writes of each pod, in order, as "verb subresource". */
function writesByPod(
  writes: readonly { readonly pod: string; readonly verb: string; readonly subresource: string }[],
): Map<string, string[]> {
  const byPod = new Map<string, string[]>();
  for (const write of writes) {
    byPod.set(write.pod, [...(byPod.get(write.pod) ?? []), `${write.verb} ${write.subresource}`.trim()]);
  }
  return byPod;
}

describe('CloneSet in-place update', () => {
  it('InPlaceIfPossible: every pod keeps its name, UID and PVC, restarts its container once, and leaves Ready during the update', async () => {
    await installCloneSetCrd(kubeConfig);
    await using ns = await createTestNamespace(kubeConfig, 'inplace-image');
    const writes = new PodWriteCounter();
    const controller = startController({ kubeConfig, namespace: ns.name, requestObservers: [writes] });
    try {
      await inPlaceSample(ns.name, { type: 'InPlaceIfPossible', maxUnavailable: '40%' });
      const before = await activePods(client, ns.name, 'app=sample');
      const claimsBefore = (await activeClaims(client, ns.name)).map(uidOf).sort();
      const wentUnready = new Set<string>();
      const observer = recordUnready(ns.name, wentUnready);
      await observer.synced;
      const firstWrite = writes.writes.length;
      // Each new pod cost two writes: its creation and one pods/status patch with both readiness-gate
      // conditions, written right after the create (no conflict, no re-read, no second status write).
      const creation = writes.writes.slice(0, firstWrite);
      expect(creation.filter((write) => write.pod === '(new)' && write.verb === 'create')).toHaveLength(before.length);
      expect(
        creation
          .filter((write) => write.subresource === 'status')
          .map((write) => write.pod)
          .sort(),
      ).toEqual(before.map(nameOf).sort());
      expect(writes.failed).toEqual([]);
      // A create always records field ownership (managedFields); the in-place patch strips it.
      expect(before.every((pod) => (pod.metadata?.managedFields?.length ?? 0) > 0)).toBe(true);
      await rollOutSample(ns.name, 'nginx:mainline', observer);
      const after = await activePods(client, ns.name, 'app=sample');
      // Stripped, and still so after the later writes of the pod (our completion, the kubelet's statuses).
      expect(after.map((pod) => pod.metadata?.managedFields ?? [])).toEqual(Array<unknown[]>(5).fill([]));
      expect(after.map((pod) => [nameOf(pod), uidOf(pod)])).toEqual(before.map((pod) => [nameOf(pod), uidOf(pod)]));
      expect(after.map(imageOf)).toEqual(Array<string>(5).fill('nginx:mainline'));
      expect(after.map((pod) => restartsOf(pod))).toEqual([1, 1, 1, 1, 1]);
      expect(
        after.every(
          (pod) =>
            conditionOf(pod, 'InPlaceUpdateReady')?.status === 'True' &&
            pod.metadata?.labels?.['lifecycle.apps.kruise.io/state'] === 'Normal',
        ),
      ).toBe(true);
      expect([...wentUnready].sort()).toEqual(before.map(nameOf));
      expect((await activeClaims(client, ns.name)).map(uidOf).sort()).toEqual(claimsBefore);

      // Writes per pod for the whole in-place update: status (not ready), patch (images, labels,
      // state), status (ready again + lifecycle Normal). OpenKruise makes four.
      const perPod = writesByPod(writes.writes.slice(firstWrite));
      expect([...perPod.keys()].sort()).toEqual(before.map(nameOf));
      for (const list of perPod.values()) {
        expect(list).toEqual(['patch status', 'patch', 'patch status']);
      }

      // A second update in place: the pods carry the first update's state, which reads as complete
      // until the second one's image patch lands. Nothing may finish the update in between (the pod
      // would be back in service before its container restarts): again every pod leaves Ready, and
      // costs exactly the three writes.
      wentUnready.clear();
      const again = recordUnready(ns.name, wentUnready);
      await again.synced;
      const secondWrite = writes.writes.length;
      await rollOutSample(ns.name, 'nginx:1.28', again);
      const second = await activePods(client, ns.name, 'app=sample');
      expect(second.map(imageOf)).toEqual(Array<string>(5).fill('nginx:1.28'));
      expect(second.map((pod) => restartsOf(pod))).toEqual([2, 2, 2, 2, 2]);
      expect([...wentUnready].sort()).toEqual(before.map(nameOf));
      const secondPerPod = writesByPod(writes.writes.slice(secondWrite));
      expect([...secondPerPod.keys()].sort()).toEqual(before.map(nameOf));
      for (const list of secondPerPod.values()) {
        expect(list).toEqual(['patch status', 'patch', 'patch status']);
      }
    } finally {
      await controller.stop();
    }
  });

  it('--cloneset-strip-pod-managed-fields=false: pods keep their managedFields through an in-place update', async () => {
    await withController(
      'inplace-keep-fields',
      async (namespace) => {
        await createCloneSet(
          client,
          namespace,
          webCloneSet(2, { updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: 2 } }),
        );
        await waitForStatus(client, { namespace, name: 'web', description: 'two pods' }, settled);
        await setImage(namespace, 'web', 'nginx:1.27');
        await waitForStatus(
          client,
          { namespace, name: 'web', description: 'all updated in place' },
          (cs) => settled(cs) && allUpdated(cs),
        );
        const after = await activePods(client, namespace, 'app=web');
        expect(after.map(restartsOf)).toEqual([1, 1]);
        for (const pod of after) {
          // The creation's entry and the in-place patch's (main resource, Update) are both there.
          const entries = (pod.metadata?.managedFields ?? []).map((entry) =>
            `${entry.operation ?? ''} ${entry.subresource ?? ''}`.trim(),
          );
          expect(entries).toContain('Update');
          expect(entries).toContain('Update status');
        }
      },
      { stripPodManagedFields: false },
    );
  });

  it('a refresh pending at start-up and an image change: every pod updated in place with one restart, its label restored', async () => {
    await installCloneSetCrd(kubeConfig);
    await using ns = await createTestNamespace(kubeConfig, 'inplace-pipelined');
    let controller = startController({ kubeConfig, namespace: ns.name });
    try {
      await createCloneSet(
        client,
        ns.name,
        webCloneSet(6, { updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: 3 } }),
      );
      await waitForStatus(client, { namespace: ns.name, name: 'web', description: 'six pods' }, settled);
      // With the controller stopped: one pod loses pod-template-hash (the refresh writes it back) and
      // the image changes, so the first reconcile has both a refresh write and pods to update.
      await controller.stop();
      const [first] = await activePods(client, ns.name, 'app=web');
      await client.patch(
        podResource,
        { namespace: ns.name, name: nameOf(first ?? {}) },
        { type: 'json', body: [{ op: 'remove', path: '/metadata/labels/pod-template-hash' }] },
      );
      await setImage(ns.name, 'web', 'nginx:1.27');
      controller = startController({ kubeConfig, namespace: ns.name });
      await waitForStatus(
        client,
        { namespace: ns.name, name: 'web', description: 'all updated in place' },
        (cs) => settled(cs) && allUpdated(cs),
      );
      // OpenKruise ends a reconcile whose refresh wrote and updates in the next; that ours does both in
      // one is pinned down by src/sync/update.test.ts. Here: the result on real pods.
      const after = await activePods(client, ns.name, 'app=web');
      expect(after.map(restartsOf)).toEqual(Array<number>(6).fill(1));
      expect(after.every((pod) => pod.metadata?.labels?.['pod-template-hash'] !== undefined)).toBe(true);
    } finally {
      await controller.stop();
    }
  });

  it('gracePeriodSeconds: the images change only after the pod has been out of Ready for the grace period', async () => {
    await installCloneSetCrd(kubeConfig);
    await using ns = await createTestNamespace(kubeConfig, 'inplace-grace');
    const controller = startController({ kubeConfig, namespace: ns.name });
    try {
      await createCloneSet(client, ns.name, {
        metadata: { name: 'graceful' },
        spec: {
          replicas: 2,
          selector: { matchLabels: { app: 'graceful' } },
          template: {
            metadata: { labels: { app: 'graceful' } },
            spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] },
          },
          updateStrategy: {
            type: 'InPlaceIfPossible',
            maxUnavailable: 2,
            inPlaceUpdateStrategy: { gracePeriodSeconds: 3 },
          },
        },
      });
      await waitForStatus(client, { namespace: ns.name, name: 'graceful', description: 'two pods' }, settled);
      const unreadyAt = new Map<string, number>();
      const imageAt = new Map<string, number>();
      const observer = observePods(kubeConfig, { namespace: ns.name, labelSelector: 'app=graceful' }, (pods) => {
        const now = Date.now();
        for (const pod of pods) {
          if (conditionOf(pod, 'InPlaceUpdateReady')?.status === 'False' && !unreadyAt.has(nameOf(pod))) {
            unreadyAt.set(nameOf(pod), now);
          }
          if (imageOf(pod) === 'nginx:1.27' && !imageAt.has(nameOf(pod))) {
            imageAt.set(nameOf(pod), now);
          }
        }
      });
      await observer.synced;
      try {
        await setImage(ns.name, 'graceful', 'nginx:1.27');
        await waitForStatus(
          client,
          { namespace: ns.name, name: 'graceful', description: 'both updated' },
          (cs) => settled(cs) && allUpdated(cs),
        );
      } finally {
        observer.stop();
      }
      expect(unreadyAt.size).toBe(2);
      for (const [name, at] of unreadyAt) {
        // The grace counts from the end of the whole second the update started in, so the pod is out
        // of Ready for at least 3 s; the observer sees both events later by similar delays (100 ms slack).
        expect((imageAt.get(name) ?? 0) - at).toBeGreaterThanOrEqual(2900);
      }
    } finally {
      await controller.stop();
    }
  });

  it('a controller killed in the middle of an in-place rollout finishes it with no extra pod and no pod left not ready', async () => {
    await installCloneSetCrd(kubeConfig);
    await using ns = await createTestNamespace(kubeConfig, 'inplace-restart');
    let controller: ControllerHandle = startController({ kubeConfig, namespace: ns.name });
    try {
      await createCloneSet(
        client,
        ns.name,
        webCloneSet(10, { updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: 2 } }),
      );
      await waitForStatus(client, { namespace: ns.name, name: 'web', description: 'ten pods' }, settled);
      const uids = (await activePods(client, ns.name, 'app=web')).map(uidOf).sort();
      await setImage(ns.name, 'web', 'nginx:1.27');
      await waitFor(
        async () => {
          const pods = await activePods(client, ns.name, 'app=web');
          return (
            pods.some((pod: DeepReadonly<Pod>) => imageOf(pod) === 'nginx:1.27') &&
            pods.some((pod) => imageOf(pod) === 'nginx:1.25')
          );
        },
        { description: 'the rollout to be under way', intervalMs: 20 },
      );
      await controller.stop();
      controller = startController({ kubeConfig, namespace: ns.name });
      await waitForStatus(
        client,
        { namespace: ns.name, name: 'web', description: 'all updated after the restart', timeoutMs: 90_000 },
        (cs) => settled(cs) && allUpdated(cs),
      );
      const pods = await activePods(client, ns.name, 'app=web');
      expect(pods.map(uidOf).sort()).toEqual(uids);
      expect(pods.every(isAvailableNow)).toBe(true);
      expect(pods.map((pod) => restartsOf(pod))).toEqual(Array<number>(10).fill(1));
    } finally {
      await controller.stop();
    }
  });
});
