/**
 * Orphans and released pods, as OpenKruise's e2e "should adopt matching orphans and release
 * non-matching pods" (test/e2e/apps/v1beta1/statefulset.go:1017) and upstream's StatefulSet: a pod
 * whose owner references are removed is adopted again; a pod whose labels are all removed (which
 * takes it out of the controller's pod cache) is released, not deleted, and the set waits, unable to
 * create a pod of that name (FailedCreatePod "already exists"), until the labels come back and it
 * adopts the pod again.
 */
import { describe, expect, it } from 'vitest';

import type { Pod } from '@kruise-ts/api';
import { testClient } from '@kruise-ts/controller-runtime/testing';
import { uidOf } from '@kruise-ts/workload/testing';
import { testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';
import { podResource } from '@kruise-ts/workload';

import { createStatefulSet, dbStatefulSet, settled, waitForSet, withController } from '../support/harness.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);

function controllerUid(pod: Pod): string | undefined {
  return pod.metadata?.ownerReferences?.find((ref) => ref.controller === true)?.uid;
}

function waitForPod(namespace: string, description: string, check: (pod: Pod) => boolean): Promise<Pod> {
  return waitFor(
    async () => {
      const pod = await client.get(podResource, { namespace, name: 'db-0' });
      return check(pod) ? pod : undefined;
    },
    { description, timeoutMs: 60_000 },
  );
}

describe('Advanced StatefulSet orphans and released pods', () => {
  it('adopts a pod whose owner references were removed, releases one whose labels were removed, and adopts it again when they come back', async () => {
    await withController('asts-orphan', async (namespace) => {
      const created = await createStatefulSet(client, namespace, dbStatefulSet(1));
      const setUid = created.metadata.uid ?? '';
      await waitForSet(client, { namespace, name: 'db', description: '1 ready pod' }, settled);
      const pod = await client.get(podResource, { namespace, name: 'db-0' });
      expect(controllerUid(pod)).toBe(setUid);

      await client.patch(
        podResource,
        { namespace, name: 'db-0' },
        { type: 'merge', body: { metadata: { ownerReferences: null } } },
      );
      await waitForPod(namespace, 'db-0 adopted', (current) => controllerUid(current) === setUid);

      const labels = pod.metadata?.labels ?? {};
      await client.patch(
        podResource,
        { namespace, name: 'db-0' },
        { type: 'merge', body: { metadata: { labels: null } } },
      );
      const released = await waitForPod(namespace, 'db-0 released', (current) => controllerUid(current) === undefined);
      // Released, not deleted: the same pod, and the set cannot create another of that name.
      expect(uidOf(released)).toBe(uidOf(pod));
      expect(released.metadata?.deletionTimestamp).toBeUndefined();
      const waiting = await waitForSet(
        client,
        { namespace, name: 'db', description: 'FailedCreatePod: already exists' },
        (set) =>
          set.status?.conditions?.some(
            (condition) =>
              condition.type === 'FailedCreatePod' &&
              condition.status === 'True' &&
              condition.message?.includes('already exists') === true,
          ) === true,
      );
      expect(waiting.status?.readyReplicas).toBe(0);

      await client.patch(podResource, { namespace, name: 'db-0' }, { type: 'merge', body: { metadata: { labels } } });
      const adopted = await waitForPod(namespace, 'db-0 adopted again', (current) => controllerUid(current) === setUid);
      expect(uidOf(adopted)).toBe(uidOf(pod));
      const set = await waitForSet(
        client,
        { namespace, name: 'db', description: 'ready again' },
        (current) =>
          settled(current) &&
          current.status?.conditions?.some((condition) => condition.type === 'FailedCreatePod') !== true,
      );
      expect(set.status?.readyReplicas).toBe(1);
    });
  });
});
