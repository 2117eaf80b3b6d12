/**
 * The sharding flags (docs/sharding.md), which an app's schema adds to the manager's, and the ring's
 * timing from the manager's Lease flags ("Fencing"): the leader-election Lease flags time the ring too,
 * and a combination that cannot keep a bucket's owner unique is refused at start-up, naming the
 * flags, instead of failing later as two replicas acting on one workload.
 */
import type { z } from 'zod';

import { booleanFlag, countFlag, withCrossFlagRule } from '@kruise-ts/controller-runtime';

import { renewPeriodFor, shardTimingProblems } from '../shard-timing.ts';
import type { ShardTiming } from '../shard-timing.ts';

const LEASE_DURATION = 'leader-election-lease-duration';
const RENEW_DEADLINE = 'leader-election-renew-deadline';

/** The ring's timing of a process with these flags. */
export function shardTimingFromFlags(flags: {
  readonly [LEASE_DURATION]: number;
  readonly [RENEW_DEADLINE]: number;
}): ShardTiming {
  const leaseDurationMs = flags[LEASE_DURATION];
  const renewDeadlineMs = flags[RENEW_DEADLINE];
  return { leaseDurationMs, renewDeadlineMs, renewPeriodMs: renewPeriodFor(leaseDurationMs, renewDeadlineMs) };
}

/** `--sharding` with the manager's Lease timing; each problem names its flags. */
function shardingFlagProblems(flags: Readonly<Record<string, unknown>>): string[] {
  const leaseDurationMs = flags[LEASE_DURATION];
  const renewDeadlineMs = flags[RENEW_DEADLINE];
  if (flags['sharding'] !== true || typeof leaseDurationMs !== 'number' || typeof renewDeadlineMs !== 'number') {
    return [];
  }
  return shardTimingProblems(
    shardTimingFromFlags({ [LEASE_DURATION]: leaseDurationMs, [RENEW_DEADLINE]: renewDeadlineMs }),
    {
      leaseDuration: `--${LEASE_DURATION}`,
      renewDeadline: `--${RENEW_DEADLINE}`,
      renewPeriod: `the member renew period (a third of --${LEASE_DURATION}, at most half of --${RENEW_DEADLINE})`,
    },
  ).map((problem) => `--sharding: ${problem}`);
}

/**
 * Replicas share the sharded controllers' work through the ring's Leases instead of one leader doing
 * all of it; the manager's Lease flags name the ring and time it. Add to `managerFlagsSchema`.
 */
export const shardingFlagsShape = {
  sharding: withCrossFlagRule(booleanFlag().default(false), shardingFlagProblems),
  'shard-label-qps': countFlag('a number').default(20),
};

/** Parsed sharding flags. */
export type ShardingFlags = z.output<z.ZodObject<typeof shardingFlagsShape>>;
