import { describe, expect, it } from 'vitest';

import { createTestNamespace, testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';
import { isNotFound } from '@kruise-ts/controller-runtime';
import { podResource } from '@kruise-ts/workload';

import { cloneSetResource } from '../../src/index.ts';
import {
  activePods,
  createCloneSet,
  installCloneSetCrd,
  settled,
  startController,
  testClient,
  waitForStatus,
} from '../support/harness.ts';
import type { CloneSetManifest } from '../support/harness.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);

const web: CloneSetManifest = {
  metadata: { name: 'web' },
  spec: {
    replicas: 3,
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'nginx:alpine' }] } },
  },
};

const uids = (pods: readonly { metadata?: { uid?: string } }[]): string[] =>
  pods.map((pod) => pod.metadata?.uid ?? '').sort();

describe('CloneSet pod ownership (claim, adopt, release)', () => {
  it('adopts the pods an orphaning delete left behind instead of creating new ones', async () => {
    await installCloneSetCrd(kubeConfig);
    await using ns = await createTestNamespace(kubeConfig, 'cloneset-adopt');
    const controller = startController({ kubeConfig, namespace: ns.name });
    try {
      await createCloneSet(client, ns.name, web);
      await waitForStatus(client, { namespace: ns.name, name: 'web', description: 'three pods' }, settled);
      const before = await activePods(client, ns.name, 'app=web');
      await client.delete(cloneSetResource, { namespace: ns.name, name: 'web' }, { propagationPolicy: 'Orphan' });
      await waitFor(
        async () =>
          (await activePods(client, ns.name, 'app=web')).every(
            (pod) => (pod.metadata?.ownerReferences ?? []).length === 0,
          ),
        {
          description: 'the garbage collector to orphan the pods',
        },
      );
      // The orphan finalizer is removed after the pods are released: wait for the object to be gone.
      await waitFor(
        async () =>
          client.get(cloneSetResource, { namespace: ns.name, name: 'web' }).then(
            () => false,
            (error: unknown) => isNotFound(error),
          ),
        {
          description: 'the old CloneSet to be gone',
        },
      );

      const recreated = await createCloneSet(client, ns.name, web);
      await waitForStatus(
        client,
        { namespace: ns.name, name: 'web', description: 'the new CloneSet to report three pods' },
        settled,
      );
      const after = await activePods(client, ns.name, 'app=web');
      expect(uids(after)).toEqual(uids(before));
      for (const pod of after) {
        expect(pod.metadata?.ownerReferences).toEqual([
          expect.objectContaining({ uid: recreated.metadata.uid, controller: true, kind: 'CloneSet' }),
        ]);
      }
    } finally {
      await controller.stop();
    }
  });

  it('releases a pod whose labels stop matching the selector, and replaces it', async () => {
    await installCloneSetCrd(kubeConfig);
    await using ns = await createTestNamespace(kubeConfig, 'cloneset-release');
    const controller = startController({ kubeConfig, namespace: ns.name });
    try {
      await createCloneSet(client, ns.name, web);
      await waitForStatus(client, { namespace: ns.name, name: 'web', description: 'three pods' }, settled);
      const [leaving] = await activePods(client, ns.name, 'app=web');
      const name = leaving?.metadata?.name ?? '';
      await client.patch(
        podResource,
        { namespace: ns.name, name },
        { type: 'merge', body: { metadata: { labels: { app: 'debugging' } } } },
      );
      await waitFor(
        async () =>
          ((await client.get(podResource, { namespace: ns.name, name })).metadata?.ownerReferences ?? []).length === 0,
        {
          description: 'the pod to be released',
        },
      );
      await waitFor(
        async () => {
          const pods = await activePods(client, ns.name, 'app=web');
          return pods.length === 3 && !pods.some((pod) => pod.metadata?.name === name);
        },
        { description: 'three pods without the released one' },
      );
      await waitForStatus(client, { namespace: ns.name, name: 'web', description: 'settled again' }, settled);
      // The released pod keeps running: it is the user's now.
      expect((await client.get(podResource, { namespace: ns.name, name })).metadata?.deletionTimestamp).toBeUndefined();
    } finally {
      await controller.stop();
    }
  });
});
