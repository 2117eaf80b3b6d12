/**
 * The ring's timing from the manager flags (docs/sharding.md, "Fencing"): the leader-election Lease
 * flags time the ring too, and a combination that cannot keep a bucket's owner unique is refused at
 * start-up, naming the flags, instead of failing later as two replicas acting on one workload.
 */
import { renewPeriodFor, shardTimingProblems } from '../sharding/shard-timing.ts';
import type { ShardTiming } from '../sharding/shard-timing.ts';

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

/**
 * Rules between flags that one flag's schema cannot state, for a command line that has the manager's
 * flags (`--sharding` with the Lease timing); each problem names its flags.
 */
export function crossFlagProblems(flags: Readonly<Record<string, unknown>>): string[] {
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
