/**
 * Sharded CloneSet replicas (docs/sharding.md) on a control plane of this file's own whose API server
 * writes an audit log. Checked from outside the replicas:
 * - 30 CloneSets shared by three replicas, in-place rollouts running while one replica is killed with
 *   SIGKILL and while a fourth joins: every pod event is watched, and no CloneSet ever has more unready
 *   pods than maxUnavailable; the killed replica's buckets are taken over within the Lease duration,
 *   plus slack;
 * - a replica whose watches stall without breaking (a proxy keeps their bytes back) while its
 *   renewals go on: every other member looks expired to it, yet it takes no bucket (each takeover is
 *   confirmed by a read from the API server), and none is taken from it;
 * - in both, from the audit log: every pod is updated once per rollout, and every write to a
 *   CloneSet's pods or status comes from the replica that held the CloneSet's bucket Lease at that
 *   moment (each replica's user agent names it), so no CloneSet was reconciled by two replicas at once.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { CloneSet, Pod } from '@kruise-ts/api';
import { defineResource } from '@kruise-ts/controller-runtime';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { startLocalCluster } from '@kruise-ts/local-cluster';
import type { LocalCluster } from '@kruise-ts/local-cluster';
import { startWatchHoldingProxy, waitFor } from '@kruise-ts/local-cluster/testing';
import { podResource } from '@kruise-ts/workload';

import { cloneSetResource } from '../../src/index.ts';
import { createCloneSet, installCloneSetCrd, observePods, rolledOut, testClient } from '../support/harness.ts';
import { conditionOf, imageOf, nameOf } from '../support/pods.ts';
import {
  auditEvents,
  converged,
  exited,
  holders,
  identities,
  leaseTimeline,
  ownerOfPod,
  podsUpdatedTwice,
  SHARDING_AUDIT_POLICY,
  startReplica,
  writesOutsideOwnership,
} from '../support/shard-replicas.ts';
import type { Replica, ShardBed } from '../support/shard-replicas.ts';

const CLONESETS = 30;
/**
 * The member and bucket Leases' duration and the renew deadline. A replica that cannot renew within
 * the deadline fences itself and exits (a pod would be restarted; nothing restarts it here), so the
 * deadline leaves room for a loaded 2-core machine: at 4 s, a CI-like run under extra load lost a
 * replica that way and the test waited for a split that could no longer come. A replica fences 8 s
 * after sending its last good renewal; the Lease outlasts that by 4 s, the fence margin.
 */
const LEASE_DURATION_MS = 12_000;
const RENEW_DEADLINE_MS = 8000;
/** Scheduling slack on a loaded 2-core machine: how long a takeover may take beyond the protocol's bound, not a speed target. */
const SLACK_MS = 8000;

let cluster: LocalCluster;
let runDir: string;
let kubeConfig: KubeConfig;

function bed(namespace: string, ring: string): ShardBed {
  return {
    cluster,
    kubeConfig,
    namespace,
    ring,
    leaseDurationMs: LEASE_DURATION_MS,
    renewDeadlineMs: RENEW_DEADLINE_MS,
  };
}

async function createNamespace(name: string): Promise<void> {
  await testClient(kubeConfig).create(
    defineResource({ group: '', version: 'v1', plural: 'namespaces', kind: 'Namespace', namespaced: false }),
    { metadata: { name } },
  );
}

function cloneSetName(prefix: string, i: number): string {
  return `${prefix}-${String(i).padStart(2, '0')}`;
}

async function createCloneSets(input: {
  readonly namespace: string;
  readonly prefix: string;
  readonly count: number;
}): Promise<void> {
  const client = testClient(kubeConfig);
  for (let i = 0; i < input.count; i++) {
    const name = cloneSetName(input.prefix, i);
    await createCloneSet(client, input.namespace, {
      metadata: { name },
      spec: {
        replicas: 2,
        // Each rollout (two pods, one at a time) lasts seconds: long enough for a handover inside it.
        minReadySeconds: 2,
        selector: { matchLabels: { app: name } },
        template: {
          metadata: { labels: { app: name } },
          spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] },
        },
        updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: 1 },
      },
    });
  }
}

async function setImage(namespace: string, image: string): Promise<void> {
  const client = testClient(kubeConfig);
  const list = await client.list(cloneSetResource, { namespace });
  await Promise.all(
    list.items.map((cs: CloneSet) =>
      client.patch(
        cloneSetResource,
        { namespace, name: cs.metadata.name ?? '' },
        { type: 'json', body: [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: image }] },
      ),
    ),
  );
}

async function allRolledOut(input: {
  readonly namespace: string;
  readonly count: number;
  readonly image: string;
}): Promise<void> {
  const client = testClient(kubeConfig);
  await waitFor(
    async () => {
      const list = await client.list(cloneSetResource, { namespace: input.namespace });
      const done = list.items.filter(
        (cs: CloneSet) =>
          rolledOut(cs) &&
          cs.status?.observedGeneration === cs.metadata.generation &&
          cs.spec.template.spec?.containers[0]?.image === input.image,
      );
      return done.length === input.count;
    },
    {
      description: `all ${String(input.count)} CloneSets of ${input.namespace} rolled out to ${input.image}`,
      timeoutMs: 180_000,
    },
  );
}

describe('sharded CloneSet replicas', () => {
  beforeAll(async () => {
    runDir = await mkdtemp(path.join(os.tmpdir(), 'kruise-ts-sharding-'));
    cluster = await startLocalCluster({
      name: 'sharding-audit',
      runDir,
      auditPolicy: SHARDING_AUDIT_POLICY,
      handleSignals: false,
    });
    kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(cluster.kubeconfigPath);
    await installCloneSetCrd(kubeConfig);
  });

  afterAll(async () => {
    await cluster.stop();
    await rm(runDir, { recursive: true, force: true });
  });

  it("share 30 CloneSets: in-place rollouts complete through a SIGKILL and a join, within maxUnavailable, each CloneSet written only by its bucket's holder", async () => {
    const shards = bed('shards', 'kruise-ts-cloneset');
    const { namespace } = shards;
    await createNamespace(namespace);
    const client = testClient(kubeConfig);
    const replicas = [startReplica(shards, 'a'), startReplica(shards, 'b'), startReplica(shards, 'c')];
    const unready = new Map<string, number>();
    let observer: { stop(): void } | undefined;
    try {
      const [a, b, c] = await identities(replicas);
      if (a === undefined || b === undefined || c === undefined) {
        throw new Error('three identities expected');
      }
      await converged(shards, { members: [a, b, c], description: 'the buckets split among three replicas', replicas });
      await createCloneSets({ namespace: namespace, prefix: 'cs', count: CLONESETS });
      await allRolledOut({ namespace: namespace, count: CLONESETS, image: 'nginx:1.25' });

      // Every pod event from here on: the most unready pods each CloneSet had at once.
      observer = observePods(
        kubeConfig,
        { namespace: namespace, labelSelector: '' },
        (pods: readonly DeepReadonly<Pod>[]) => {
          const now = new Map<string, number>();
          for (const pod of pods) {
            if (conditionOf(pod, 'Ready')?.status !== 'True') {
              now.set(ownerOfPod(nameOf(pod)), (now.get(ownerOfPod(nameOf(pod))) ?? 0) + 1);
            }
          }
          for (const [cloneSet, count] of now) {
            unready.set(cloneSet, Math.max(unready.get(cloneSet) ?? 0, count));
          }
        },
      );

      // A rollout with a replica killed in the middle of it.
      const firstFrom = Date.now();
      await setImage(namespace, 'nginx:1.26');
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const killedAt = Date.now();
      replicas[2]?.child.kill('SIGKILL');
      const takenOver = await converged(shards, {
        members: [a, b],
        description: "c's buckets taken over by a and b",
        replicas,
      });
      expect(takenOver - killedAt).toBeLessThan(LEASE_DURATION_MS + SLACK_MS);
      await allRolledOut({ namespace: namespace, count: CLONESETS, image: 'nginx:1.26' });
      const firstTo = Date.now();

      // A fourth replica joins in the middle of a rollout and takes its share over from live replicas,
      // which let go of a bucket only once their reconciles of it ended. The rollout starts once d is
      // about to join (it has read the ring's Leases), so that the handover falls inside it.
      const d = startReplica(shards, 'd');
      replicas.push(d);
      const [dIdentity] = await identities([d]);
      const secondFrom = Date.now();
      await setImage(namespace, 'nginx:1.27');
      await converged(shards, { members: [a, b, dIdentity ?? ''], description: 'd to take its share', replicas });
      await allRolledOut({ namespace: namespace, count: CLONESETS, image: 'nginx:1.27' });
      const secondTo = Date.now();

      const pods = await client.list(podResource, { namespace: namespace });
      expect(pods.items.map(imageOf).filter((image) => image !== 'nginx:1.27')).toEqual([]);
      expect(pods.items).toHaveLength(2 * CLONESETS);
      expect([...unready].filter(([, count]) => count > 1)).toEqual([]);
      expect(unready.size).toBeGreaterThan(0);

      const events = await auditEvents(shards);
      expect(podsUpdatedTwice(shards, events, { from: firstFrom, to: firstTo })).toEqual([]);
      expect(podsUpdatedTwice(shards, events, { from: secondFrom, to: secondTo })).toEqual([]);
      const replicaWrites = events.filter(
        (event) =>
          (event.userAgent ?? '').includes(' shard/') &&
          event.objectRef?.resource === 'pods' &&
          event.objectRef.namespace === namespace,
      );
      expect(replicaWrites.length).toBeGreaterThan(4 * CLONESETS);
      // The writers include the killed replica and the newcomer: the proof covers both handovers.
      const writers = new Set(replicaWrites.map((event) => (event.userAgent ?? '').split(' shard/')[1]));
      expect([...writers].sort()).toEqual([a, b, c, dIdentity].sort());
      expect(writesOutsideOwnership(shards, events)).toEqual([]);
    } finally {
      observer?.stop();
      for (const replica of replicas) {
        replica.child.kill('SIGKILL');
      }
      await Promise.all(replicas.map(exited));
    }
  });
  it("a replica whose watches stall while its renewals go on takes no bucket, and none is taken from it; every write stays with the bucket's holder", async () => {
    const stall = bed('shards-stall', 'kruise-ts-cloneset-stall');
    const { namespace } = stall;
    await createNamespace(namespace);
    const proxy = await startWatchHoldingProxy({
      kubeconfigPath: cluster.kubeconfigPath,
      proxyKubeconfigPath: path.join(runDir, 'stalled-kubeconfig'),
    });
    const replicas: Replica[] = [
      startReplica(stall, 'stalled', proxy.kubeconfigPath),
      startReplica(stall, 'b'),
      startReplica(stall, 'c'),
    ];
    const [stalled] = replicas;
    try {
      const [a, b, c] = await identities(replicas);
      if (a === undefined || b === undefined || c === undefined || stalled === undefined) {
        throw new Error('three identities expected');
      }
      await converged(stall, { members: [a, b, c], description: 'the buckets split among three replicas', replicas });
      await createCloneSets({ namespace, prefix: 'sw', count: 12 });
      await allRolledOut({ namespace, count: 12, image: 'nginx:1.25' });
      const before = await holders(stall);
      const from = Date.now();

      // Two Lease durations and more with every watch of a's held, and a rollout meanwhile.
      proxy.hold();
      await setImage(namespace, 'nginx:1.26');
      const heldUntil = Date.now() + 2 * LEASE_DURATION_MS + SLACK_MS;
      await waitFor(() => Promise.resolve(Date.now() >= heldUntil || stalled.child.exitCode !== null), {
        description: 'the stall to last',
        timeoutMs: heldUntil - Date.now() + 5000,
      });
      expect(proxy.heldStreams()).toBeGreaterThan(0);
      expect(await holders(stall)).toEqual(before);
      proxy.release();
      await allRolledOut({ namespace, count: 12, image: 'nginx:1.26' });
      const to = Date.now();

      expect(stalled.child.exitCode).toBeNull();
      // The stall reached the coordinator: the others looked expired there, and a live read said otherwise.
      expect(stalled.output()).toContain('A member that looked expired renewed its Lease on the API server');
      const events = await auditEvents(stall);
      const changes = [...leaseTimeline(stall, events)].flatMap(([bucket, entries]) =>
        entries
          .filter((entry) => entry.at >= from && entry.at <= to)
          .map((entry) => `${String(bucket)} -> ${entry.holder}`),
      );
      expect(changes).toEqual([]);
      expect(podsUpdatedTwice(stall, events, { from, to })).toEqual([]);
      expect(writesOutsideOwnership(stall, events)).toEqual([]);
      const pods = await testClient(kubeConfig).list(podResource, { namespace });
      expect(pods.items.map(imageOf).filter((image) => image !== 'nginx:1.26')).toEqual([]);
      expect(pods.items.map((pod) => ownerOfPod(nameOf(pod))).filter((owner) => !owner.startsWith('sw-'))).toEqual([]);
    } finally {
      proxy.release();
      for (const replica of replicas) {
        replica.child.kill('SIGKILL');
      }
      await Promise.all(replicas.map(exited));
      await proxy.close();
    }
  });
});
