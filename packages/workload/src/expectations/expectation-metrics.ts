/**
 * What an expectation store reports to its metrics, defined here rather than next to prom-client so
 * that the stores do not depend on a metrics library (as the work queue's `WorkQueueMetrics`).
 * `expectationCollectorsOf(registry).forStore(controller, kind)` is the Prometheus implementation.
 */

/** The keys that wait on an expectation right now: what the gauges show at scrape time. */
export interface ExpectationBacklog {
  /** Keys (owners for scale expectations, objects for resourceVersion ones) with something unobserved. */
  readonly waiting: number;
  /** How long the key that waits longest has waited since its expectation was raised, in ms (0 when none waits). */
  readonly oldestWaitingMs: number;
}

/** The reporting side of one controller's expectation store of one kind. */
export interface ExpectationMetrics {
  /** A key's expectations were all observed, or dropped on timeout, `seconds` after they were raised. */
  settled(seconds: number): void;
  /** Registers the function that reports the backlog at scrape time; the latest store wins. */
  bindBacklog(read: () => ExpectationBacklog): void;
}

/** The backlog of a store with nothing pending. */
export const NO_BACKLOG: ExpectationBacklog = { waiting: 0, oldestWaitingMs: 0 };

/** The backlog of entries that each remember when they were raised (`since`, in the store's clock). */
export function backlogOf(entries: Iterable<{ readonly since: number }>, now: number): ExpectationBacklog {
  let waiting = 0;
  let oldest = now;
  for (const entry of entries) {
    waiting++;
    oldest = Math.min(oldest, entry.since);
  }
  return waiting === 0 ? NO_BACKLOG : { waiting, oldestWaitingMs: Math.max(0, now - oldest) };
}
