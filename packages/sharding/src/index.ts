/**
 * @kruise-ts/sharding: replicas of an app share its sharded controllers' work through a ring of
 * Leases (docs/sharding.md), plugged into the runtime's manager as its `sharding`.
 *
 * STOP: this file is the public API of @kruise-ts/sharding. Everything else is internal.
 */

// Buckets: what every controller labels its objects with, sharded or not
export {
  bucketLabels,
  bucketLabelValue,
  bucketOf,
  bucketOfKey,
  SHARD_BUCKET_LABEL,
  SHARD_BUCKETS,
  SHARD_RING_LABEL,
  withBucketLabel,
} from './bucket.ts';
export { BucketGate } from './bucket-gate.ts';
export type { LabelledKind } from './bucket-labeller.ts';
export { assignBuckets } from './ring.ts';
export { bucketLeaseName } from './shard-leases.ts';

// The manager's sharding
export { ManagerShards } from './manager-shards.ts';
export type { ShardingOptions } from './manager-shards.ts';
export { labelForSharding, managerShardsOf, shardGateOf } from './sharded-manager.ts';
export type { ShardTiming } from './shard-timing.ts';

// Flags
export { shardingFlagsShape, shardTimingFromFlags } from './flags/sharding-flags.ts';
export type { ShardingFlags } from './flags/sharding-flags.ts';
export { shardingFromFlags } from './flags/sharding-from-flags.ts';
