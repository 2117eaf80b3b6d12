/**
 * The figures of a create loop: exact nearest-rank percentiles of the client-side times (every
 * sample is kept, a thousand numbers), and, for the webhook histograms of kube-apiserver and of our
 * process, the bucket a quantile falls into: PromQL interpolates inside a bucket, which at
 * kube-apiserver's coarse bounds (5, 25, 100, 500 ms, …) can print a p99 that no request had, while
 * "p99 ≤ the bucket's bound" is what the histogram actually knows.
 */
import { nearestRank } from '../collect/index.ts';
import type { HistogramBucket } from '../collect/index.ts';

/** Milliseconds of a loop's samples; all 0 when there were none. */
export interface MillisecondStats {
  readonly count: number;
  readonly p50Ms: number;
  readonly p90Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly meanMs: number;
}

/** Three decimals: a microsecond is below what a JavaScript timer around an HTTP call resolves. */
function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/** Nearest-rank p50, p90 and p99, the maximum and the mean of `samples` (milliseconds, any order). */
export function millisecondStats(samples: readonly number[]): MillisecondStats {
  const sorted = Float64Array.from(samples).sort();
  const total = sorted.reduce((sum, value) => sum + value, 0);
  return {
    count: sorted.length,
    p50Ms: round(nearestRank(sorted, 0.5)),
    p90Ms: round(nearestRank(sorted, 0.9)),
    p99Ms: round(nearestRank(sorted, 0.99)),
    maxMs: round(sorted.at(-1) ?? 0),
    meanMs: round(sorted.length === 0 ? 0 : total / sorted.length),
  };
}

/**
 * The upper bound of the cumulative bucket that holds the `q` quantile's observation (nearest rank:
 * the first bucket with at least ⌈q·total⌉ observations), so the quantile is at most that bound;
 * `Infinity` when only the `+Inf` bucket holds it, undefined with no observations.
 */
export function quantileBucketBound(q: number, buckets: readonly HistogramBucket[]): number | undefined {
  const sorted = [...buckets].sort((a, b) => a.le - b.le);
  const total = sorted.at(-1)?.count ?? 0;
  if (total <= 0) {
    return undefined;
  }
  const rank = Math.min(total, Math.max(1, Math.ceil(q * total)));
  return sorted.find((bucket) => bucket.count >= rank)?.le;
}

/** `after − before` of every statistic, for the table's row of what the webhook adds. */
export function statsDifference(after: MillisecondStats, before: MillisecondStats): Omit<MillisecondStats, 'count'> {
  return {
    p50Ms: round(after.p50Ms - before.p50Ms),
    p90Ms: round(after.p90Ms - before.p90Ms),
    p99Ms: round(after.p99Ms - before.p99Ms),
    maxMs: round(after.maxMs - before.maxMs),
    meanMs: round(after.meanMs - before.meanMs),
  };
}
