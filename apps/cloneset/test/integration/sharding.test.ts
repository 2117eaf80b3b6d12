/**
 * Three replicas of the CloneSet app share 30 CloneSets (docs/sharding.md), on a control plane of
 * this file's own whose API server writes an audit log. In-place rollouts run while one replica is
 * killed with SIGKILL and while a fourth joins. Checked from outside the replicas:
 * - every pod event is watched: no CloneSet ever has more unready pods than maxUnavailable;
 * - the audit log: every pod is updated once per rollout, and every write to a CloneSet's pods or
 *   status comes from the replica that held the CloneSet's bucket Lease at that moment (each
 *   replica's user agent names it), so no CloneSet was reconciled by two replicas at once;
 * - the killed replica's buckets are taken over within the Lease duration, plus slack.
 */
import { spawn } from 'node:child_process';
import type { ChildProcessByStdio } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { CloneSet, Pod } from '@kruise-ts/api';
import { assignBuckets, bucketLeaseName, bucketOf, defineResource, leaseResource, SHARD_BUCKETS } from '@kruise-ts/controller-runtime';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { startLocalCluster } from '@kruise-ts/local-cluster';
import type { LocalCluster } from '@kruise-ts/local-cluster';
import { waitFor } from '@kruise-ts/local-cluster/testing';
import { podResource } from '@kruise-ts/workload';

import { cloneSetResource } from '../../src/index.ts';
import { createCloneSet, installCloneSetCrd, observePods, rolledOut, testClient } from '../support/harness.ts';
import { conditionOf, imageOf, nameOf } from '../support/pods.ts';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
const NAMESPACE = 'shards';
const RING = 'kruise-ts-cloneset';
const CLONESETS = 30;
/**
 * The member and bucket Leases' duration and the renew deadline. A replica that cannot renew within
 * the deadline fences itself and exits (a pod would be restarted; nothing restarts it here), so the
 * deadline leaves room for a loaded 2-core machine: at 4 s, a CI-like run under extra load lost a
 * replica that way and the test waited for a split that could no longer come. A replica fences at the
 * first failed renewal past the deadline, up to one retry period (2 s) later; the Lease outlasts that
 * by 2 s more, so a fenced replica has stopped before anyone takes its buckets.
 */
const LEASE_DURATION_MS = 12_000;
const RENEW_DEADLINE_MS = 8000;
/** Scheduling slack on a loaded 2-core machine: how long a takeover may take beyond the protocol's bound, not a speed target. */
const SLACK_MS = 8000;

/** Bodies of Lease writes (who holds a bucket), metadata of everything else; no non-resource URLs. */
const AUDIT_POLICY = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages:
  - RequestReceived
rules:
  - level: None
    nonResourceURLs: ["*"]
  - level: Request
    verbs: ["create", "update"]
    resources:
      - group: coordination.k8s.io
        resources: ["leases"]
  - level: Metadata
    verbs: ["create", "update", "patch", "delete"]
`;

interface Replica {
  readonly name: string;
  readonly child: ChildProcessByStdio<null, Readable, Readable>;
  readonly output: () => string;
}

interface AuditEvent {
  readonly verb: string;
  readonly userAgent?: string;
  readonly objectRef?: { readonly resource?: string; readonly subresource?: string; readonly namespace?: string; readonly name?: string };
  readonly responseStatus?: { readonly code?: number };
  readonly requestObject?: { readonly spec?: { readonly holderIdentity?: string } };
  readonly requestReceivedTimestamp: string;
  readonly stageTimestamp: string;
}

let cluster: LocalCluster;
let runDir: string;
let kubeConfig: KubeConfig;

function startReplica(name: string): Replica {
  const args = [
    `--kubeconfig=${cluster.kubeconfigPath}`,
    `--namespace=${NAMESPACE}`,
    `--leader-election-namespace=${NAMESPACE}`,
    '--sharding',
    `--leader-election-lease-duration=${String(LEASE_DURATION_MS / 1000)}s`,
    `--leader-election-renew-deadline=${String(RENEW_DEADLINE_MS / 1000)}s`,
    '--metrics-bind-address=0',
    '--health-probe-bind-address=0',
    '--webhook-port=0',
    '--graceful-shutdown-timeout=5s',
  ];
  const child = spawn(process.execPath, ['--conditions=@kruise-ts/source', MAIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, KUBECONFIG: '' } });
  let output = '';
  const append = (chunk: Buffer): void => {
    output += chunk.toString();
  };
  child.stdout.on('data', append);
  child.stderr.on('data', append);
  return { name, child, output: () => output };
}

/** The identity a replica joined the ring with, from its log. */
function identityOf(replica: Replica): string | undefined {
  for (const line of replica.output().split('\n')) {
    if (line.includes('Joining the shard ring')) {
      return (JSON.parse(line) as { identity?: string }).identity;
    }
  }
  return undefined;
}

async function identities(replicas: readonly Replica[]): Promise<string[]> {
  return waitFor(() => {
    const ids = replicas.map(identityOf);
    const known = ids.filter((id): id is string => id !== undefined);
    return Promise.resolve(known.length === ids.length ? known : undefined);
  }, { description: 'every replica to join the ring', timeoutMs: 60_000 });
}

async function holders(): Promise<string[]> {
  const client = testClient(kubeConfig);
  const leases = await client.list(leaseResource, { namespace: NAMESPACE });
  return Array.from({ length: SHARD_BUCKETS }, (_, bucket) => leases.items.find((lease) => lease.metadata?.name === bucketLeaseName(RING, bucket))?.spec?.holderIdentity ?? '');
}

/** Waits until every bucket Lease names the owner the ring gives it among `members`; returns when. */
async function converged(members: readonly string[], description: string, replicas: readonly Replica[]): Promise<number> {
  const owners = assignBuckets(members);
  // On a timeout: who holds what, and whether a replica exited (fenced) and why.
  const state = async (): Promise<unknown> => ({
    holders: await holders(),
    replicas: replicas.map((replica) => ({ name: replica.name, exitCode: replica.child.exitCode, signal: replica.child.signalCode, log: replica.output().split('\n').slice(-5) })),
  });
  return waitFor(async () => ((await holders()).every((holder, bucket) => holder === owners[bucket]) ? Date.now() : undefined), { description, timeoutMs: 90_000, state });
}

function cloneSetName(i: number): string {
  return `cs-${String(i).padStart(2, '0')}`;
}

async function setImage(image: string): Promise<void> {
  const client = testClient(kubeConfig);
  await Promise.all(Array.from({ length: CLONESETS }, (_, i) => client.patch(cloneSetResource, { namespace: NAMESPACE, name: cloneSetName(i) }, { type: 'json', body: [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: image }] })));
}

async function allRolledOut(image: string): Promise<void> {
  const client = testClient(kubeConfig);
  await waitFor(
    async () => {
      const list = await client.list(cloneSetResource, { namespace: NAMESPACE });
      const done = list.items.filter((cs: CloneSet) => rolledOut(cs) && cs.status?.observedGeneration === cs.metadata.generation && cs.spec.template.spec?.containers[0]?.image === image);
      return done.length === CLONESETS;
    },
    { description: `all ${String(CLONESETS)} CloneSets rolled out to ${image}`, timeoutMs: 180_000 },
  );
}

/** The CloneSet a pod belongs to: pods are named `<cloneset>-<suffix>`, and CloneSets `cs-NN`. */
function ownerOfPod(pod: string): string {
  return pod.slice(0, 5);
}

/** Who held each bucket when: successful Lease writes, in the order the API server finished them. */
function leaseTimeline(events: readonly AuditEvent[]): Map<number, { at: number; holder: string }[]> {
  const timeline = new Map<number, { at: number; holder: string }[]>();
  for (const event of events) {
    const name = event.objectRef?.name ?? '';
    const code = event.responseStatus?.code ?? 0;
    if (event.objectRef?.resource !== 'leases' || !name.startsWith(`${RING}-bucket-`) || code < 200 || code >= 300) {
      continue;
    }
    const bucket = Number(name.slice(`${RING}-bucket-`.length));
    timeline.set(bucket, [...(timeline.get(bucket) ?? []), { at: Date.parse(event.stageTimestamp), holder: event.requestObject?.spec?.holderIdentity ?? '' }]);
  }
  for (const entries of timeline.values()) {
    entries.sort((a, b) => a.at - b.at);
  }
  return timeline;
}

function holderAt(timeline: ReadonlyMap<number, readonly { at: number; holder: string }[]>, bucket: number, at: number): string {
  let holder = '';
  for (const entry of timeline.get(bucket) ?? []) {
    if (entry.at > at) break;
    holder = entry.holder;
  }
  return holder;
}

/** Writes by a replica to a CloneSet's pods or status made while another replica held its bucket. */
function writesOutsideOwnership(events: readonly AuditEvent[]): string[] {
  const timeline = leaseTimeline(events);
  const problems: string[] = [];
  for (const event of events) {
    const agent = event.userAgent ?? '';
    const shard = agent.indexOf(' shard/');
    const ref = event.objectRef;
    if (shard < 0 || ref?.namespace !== NAMESPACE || (ref.resource !== 'pods' && ref.resource !== 'clonesets')) {
      continue;
    }
    const writer = agent.slice(shard + ' shard/'.length);
    const cloneSet = ref.resource === 'pods' ? ownerOfPod(ref.name ?? '') : (ref.name ?? '');
    const at = Date.parse(event.requestReceivedTimestamp);
    const holder = holderAt(timeline, bucketOf(NAMESPACE, cloneSet), at);
    if (holder !== writer) {
      problems.push(`${event.verb} ${ref.resource}${ref.subresource === undefined ? '' : `/${ref.subresource}`} ${ref.name ?? ''} at ${event.requestReceivedTimestamp} by ${writer}, while the bucket's holder was ${holder === '' ? 'nobody' : holder}`);
    }
  }
  return problems;
}

/** Pods given more than one in-place update (a successful `patch`, no subresource) by the replicas between `from` and `to`. */
function podsUpdatedTwice(events: readonly AuditEvent[], from: number, to: number): string[] {
  const updates = new Map<string, string[]>();
  for (const event of events) {
    const at = Date.parse(event.requestReceivedTimestamp);
    const ref = event.objectRef;
    const code = event.responseStatus?.code ?? 0;
    const agent = event.userAgent ?? '';
    if (event.verb === 'patch' && ref?.resource === 'pods' && ref.subresource === undefined && agent.includes(' shard/') && code >= 200 && code < 300 && at >= from && at <= to) {
      updates.set(ref.name ?? '', [...(updates.get(ref.name ?? '') ?? []), `${agent.split(' shard/')[1] ?? ''} at ${event.requestReceivedTimestamp}`]);
    }
  }
  return [...updates].filter(([, list]) => list.length > 1).map(([pod, list]) => `${pod}: ${list.join(', ')}`);
}

async function auditEvents(): Promise<AuditEvent[]> {
  const text = await readFile(cluster.auditLogPath, 'utf8');
  return text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as AuditEvent);
}

async function exited(replica: Replica): Promise<void> {
  if (replica.child.exitCode === null && replica.child.signalCode === null) {
    await new Promise((resolve) => replica.child.once('exit', resolve));
  }
}

describe('sharded CloneSet replicas', () => {
  beforeAll(async () => {
    runDir = await mkdtemp(path.join(os.tmpdir(), 'kruise-ts-sharding-'));
    cluster = await startLocalCluster({ name: 'sharding-audit', runDir, auditPolicy: AUDIT_POLICY, handleSignals: false });
    kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(cluster.kubeconfigPath);
    await installCloneSetCrd(kubeConfig);
    await testClient(kubeConfig).create(defineResource({ group: '', version: 'v1', plural: 'namespaces', kind: 'Namespace', namespaced: false }), { metadata: { name: NAMESPACE } });
  });

  afterAll(async () => {
    await cluster.stop();
    await rm(runDir, { recursive: true, force: true });
  });

  it('share 30 CloneSets: in-place rollouts complete through a SIGKILL and a join, within maxUnavailable, each CloneSet written only by its bucket\'s holder', async () => {
    const client = testClient(kubeConfig);
    const replicas = [startReplica('a'), startReplica('b'), startReplica('c')];
    const unready = new Map<string, number>();
    let observer: { stop(): void } | undefined;
    try {
      const [a, b, c] = await identities(replicas);
      if (a === undefined || b === undefined || c === undefined) throw new Error('three identities expected');
      await converged([a, b, c], 'the buckets split among three replicas', replicas);
      for (let i = 0; i < CLONESETS; i++) {
        await createCloneSet(client, NAMESPACE, {
          metadata: { name: cloneSetName(i) },
          spec: {
            replicas: 2,
            // Each rollout (two pods, one at a time) lasts seconds: long enough for a handover inside it.
            minReadySeconds: 2,
            selector: { matchLabels: { app: cloneSetName(i) } },
            template: { metadata: { labels: { app: cloneSetName(i) } }, spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] } },
            updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: 1 },
          },
        });
      }
      await allRolledOut('nginx:1.25');

      // Every pod event from here on: the most unready pods each CloneSet had at once.
      observer = observePods(kubeConfig, { namespace: NAMESPACE, labelSelector: '' }, (pods: readonly DeepReadonly<Pod>[]) => {
        const now = new Map<string, number>();
        for (const pod of pods) {
          if (conditionOf(pod, 'Ready')?.status !== 'True') {
            now.set(ownerOfPod(nameOf(pod)), (now.get(ownerOfPod(nameOf(pod))) ?? 0) + 1);
          }
        }
        for (const [cloneSet, count] of now) {
          unready.set(cloneSet, Math.max(unready.get(cloneSet) ?? 0, count));
        }
      });

      // A rollout with a replica killed in the middle of it.
      const firstFrom = Date.now();
      await setImage('nginx:1.26');
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const killedAt = Date.now();
      replicas[2]?.child.kill('SIGKILL');
      const takenOver = await converged([a, b], 'c\'s buckets taken over by a and b', replicas);
      expect(takenOver - killedAt).toBeLessThan(LEASE_DURATION_MS + SLACK_MS);
      await allRolledOut('nginx:1.26');
      const firstTo = Date.now();

      // A fourth replica joins in the middle of a rollout and takes its share over from live replicas,
      // which let go of a bucket only once their reconciles of it ended. The rollout starts once d is
      // about to join (it has read the ring's Leases), so that the handover falls inside it.
      const d = startReplica('d');
      replicas.push(d);
      const [dIdentity] = await identities([d]);
      const secondFrom = Date.now();
      await setImage('nginx:1.27');
      await converged([a, b, dIdentity ?? ''], 'd to take its share', replicas);
      await allRolledOut('nginx:1.27');
      const secondTo = Date.now();

      const pods = await client.list(podResource, { namespace: NAMESPACE });
      expect(pods.items.map(imageOf).filter((image) => image !== 'nginx:1.27')).toEqual([]);
      expect(pods.items).toHaveLength(2 * CLONESETS);
      expect([...unready].filter(([, count]) => count > 1)).toEqual([]);
      expect(unready.size).toBeGreaterThan(0);

      const events = await auditEvents();
      expect(podsUpdatedTwice(events, firstFrom, firstTo)).toEqual([]);
      expect(podsUpdatedTwice(events, secondFrom, secondTo)).toEqual([]);
      const replicaWrites = events.filter((event) => (event.userAgent ?? '').includes(' shard/') && event.objectRef?.resource === 'pods');
      expect(replicaWrites.length).toBeGreaterThan(4 * CLONESETS);
      // The writers include the killed replica and the newcomer: the proof covers both handovers.
      const writers = new Set(replicaWrites.map((event) => (event.userAgent ?? '').split(' shard/')[1]));
      expect([...writers].sort()).toEqual([a, b, c, dIdentity].sort());
      expect(writesOutsideOwnership(events)).toEqual([]);
    } finally {
      observer?.stop();
      for (const replica of replicas) {
        replica.child.kill('SIGKILL');
      }
      await Promise.all(replicas.map(exited));
    }
  });
});
