/**
 * Advanced StatefulSet rolling updates on the real control plane: in place (names, UIDs and PVCs
 * kept, one restart per container, out of Ready during the update), partition as a count,
 * maxUnavailable under Parallel watched through every pod event, paused, OnDelete.
 */
import { describe, expect, it } from 'vitest';

import type { Pod, StatefulSet } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import {
  conditionOf,
  imageOf,
  isAvailableNow,
  nameOf,
  restartsOf,
  revisionOf,
  uidOf,
} from '@kruise-ts/workload/testing';
import { observeObjects, testClient } from '@kruise-ts/controller-runtime/testing';
import { testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';
import { podResource, pvcResource } from '@kruise-ts/workload';

import { statefulSetResource } from '../../src/index.ts';
import { createStatefulSet, dbStatefulSet, settled, waitForSet, withController } from '../support/harness.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);

async function podsOf(namespace: string): Promise<Pod[]> {
  const pods = await client.list(podResource, { namespace, labelSelector: 'app=db' });
  return pods.items
    .filter((pod) => pod.metadata?.deletionTimestamp === undefined)
    .sort((a, b) => nameOf(a).localeCompare(nameOf(b), undefined, { numeric: true }));
}

function setImage(namespace: string, image: string, extra: Record<string, unknown> = {}): Promise<StatefulSet> {
  return client.patch(
    statefulSetResource,
    { namespace, name: 'db' },
    { type: 'merge', body: { spec: { template: { spec: { containers: [{ name: 'main', image }] } }, ...extra } } },
  );
}

/** The status has seen the latest spec and knows its update revision. */
function observed(set: StatefulSet): boolean {
  return set.status?.observedGeneration === set.metadata.generation && set.status?.updateRevision !== undefined;
}

const dataTemplate = {
  metadata: { name: 'data' },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
};

describe('Advanced StatefulSet rolling update', () => {
  it('in place: names, UIDs and PVCs are kept, each container restarts once, each pod leaves Ready during its update, and its managedFields are reset', async () => {
    await withController('asts-inplace', async (namespace) => {
      await createStatefulSet(
        client,
        namespace,
        dbStatefulSet(3, {
          volumeClaimTemplates: [dataTemplate],
          updateStrategy: { rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible' } },
        }),
      );
      await waitForSet(client, { namespace, name: 'db', description: '3 ready pods' }, settled);
      const before = await podsOf(namespace);
      // A create always records field ownership; the in-place patch resets it (--statefulset-strip-pod-managed-fields).
      expect(before.map((pod) => (pod.metadata?.managedFields ?? []).length > 0)).toEqual([true, true, true]);
      const claimsBefore = (await client.list(pvcResource, { namespace })).items.map(uidOf).sort();
      expect(claimsBefore).toHaveLength(3);
      const unready = new Set<string>();
      const observer = observeObjects(
        kubeConfig,
        { resource: podResource, namespace, labelSelector: 'app=db' },
        (pods) => {
          for (const pod of pods.filter((p) => conditionOf(p, 'InPlaceUpdateReady')?.status === 'False')) {
            unready.add(nameOf(pod));
          }
        },
      );
      await observer.synced;
      await setImage(namespace, 'nginx:1.26');
      await waitForSet(
        client,
        { namespace, name: 'db', description: 'rolled out in place' },
        (set) => settled(set) && observed(set) && set.status?.currentRevision === set.status?.updateRevision,
      );
      observer.stop();
      const after = await podsOf(namespace);
      expect(after.map((pod) => [nameOf(pod), uidOf(pod)])).toEqual(before.map((pod) => [nameOf(pod), uidOf(pod)]));
      expect(after.map(imageOf)).toEqual(['nginx:1.26', 'nginx:1.26', 'nginx:1.26']);
      expect(after.map(restartsOf)).toEqual([1, 1, 1]);
      expect(after.map((pod) => pod.metadata?.managedFields ?? [])).toEqual([[], [], []]);
      expect([...unready].sort()).toEqual(['db-0', 'db-1', 'db-2']);
      expect((await client.list(pvcResource, { namespace })).items.map(uidOf).sort()).toEqual(claimsBefore);
    });
  });

  it('partition 2 of 5 leaves ordinals 0 and 1 on the old revision', async () => {
    await withController('asts-partition', async (namespace) => {
      await createStatefulSet(
        client,
        namespace,
        dbStatefulSet(5, {
          podManagementPolicy: 'Parallel',
          updateStrategy: { rollingUpdate: { partition: 2, maxUnavailable: 5 } },
        }),
      );
      const first = await waitForSet(client, { namespace, name: 'db', description: '5 ready pods' }, settled);
      await setImage(namespace, 'nginx:1.26');
      await waitForSet(
        client,
        { namespace, name: 'db', description: '3 updated' },
        (set) => observed(set) && set.status?.updatedReplicas === 3 && set.status.readyReplicas === 5,
      );
      const pods = await podsOf(namespace);
      expect(pods.map((pod) => [nameOf(pod), imageOf(pod)])).toEqual([
        ['db-0', 'nginx:1.25'],
        ['db-1', 'nginx:1.25'],
        ['db-2', 'nginx:1.26'],
        ['db-3', 'nginx:1.26'],
        ['db-4', 'nginx:1.26'],
      ]);
      expect(revisionOf(pods[0] as Pod)).toBe(first.status?.currentRevision);
    });
  });

  it('maxUnavailable 2 with Parallel never has more than 2 unavailable pods (every pod event watched)', async () => {
    await withController('asts-max-unavailable', async (namespace) => {
      await createStatefulSet(
        client,
        namespace,
        dbStatefulSet(6, { podManagementPolicy: 'Parallel', updateStrategy: { rollingUpdate: { maxUnavailable: 2 } } }),
      );
      await waitForSet(client, { namespace, name: 'db', description: '6 ready pods' }, settled);
      let worst = 0;
      const observer = observeObjects(
        kubeConfig,
        { resource: podResource, namespace, labelSelector: 'app=db' },
        (pods: readonly DeepReadonly<Pod>[]) => {
          worst = Math.max(worst, 6 - pods.filter(isAvailableNow).length);
        },
      );
      await observer.synced;
      await setImage(namespace, 'nginx:1.26');
      await waitForSet(
        client,
        { namespace, name: 'db', description: 'rolled out' },
        (set) => settled(set) && observed(set),
      );
      observer.stop();
      expect((await podsOf(namespace)).map(imageOf)).toEqual(Array<string>(6).fill('nginx:1.26'));
      expect(worst).toBe(2);
    });
  });

  it('paused stops the update and scaling goes on; resuming finishes it', async () => {
    await withController('asts-paused', async (namespace) => {
      await createStatefulSet(client, namespace, dbStatefulSet(2, { podManagementPolicy: 'Parallel' }));
      await waitForSet(client, { namespace, name: 'db', description: '2 ready pods' }, settled);
      await setImage(namespace, 'nginx:1.26', { replicas: 3, updateStrategy: { rollingUpdate: { paused: true } } });
      const paused = await waitForSet(
        client,
        { namespace, name: 'db', description: '3 pods, paused' },
        (set) => observed(set) && set.status?.replicas === 3 && set.status.readyReplicas === 3,
      );
      // The scaled-out pod is new and at the update revision (nothing below it is old enough to keep); the others wait.
      expect((await podsOf(namespace)).map(imageOf)).toEqual(['nginx:1.25', 'nginx:1.25', 'nginx:1.26']);
      expect(paused.status?.updatedReplicas).toBe(1);
      await client.patch(
        statefulSetResource,
        { namespace, name: 'db' },
        { type: 'merge', body: { spec: { updateStrategy: { rollingUpdate: { paused: false } } } } },
      );
      await waitForSet(
        client,
        { namespace, name: 'db', description: 'rolled out' },
        (set) => settled(set) && observed(set),
      );
      expect((await podsOf(namespace)).map(imageOf)).toEqual(['nginx:1.26', 'nginx:1.26', 'nginx:1.26']);
    });
  });

  it('OnDelete never replaces a pod; a pod the user deletes comes back at the new revision', async () => {
    await withController('asts-on-delete', async (namespace) => {
      await createStatefulSet(
        client,
        namespace,
        dbStatefulSet(2, { podManagementPolicy: 'Parallel', updateStrategy: { type: 'OnDelete' } }),
      );
      await waitForSet(
        client,
        { namespace, name: 'db', description: '2 ready pods' },
        (set) => set.status?.readyReplicas === 2,
      );
      const before = await podsOf(namespace);
      await setImage(namespace, 'nginx:1.26');
      await waitForSet(
        client,
        { namespace, name: 'db', description: 'the new revision observed' },
        (set) => observed(set) && set.status?.updateRevision !== set.status?.currentRevision,
      );
      expect((await podsOf(namespace)).map(uidOf)).toEqual(before.map(uidOf));
      await client.delete(podResource, { namespace, name: 'db-1' });
      const replaced = await waitFor(
        async () => {
          const pods = await podsOf(namespace);
          const pod = pods.find((candidate) => nameOf(candidate) === 'db-1');
          return pod !== undefined && uidOf(pod) !== uidOf(before[1] as Pod) ? pods : undefined;
        },
        { description: 'db-1 recreated', timeoutMs: 60_000 },
      );
      expect(replaced.map(imageOf)).toEqual(['nginx:1.25', 'nginx:1.26']);
      expect(uidOf(replaced[0] as Pod)).toBe(uidOf(before[0] as Pod));
    });
  });
});
