/**
 * A sharded replica's metrics (docs/sharding.md, "Metrics"): how many members it sees, the buckets it
 * holds by state, the handovers it made, and what its sharded caches hold. Ours, named kruise_ts_shard_*.
 */
import { Counter, Gauge } from 'prom-client';
import type { Registry } from 'prom-client';

import type { BucketGate } from './bucket-gate.ts';
import type { ShardObserver } from './shard-coordinator.ts';

/** Registers the metrics of one ring on `registry`; returns the coordinator's observer. */
export function registerShardMetrics(
  registry: Registry,
  input: { ring: string; gate: BucketGate; unlabelled?: () => number },
): ShardObserver {
  const { ring, gate, unlabelled } = input;
  new Gauge({
    name: 'kruise_ts_shard_unlabelled_objects',
    help: 'Objects made before sharding that still wait for their bucket label (their owners are not reconciled until they have it).',
    labelNames: ['ring'],
    registers: [registry],
    collect() {
      this.set({ ring }, unlabelled?.() ?? 0);
    },
  });
  const members = new Gauge({
    name: 'kruise_ts_shard_members',
    help: 'Live members of the shard ring, as this replica sees them.',
    labelNames: ['ring'],
    registers: [registry],
  });
  const handovers = new Counter({
    name: 'kruise_ts_shard_handovers_total',
    help: 'Buckets this replica took (acquired: free; taken_over: from a member that stopped renewing), released, or lost to another holder.',
    labelNames: ['ring', 'kind'],
    registers: [registry],
  });
  new Gauge({
    name: 'kruise_ts_shard_buckets',
    help: 'Buckets this replica holds, by state: acquiring (filling its caches), active, draining (letting go).',
    labelNames: ['ring', 'state'],
    registers: [registry],
    collect() {
      const counts = { acquiring: 0, active: 0, draining: 0 };
      for (const state of gate.states().values()) {
        counts[state]++;
      }
      for (const [state, count] of Object.entries(counts)) {
        this.set({ ring, state }, count);
      }
    },
  });
  new Gauge({
    name: 'kruise_ts_shard_cached_objects',
    help: "Objects in this replica's sharded caches (those that select on the bucket label).",
    labelNames: ['ring', 'informer'],
    registers: [registry],
    collect() {
      for (const informer of gate.shardedInformers()) {
        this.set({ ring, informer: informer.description }, informer.cachedCount());
      }
    },
  });
  return {
    members: (count) => {
      members.set({ ring }, count);
    },
    handover: (kind) => {
      handovers.inc({ ring, kind });
    },
  };
}
