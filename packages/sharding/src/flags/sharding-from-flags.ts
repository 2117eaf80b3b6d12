import { leaderElectionNamespace } from '@kruise-ts/controller-runtime';
import type { ManagerFlags } from '@kruise-ts/controller-runtime';

import { ManagerShards } from '../manager-shards.ts';
import type { ShardingFlags } from './sharding-flags.ts';
import { shardTimingFromFlags } from './sharding-flags.ts';

/**
 * The sharding of a process given `--sharding`, else undefined: its ring is named and placed like its
 * leader Lease, with the same duration and deadline. The manager's options take it as `sharding`.
 */
export function shardingFromFlags(
  flags: ShardingFlags & ManagerFlags,
  process: { readonly defaultLeaseName: string },
): ManagerShards | undefined {
  if (!flags.sharding) {
    return undefined;
  }
  return new ManagerShards({
    ring: flags['leader-election-id'] ?? process.defaultLeaseName,
    namespace: leaderElectionNamespace(flags),
    timing: shardTimingFromFlags(flags),
    labelQps: flags['shard-label-qps'],
  });
}
