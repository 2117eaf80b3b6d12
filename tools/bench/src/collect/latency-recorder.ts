/**
 * Request durations collected for exact percentiles: an audit log of a 10,000-pod run holds about a
 * million requests, so they live in a growable Float64Array (8 bytes each) rather than an array of
 * boxed numbers.
 */
import type { LatencySummary } from '../result.ts';

/** Collects durations (seconds) and summarizes them. */
export interface LatencyRecorder {
  readonly record: (seconds: number) => void;
  readonly count: () => number;
  /** Nearest-rank p50 and p99, and the maximum; all 0 when nothing was recorded. */
  readonly summary: () => LatencySummary;
}

const INITIAL_CAPACITY = 1024;

/** An empty recorder. */
export function createLatencyRecorder(): LatencyRecorder {
  let values = new Float64Array(INITIAL_CAPACITY);
  let size = 0;
  return {
    record: (seconds) => {
      if (size === values.length) {
        const grown = new Float64Array(values.length * 2);
        grown.set(values);
        values = grown;
      }
      values[size] = seconds;
      size += 1;
    },
    count: () => size,
    // Sorting in place keeps the memory flat; the order of recorded values does not matter.
    summary: () => summarize(values.subarray(0, size).sort()),
  };
}

function summarize(sorted: Float64Array): LatencySummary {
  return {
    count: sorted.length,
    p50Seconds: nearestRank(sorted, 0.5),
    p99Seconds: nearestRank(sorted, 0.99),
    maxSeconds: sorted.at(-1) ?? 0,
  };
}

/**
 * The nearest-rank percentile of sorted values: the smallest value with at least a fraction `q` of
 * the values at or below it (p50 of 1, 2, 3, 4 is 2; p99 of 1..100 is 99); 0 when there is none.
 */
export function nearestRank(sorted: ArrayLike<number>, q: number): number {
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)));
  return sorted[rank - 1] ?? 0;
}
