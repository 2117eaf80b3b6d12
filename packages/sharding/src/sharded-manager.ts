/**
 * What an app asks of its manager's sharding (docs/sharding.md), answered when the manager shares its
 * work through a ManagerShards and ignored otherwise, so that an app's setup reads the same either way.
 */
import type { KubeObject, Manager } from '@kruise-ts/controller-runtime';

import type { BucketGate } from './bucket-gate.ts';
import type { LabelledKind } from './bucket-labeller.ts';
import { ManagerShards } from './manager-shards.ts';

/** The manager's sharding, when it is this package's. */
export function managerShardsOf(manager: Pick<Manager, 'sharding'>): ManagerShards | undefined {
  const { sharding } = manager;
  return sharding instanceof ManagerShards ? sharding : undefined;
}

/**
 * In a sharded manager, labels the objects of a kind made before sharding with their owner's
 * bucket, and holds back their owners' reconciles until they are; nothing otherwise.
 */
export function labelForSharding<T extends KubeObject>(
  manager: Pick<Manager, 'sharding'>,
  kind: LabelledKind<T>,
): void {
  managerShardsOf(manager)?.labelKind(kind);
}

/** The buckets this replica holds, when the manager is sharded. */
export function shardGateOf(manager: Pick<Manager, 'sharding'>): BucketGate | undefined {
  return managerShardsOf(manager)?.gate;
}
