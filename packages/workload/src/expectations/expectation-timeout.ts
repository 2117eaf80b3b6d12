import type { Clock } from '@kruise-ts/controller-runtime';

import type { ExpectationMetrics } from './expectation-metrics.ts';

/** Default expectation timeout: 5 minutes, OpenKruise's `--expectation-timeout` default. */
export const DEFAULT_EXPECTATION_TIMEOUT_MS = 5 * 60 * 1000;

/** Options shared by the expectation stores; `E` is what `onTimeout` receives. */
export interface ExpectationsOptions<E> {
  /** How long an expectation may stay unsatisfied before it is dropped; default 5 min. */
  readonly timeoutMs?: number | undefined;
  readonly clock?: Clock | undefined;
  /** Called once per dropped expectation, so the caller can log it and count it in `kruise_ts_expectations_timeouts_total`. */
  readonly onTimeout?: ((event: E) => void) | undefined;
  /** Where the store reports how many keys wait and how long each waited; none when absent. */
  readonly metrics?: ExpectationMetrics | undefined;
}

/**
 * Validates a timeout. It must be positive and finite: an infinite timeout would bring back the
 * "blocked forever" failure of kruise#1765 that the timeout exists to prevent.
 */
export function resolveExpectationTimeout(timeoutMs: number | undefined): number {
  const resolved = timeoutMs ?? DEFAULT_EXPECTATION_TIMEOUT_MS;
  if (!(resolved > 0) || !Number.isFinite(resolved)) {
    throw new RangeError(
      `expectation timeout must be a positive, finite number of milliseconds, got ${String(resolved)}`,
    );
  }
  return resolved;
}
