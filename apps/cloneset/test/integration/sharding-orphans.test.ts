/**
 * Sharded CloneSet replicas adopt orphans as a single leader does (docs/sharding.md): pods without a
 * controller and without a bucket label (left by an older controller, or by a delete that orphaned
 * them) are in no replica's cache until the bucket labeller gives them the bucket of the one CloneSet
 * whose selector matches them; the replica holding it then adopts them instead of creating new pods.
 */
import { describe, expect, it } from 'vitest';

import { parseFeatureGates } from '@kruise-ts/app-config';
import { CLONESET_INSTANCE_ID_LABEL } from '@kruise-ts/api';
import type { Pod } from '@kruise-ts/api';
import { bucketLabels, SHARD_BUCKET_LABEL } from '@kruise-ts/sharding';
import { startShardedTestManagers } from '@kruise-ts/sharding/testing';
import { createTestNamespace, testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';
import { podResource } from '@kruise-ts/workload';

import { setupCloneSetController } from '../../src/index.ts';
import { activePods, createCloneSet, installCloneSetCrd, testClient, webCloneSet } from '../support/harness.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);

function orphan(namespace: string, name: string): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, labels: { app: 'web', [CLONESET_INSTANCE_ID_LABEL]: name } },
    spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] },
  };
}

describe('sharded CloneSet replicas and orphans', () => {
  it('label unlabelled orphans with the bucket of the CloneSet that selects them, and that CloneSet adopts them', async () => {
    await installCloneSetCrd(kubeConfig);
    await using ns = await createTestNamespace(kubeConfig, 'cloneset-shard-orphans');
    const orphans = ['web-orphan-a', 'web-orphan-b'];
    for (const name of orphans) {
      await client.create(podResource, orphan(ns.name, name));
    }
    const replicas = startShardedTestManagers({
      kubeConfig,
      namespace: ns.name,
      ring: 'cloneset-orphans',
      identities: ['replica-a', 'replica-b'],
      setup: (manager) =>
        setupCloneSetController(manager, {
          featureGates: parseFeatureGates(''),
          workers: 2,
          expectationTimeoutMs: 60_000,
          scalingExcludePreparingDelete: false,
          stripPodManagedFields: true,
        }),
    });
    try {
      // partition 2: the adopted orphans, which carry no revision, stay as they are (ReCreate would
      // replace them right after adopting them, and the test could no longer see them adopted).
      const cloneSet = await createCloneSet(client, ns.name, webCloneSet(2, { updateStrategy: { partition: 2 } }));
      const adopted = await waitFor(
        async () => {
          const pods = await activePods(client, ns.name, 'app=web');
          const owned = pods.filter(
            (pod) =>
              pod.metadata?.ownerReferences?.some(
                (ref) => ref.controller === true && ref.uid === cloneSet.metadata.uid,
              ) === true,
          );
          return orphans.every((name) => owned.some((pod) => pod.metadata?.name === name)) ? pods : undefined;
        },
        {
          description: 'both orphans adopted by the CloneSet',
          timeoutMs: 60_000,
          state: async () =>
            (await client.list(podResource, { namespace: ns.name })).items.map((pod) => ({
              name: pod.metadata?.name,
              deleting: pod.metadata?.deletionTimestamp,
              labels: pod.metadata?.labels,
              owners: pod.metadata?.ownerReferences?.map((ref) => ref.name),
            })),
        },
      );
      for (const name of orphans) {
        expect(adopted.find((pod) => pod.metadata?.name === name)?.metadata?.labels?.[SHARD_BUCKET_LABEL]).toBe(
          bucketLabels(ns.name, 'web')[SHARD_BUCKET_LABEL],
        );
      }
      // Adopted, not replaced: the CloneSet of two pods made none of its own while it waited for them.
      expect(adopted.map((pod) => pod.metadata?.name).sort()).toEqual(orphans);
      expect((await activePods(client, ns.name, 'app=web')).map((pod) => pod.metadata?.name).sort()).toEqual(orphans);
    } finally {
      await Promise.all(replicas.map((replica) => replica.stop()));
    }
  });
});
