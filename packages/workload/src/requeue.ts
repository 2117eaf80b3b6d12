/**
 * The shortest positive delay asked for during one reconcile (OpenKruise's DurationStore, held per
 * reconcile instead of in a global map keyed by workload).
 */
import type { Result } from '@kruise-ts/controller-runtime';

/**
 * Collects "reconcile again in N ms" wishes (minReadySeconds, grace periods, expectation timeouts)
 * and keeps the minimum; zero and negative delays are ignored, as "now" is not a delay.
 */
export class RequeueAfter {
  #delayMs: number | undefined;
  #reason: string | undefined;

  /** Records a delay in ms, with an optional reason for logs; keeps it when shorter than the current one. */
  push(delayMs: number, reason?: string): void {
    if (!(delayMs > 0) || (this.#delayMs !== undefined && this.#delayMs <= delayMs)) {
      return;
    }
    this.#delayMs = delayMs;
    this.#reason = reason;
  }

  /** Takes over the other collector's delay if it is shorter. */
  merge(other: RequeueAfter): void {
    if (other.delayMs !== undefined) {
      this.push(other.delayMs, other.reason);
    }
  }

  /** The shortest delay pushed, undefined when none. */
  get delayMs(): number | undefined {
    return this.#delayMs;
  }

  /** The reason given with the shortest delay. */
  get reason(): string | undefined {
    return this.#reason;
  }

  /** The reconcile result asking for this delay (empty when none). */
  toResult(): Result {
    return this.#delayMs === undefined ? {} : { requeueAfterMs: Math.ceil(this.#delayMs) };
  }
}
