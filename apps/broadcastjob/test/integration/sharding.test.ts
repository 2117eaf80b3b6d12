/**
 * Two sharded replicas of the BroadcastJob controller (docs/sharding.md) share four jobs: every job
 * completes with one pod per node, its pods carry its bucket, and each replica caches exactly the pods
 * of the jobs whose bucket the ring gives it.
 */
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { BROADCASTJOB_CONTROLLER_UID_LABEL } from '@kruise-ts/api';
import { testClient } from '@kruise-ts/controller-runtime/testing';
import { assignBuckets, bucketLabels, bucketOf, SHARD_BUCKET_LABEL } from '@kruise-ts/sharding';
import { startShardedTestManagers } from '@kruise-ts/sharding/testing';
import { applyCrdFiles, createTestNamespace, testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';
import { podResource } from '@kruise-ts/workload';

import { setupBroadcastJobController } from '../../src/index.ts';
import { createJob, jobBody, jobPods, testNodes, waitForJob } from '../support/harness.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);
const JOBS = 4;
const NODES = 2;
const CRD_FILE = fileURLToPath(new URL('../../../../crds/apps.kruise.io_broadcastjobs.yaml', import.meta.url));

describe('sharded BroadcastJob replicas', () => {
  it("share four jobs: each completes with a pod per node, its pods carry its bucket, each replica caches exactly its jobs' pods", async () => {
    await applyCrdFiles(kubeConfig, [CRD_FILE]);
    await using ns = await createTestNamespace(kubeConfig, 'bcj-shards');
    await using nodes = await testNodes(ns.name, NODES);
    expect(nodes.names).toHaveLength(NODES);
    const identities = ['replica-a', 'replica-b'];
    const replicas = startShardedTestManagers({
      kubeConfig,
      namespace: ns.name,
      ring: 'bcj-ring',
      identities,
      setup: (manager) =>
        setupBroadcastJobController(manager, { workers: 2, assignPodsByScheduler: true, expectationTimeoutMs: 30_000 }),
    });
    try {
      const names = Array.from({ length: JOBS }, (_, i) => `job-${String(i)}`);
      for (const name of names) {
        await createJob(client, jobBody(ns.name, name));
      }
      for (const name of names) {
        await waitForJob(
          client,
          { namespace: ns.name, name, description: `${name} complete`, timeoutMs: 90_000 },
          (job) =>
            (job.status?.conditions ?? []).some(
              (condition) => condition.type === 'Complete' && condition.status === 'True',
            ),
        );
        const pods = await jobPods(client, ns.name, name);
        expect(pods).toHaveLength(NODES);
        expect(pods.map((pod) => pod.metadata?.labels?.[SHARD_BUCKET_LABEL])).toEqual(
          pods.map(() => bucketLabels(ns.name, name)[SHARD_BUCKET_LABEL]),
        );
      }
      const owners = assignBuckets(identities);
      await waitFor(
        () => {
          const cached = replicas.map((replica) =>
            replica.manager.informers
              .informerFor({ resource: podResource, labelSelector: BROADCASTJOB_CONTROLLER_UID_LABEL, sharded: true })
              .cachedCount(),
          );
          const expected = identities.map(
            (identity) => NODES * names.filter((name) => owners[bucketOf(ns.name, name)] === identity).length,
          );
          return Promise.resolve(cached.every((count, i) => count === expected[i]));
        },
        { description: 'each replica to cache exactly the pods of its jobs', timeoutMs: 30_000 },
      );
    } finally {
      await Promise.all(replicas.map((replica) => replica.stop()));
    }
  });
});
