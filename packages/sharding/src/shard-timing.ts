/**
 * The timing of a shard ring (docs/sharding.md, "Fencing"), and the rule that makes two owners of one
 * bucket impossible: a member stops all work `renewDeadline` after it sent its last renewal that
 * succeeded, and another member takes its buckets only once that renewal has stood still for
 * `leaseDuration` on its own clock, confirmed by a read from the API server. The gap between the two,
 * the fence margin, must cover a write sent just before the fence reaching etcd, and the event loop's
 * lateness in firing the fence; combinations that leave too little are refused at start-up.
 */

export interface ShardTiming {
  readonly leaseDurationMs: number;
  /** A member that has not renewed for this long since sending its last successful renewal stops all work. */
  readonly renewDeadlineMs: number;
  readonly renewPeriodMs: number;
}

export const DEFAULT_SHARD_TIMING: ShardTiming = {
  leaseDurationMs: 15_000,
  renewDeadlineMs: 10_000,
  renewPeriodMs: 5_000,
};

/** The least fence margin (`leaseDuration - renewDeadline`) accepted: a write in flight and a late timer must fit in it. */
export const MIN_FENCE_MARGIN_MS = 2000;

/** How often a member renews: three times per Lease duration, and at least twice within the renew deadline. */
export function renewPeriodFor(leaseDurationMs: number, renewDeadlineMs: number): number {
  return Math.max(1, Math.floor(Math.min(leaseDurationMs / 3, renewDeadlineMs / 2)));
}

/** The names the timing came from, for messages (flags, or option names). */
export interface ShardTimingNames {
  readonly leaseDuration: string;
  readonly renewDeadline: string;
  readonly renewPeriod: string;
}

const OPTION_NAMES: ShardTimingNames = {
  leaseDuration: 'leaseDurationMs',
  renewDeadline: 'renewDeadlineMs',
  renewPeriod: 'renewPeriodMs',
};

function seconds(ms: number): string {
  return `${String(ms / 1000)}s`;
}

/** What makes a timing unable to keep a bucket's owner unique, each naming the settings at fault; empty when it can. */
export function shardTimingProblems(timing: ShardTiming, names: ShardTimingNames = OPTION_NAMES): string[] {
  const problems: string[] = [];
  const margin = timing.leaseDurationMs - timing.renewDeadlineMs;
  if (margin < MIN_FENCE_MARGIN_MS) {
    problems.push(
      `${names.renewDeadline} (${seconds(timing.renewDeadlineMs)}) must be at least ${seconds(MIN_FENCE_MARGIN_MS)} below ${names.leaseDuration} (${seconds(timing.leaseDurationMs)}): a sharded replica stops working at its renew deadline, and others may take its buckets at the Lease duration; the gap must hold a write in flight`,
    );
  }
  if (!(timing.renewDeadlineMs >= 1000)) {
    problems.push(`${names.renewDeadline} (${seconds(timing.renewDeadlineMs)}) must be at least 1s`);
  } else if (!(timing.renewPeriodMs > 0) || timing.renewPeriodMs * 2 > timing.renewDeadlineMs) {
    problems.push(
      `${names.renewPeriod} (${seconds(timing.renewPeriodMs)}) must be positive and at most half of ${names.renewDeadline} (${seconds(timing.renewDeadlineMs)}), so that one failed renewal is retried before the deadline`,
    );
  }
  return problems;
}
