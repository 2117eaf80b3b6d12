/**
 * Kubernetes' slowStartBatch: bounded, fail-fast bursts of API writes, so that a workload whose
 * creations all fail (quota, webhook, invalid template) sends one request instead of hundreds.
 */

/** Options of {@link slowStartBatch}. */
export interface SlowStartBatchOptions {
  /** Number of calls to make. */
  readonly count: number;
  /** Size of the first batch (OpenKruise and Kubernetes use 1); values below 1 count as 1. */
  readonly initialBatchSize: number;
  /**
   * Largest batch (the doubling stops there); unbounded when absent. A scale-out of thousands would
   * otherwise put thousands of requests in flight at once, queueing every client of the API server
   * (the ReplicaSet controller caps a sync at 500 for the same reason).
   */
  readonly maxBatchSize?: number;
  /** One call; `index` runs from 0 to count − 1 in batch order. A rejection counts as a failure. */
  readonly run: (index: number) => Promise<void>;
}

/** What {@link slowStartBatch} did. */
export interface SlowStartBatchResult {
  /** Calls that resolved. */
  readonly succeeded: number;
  /** Rejections of the failing batch (empty when every call succeeded). */
  readonly errors: readonly unknown[];
  /** Calls never made because an earlier batch failed. */
  readonly skipped: number;
  /** Size of the largest batch in which every call resolved (0 when none did). */
  readonly largestBatch: number;
}

/**
 * Runs `count` calls in batches of 1, 2, 4, 8, … (doubling from `initialBatchSize`), each batch
 * concurrently; after a batch with any failure the remaining calls are skipped. Example: count 10
 * ⇒ batches of 1, 2, 4, 3; if a call of the batch of 4 fails, the last 3 are skipped
 * (succeeded ≤ 6, skipped 3).
 */
export async function slowStartBatch(options: SlowStartBatchOptions): Promise<SlowStartBatchResult> {
  const count = Math.max(0, Math.floor(options.count));
  let start = 0;
  let succeeded = 0;
  let largestBatch = 0;
  let size = Math.min(count, Math.max(1, Math.floor(options.initialBatchSize)));
  while (size > 0) {
    const indexes = Array.from({ length: size }, (_, offset) => start + offset);
    // Promise.resolve().then so that a synchronous throw of `run` is a failure of its call too.
    const results = await Promise.allSettled(indexes.map((index) => Promise.resolve().then(() => options.run(index))));
    const errors = results.flatMap((result) => (result.status === 'rejected' ? [result.reason as unknown] : []));
    succeeded += size - errors.length;
    start += size;
    if (errors.length > 0) {
      return { succeeded, errors, skipped: count - start, largestBatch };
    }
    largestBatch = Math.max(largestBatch, size);
    size = Math.min(2 * size, options.maxBatchSize ?? Number.POSITIVE_INFINITY, count - start);
  }
  return { succeeded, errors: [], skipped: 0, largestBatch };
}
