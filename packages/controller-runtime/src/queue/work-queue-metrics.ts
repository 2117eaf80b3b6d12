/** The gauges of one work queue, read when metrics are scraped rather than updated on every change. */
export interface WorkQueueState {
  /** Items waiting to be processed, including those re-added while being processed (`workqueue_depth`). */
  readonly depth: number;
  /** Sum of the running times of all items being processed (`workqueue_unfinished_work_seconds`). */
  readonly unfinishedWorkSeconds: number;
  /** Running time of the oldest item being processed (`workqueue_longest_running_processor_seconds`). */
  readonly longestRunningProcessorSeconds: number;
}

/**
 * What a work queue reports to its metrics, as client-go's `MetricsProvider` for one queue name.
 * Defined here rather than next to prom-client so that the queue does not depend on a metrics
 * library; `RuntimeMetrics.workQueueMetrics(name)` is the Prometheus implementation.
 */
export interface WorkQueueMetrics {
  /** An item was added that was not already waiting (`workqueue_adds_total`). */
  added(): void;
  /** A worker took an item that had waited `seconds` since it was added (`workqueue_queue_duration_seconds`). */
  waited(seconds: number): void;
  /** A worker finished an item it had held for `seconds` (`workqueue_work_duration_seconds`). */
  processed(seconds: number): void;
  /**
   * A rate-limited retry (`workqueue_retries_total`). Not an `addAfter`: as in client-go, a requested delay
   * (a reconcile's requeueAfter, a batched enqueue) is not a retry.
   */
  retried(): void;
  /** Registers the function that reports the queue's gauges at scrape time; the latest queue wins. */
  bindState(read: () => WorkQueueState): void;
}
