/**
 * Sharded CloneSet replicas as processes on a control plane whose API server writes an audit log,
 * and what the sharding tests read back: who joined, who holds each bucket, and the audit log's
 * proof that every write to a CloneSet's pods or status came from its bucket's holder at that moment.
 */
import { spawn } from 'node:child_process';
import type { ChildProcessByStdio } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

import type { KubeConfig } from '@kubernetes/client-node';

import { leaseResource } from '@kruise-ts/controller-runtime';
import { assignBuckets, bucketLeaseName, bucketOf, SHARD_BUCKETS } from '@kruise-ts/sharding';
import type { LocalCluster } from '@kruise-ts/local-cluster';
import { waitFor } from '@kruise-ts/local-cluster/testing';

import { testClient } from './harness.ts';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));

/** Bodies of Lease writes (who holds a bucket), metadata of everything else; no non-resource URLs. */
export const SHARDING_AUDIT_POLICY = `apiVersion: audit.k8s.io/v1
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

/** Where a ring's replicas run: the cluster, the namespace of their CloneSets and Leases, the ring's name, its timing. */
export interface ShardBed {
  readonly cluster: LocalCluster;
  readonly kubeConfig: KubeConfig;
  readonly namespace: string;
  readonly ring: string;
  readonly leaseDurationMs: number;
  readonly renewDeadlineMs: number;
}

export interface Replica {
  readonly name: string;
  readonly child: ChildProcessByStdio<null, Readable, Readable>;
  readonly output: () => string;
}

export interface AuditEvent {
  readonly verb: string;
  readonly userAgent?: string;
  readonly objectRef?: {
    readonly resource?: string;
    readonly subresource?: string;
    readonly namespace?: string;
    readonly name?: string;
  };
  readonly responseStatus?: { readonly code?: number };
  readonly requestObject?: { readonly spec?: { readonly holderIdentity?: string } };
  readonly requestReceivedTimestamp: string;
  readonly stageTimestamp: string;
}

/** Starts one replica of the ring; `kubeconfigPath` sends it through another way to the API server (a proxy). */
export function startReplica(bed: ShardBed, name: string, kubeconfigPath = bed.cluster.kubeconfigPath): Replica {
  const args = [
    `--kubeconfig=${kubeconfigPath}`,
    `--namespace=${bed.namespace}`,
    `--leader-election-namespace=${bed.namespace}`,
    `--leader-election-id=${bed.ring}`,
    '--sharding',
    `--leader-election-lease-duration=${String(bed.leaseDurationMs / 1000)}s`,
    `--leader-election-renew-deadline=${String(bed.renewDeadlineMs / 1000)}s`,
    '--metrics-bind-address=0',
    '--health-probe-bind-address=0',
    '--webhook-port=0',
    '--graceful-shutdown-timeout=5s',
  ];
  const child = spawn(process.execPath, ['--conditions=@kruise-ts/source', MAIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, KUBECONFIG: '' },
  });
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

export async function identities(replicas: readonly Replica[]): Promise<string[]> {
  return waitFor(
    () => {
      const ids = replicas.map(identityOf);
      const known = ids.filter((id): id is string => id !== undefined);
      return Promise.resolve(known.length === ids.length ? known : undefined);
    },
    { description: 'every replica to join the ring', timeoutMs: 60_000 },
  );
}

/** Each bucket's holder as the API server has it ('' for none). */
export async function holders(bed: ShardBed): Promise<string[]> {
  const leases = await testClient(bed.kubeConfig).list(leaseResource, { namespace: bed.namespace });
  return Array.from(
    { length: SHARD_BUCKETS },
    (_, bucket) =>
      leases.items.find((lease) => lease.metadata?.name === bucketLeaseName(bed.ring, bucket))?.spec?.holderIdentity ??
      '',
  );
}

/** Waits until every bucket Lease names the owner the ring gives it among `members`; returns when. */
export async function converged(
  bed: ShardBed,
  input: { readonly members: readonly string[]; readonly description: string; readonly replicas: readonly Replica[] },
): Promise<number> {
  const owners = assignBuckets(input.members);
  // On a timeout: who holds what, and whether a replica exited (fenced) and why.
  const state = async (): Promise<unknown> => ({
    holders: await holders(bed),
    replicas: input.replicas.map((replica) => ({
      name: replica.name,
      exitCode: replica.child.exitCode,
      signal: replica.child.signalCode,
      log: replica.output().split('\n').slice(-5),
    })),
  });
  return waitFor(
    async () => ((await holders(bed)).every((holder, bucket) => holder === owners[bucket]) ? Date.now() : undefined),
    { description: input.description, timeoutMs: 90_000, state },
  );
}

/** The CloneSet a pod belongs to: pods are named `<cloneset>-<suffix>`, and CloneSets with five characters (`cs-NN`). */
export function ownerOfPod(pod: string): string {
  return pod.slice(0, 5);
}

/** Who held each bucket of the ring when: successful Lease writes, in the order the API server finished them. */
export function leaseTimeline(
  bed: ShardBed,
  events: readonly AuditEvent[],
): Map<number, { at: number; holder: string }[]> {
  const prefix = `${bed.ring}-bucket-`;
  const timeline = new Map<number, { at: number; holder: string }[]>();
  for (const event of events) {
    const name = event.objectRef?.name ?? '';
    const code = event.responseStatus?.code ?? 0;
    if (
      event.objectRef?.resource !== 'leases' ||
      event.objectRef.namespace !== bed.namespace ||
      !name.startsWith(prefix) ||
      code < 200 ||
      code >= 300
    ) {
      continue;
    }
    const bucket = Number(name.slice(prefix.length));
    timeline.set(bucket, [
      ...(timeline.get(bucket) ?? []),
      { at: Date.parse(event.stageTimestamp), holder: event.requestObject?.spec?.holderIdentity ?? '' },
    ]);
  }
  for (const entries of timeline.values()) {
    entries.sort((a, b) => a.at - b.at);
  }
  return timeline;
}

function holderAt(
  timeline: ReadonlyMap<number, readonly { at: number; holder: string }[]>,
  bucket: number,
  at: number,
): string {
  let holder = '';
  for (const entry of timeline.get(bucket) ?? []) {
    if (entry.at > at) {
      break;
    }
    holder = entry.holder;
  }
  return holder;
}

/** Writes by a replica to a CloneSet's pods or status made while another replica held its bucket. */
export function writesOutsideOwnership(bed: ShardBed, events: readonly AuditEvent[]): string[] {
  const timeline = leaseTimeline(bed, events);
  const problems: string[] = [];
  for (const event of events) {
    const agent = event.userAgent ?? '';
    const shard = agent.indexOf(' shard/');
    const ref = event.objectRef;
    if (shard < 0 || ref?.namespace !== bed.namespace || (ref.resource !== 'pods' && ref.resource !== 'clonesets')) {
      continue;
    }
    const writer = agent.slice(shard + ' shard/'.length);
    const cloneSet = ref.resource === 'pods' ? ownerOfPod(ref.name ?? '') : (ref.name ?? '');
    const at = Date.parse(event.requestReceivedTimestamp);
    const holder = holderAt(timeline, bucketOf(bed.namespace, cloneSet), at);
    if (holder !== writer) {
      problems.push(
        `${event.verb} ${ref.resource}${ref.subresource === undefined ? '' : `/${ref.subresource}`} ${ref.name ?? ''} at ${event.requestReceivedTimestamp} by ${writer}, while the bucket's holder was ${holder === '' ? 'nobody' : holder}`,
      );
    }
  }
  return problems;
}

/** Pods of the namespace given more than one in-place update (a successful `patch`, no subresource) by the replicas between `from` and `to`. */
export function podsUpdatedTwice(
  bed: ShardBed,
  events: readonly AuditEvent[],
  window: { readonly from: number; readonly to: number },
): string[] {
  const updates = new Map<string, string[]>();
  for (const event of events) {
    const at = Date.parse(event.requestReceivedTimestamp);
    const ref = event.objectRef;
    const code = event.responseStatus?.code ?? 0;
    const agent = event.userAgent ?? '';
    if (
      event.verb === 'patch' &&
      ref?.resource === 'pods' &&
      ref.namespace === bed.namespace &&
      ref.subresource === undefined &&
      agent.includes(' shard/') &&
      code >= 200 &&
      code < 300 &&
      at >= window.from &&
      at <= window.to
    ) {
      updates.set(ref.name ?? '', [
        ...(updates.get(ref.name ?? '') ?? []),
        `${agent.split(' shard/')[1] ?? ''} at ${event.requestReceivedTimestamp}`,
      ]);
    }
  }
  return [...updates].filter(([, list]) => list.length > 1).map(([pod, list]) => `${pod}: ${list.join(', ')}`);
}

export async function auditEvents(bed: ShardBed): Promise<AuditEvent[]> {
  const text = await readFile(bed.cluster.auditLogPath, 'utf8');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as AuditEvent);
}

export async function exited(replica: Replica): Promise<void> {
  if (replica.child.exitCode === null && replica.child.signalCode === null) {
    await new Promise((resolve) => replica.child.once('exit', resolve));
  }
}
