/**
 * Two sharded replicas of the Advanced StatefulSet controller (docs/sharding.md) share six sets: every
 * set settles, its pods and revisions carry its bucket, and each replica caches exactly the pods of the
 * sets whose bucket the ring gives it.
 */
import { describe, expect, it } from 'vitest';

import { parseFeatureGates } from '@kruise-ts/app-config';
import { STATEFULSET_POD_NAME_LABEL } from '@kruise-ts/api';
import { testClient } from '@kruise-ts/controller-runtime/testing';
import { assignBuckets, bucketLabels, bucketOf, SHARD_BUCKET_LABEL } from '@kruise-ts/sharding';
import { startShardedTestManagers } from '@kruise-ts/sharding/testing';
import { testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';
import { controllerRevisionResource } from '@kruise-ts/revision';
import { podResource } from '@kruise-ts/workload';

import { setupStatefulSetController } from '../../src/index.ts';
import { createStatefulSet, dbStatefulSet, settled, statefulSetNamespace, waitForSet } from '../support/harness.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);
const SETS = 6;

describe('sharded Advanced StatefulSet replicas', () => {
  it("share six sets: each settles, its pods and revisions carry its bucket, each replica caches exactly its sets' pods", async () => {
    await using ns = await statefulSetNamespace(kubeConfig, 'asts-shards');
    const identities = ['replica-a', 'replica-b'];
    const replicas = startShardedTestManagers({
      kubeConfig,
      namespace: ns.name,
      ring: 'asts-ring',
      identities,
      setup: (manager) =>
        setupStatefulSetController(manager, {
          featureGates: parseFeatureGates(''),
          workers: 2,
          expectationTimeoutMs: 60_000,
          stripPodManagedFields: true,
        }),
    });
    try {
      const names = Array.from({ length: SETS }, (_, i) => `db-${String(i)}`);
      for (const name of names) {
        const base = dbStatefulSet(2);
        await createStatefulSet(client, ns.name, {
          ...base,
          metadata: { name },
          spec: {
            ...base.spec,
            serviceName: name,
            selector: { matchLabels: { app: name } },
            template: { ...base.spec.template, metadata: { labels: { app: name } } },
          },
        });
      }
      for (const name of names) {
        await waitForSet(
          client,
          { namespace: ns.name, name, description: `${name} settled`, timeoutMs: 90_000 },
          settled,
        );
      }
      const pods = await client.list(podResource, { namespace: ns.name });
      expect(pods.items).toHaveLength(2 * SETS);
      for (const pod of pods.items) {
        const set = pod.metadata?.ownerReferences?.[0]?.name ?? '';
        expect(pod.metadata?.labels?.[SHARD_BUCKET_LABEL]).toBe(bucketLabels(ns.name, set)[SHARD_BUCKET_LABEL]);
      }
      const revisions = await client.list(controllerRevisionResource, { namespace: ns.name });
      expect(revisions.items.length).toBeGreaterThanOrEqual(SETS);
      expect(
        revisions.items.filter((revision) => revision.metadata?.labels?.[SHARD_BUCKET_LABEL] === undefined),
      ).toEqual([]);

      const owners = assignBuckets(identities);
      await waitFor(
        () => {
          const cached = replicas.map((replica) =>
            replica.manager.informers
              .informerFor({ resource: podResource, labelSelector: STATEFULSET_POD_NAME_LABEL, sharded: true })
              .cachedCount(),
          );
          const expected = identities.map(
            (identity) => 2 * names.filter((name) => owners[bucketOf(ns.name, name)] === identity).length,
          );
          return Promise.resolve(cached.every((count, i) => count === expected[i]));
        },
        { description: 'each replica to cache exactly the pods of its sets', timeoutMs: 30_000 },
      );
    } finally {
      await Promise.all(replicas.map((replica) => replica.stop()));
    }
  });
});
