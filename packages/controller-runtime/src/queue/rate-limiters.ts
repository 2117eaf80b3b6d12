import { TokenBucket } from '../flowcontrol/token-bucket.ts';
import type { Clock } from '../util/clock.ts';

/**
 * Decides how long an item waits before it is retried, as client-go's `TypedRateLimiter`. The work
 * queue calls `when` on every `addRateLimited` and `forget` once the item succeeded.
 */
export interface RateLimiter<K> {
  /** Records one more failure of `item` and returns how long (ms) to wait before retrying it. */
  when(item: K): number;
  /** Stops tracking `item` (it succeeded or was dropped), so its next failure starts from scratch. */
  forget(item: K): void;
  /** How many failures of `item` are being tracked (0 for limiters that do not count per item). */
  numRequeues(item: K): number;
}

/** Options of `itemExponentialFailureRateLimiter`. */
export interface ExponentialFailureOptions {
  /** Delay after the first failure; default 5 ms (OpenKruise `--rate-limiter-base-delay`). */
  readonly baseDelayMs?: number | undefined;
  /** Upper bound of the delay; default 1,000,000 ms = 1000 s (`--rate-limiter-max-delay`). */
  readonly maxDelayMs?: number | undefined;
}

/** Options of `bucketRateLimiter`. */
export interface BucketRateLimiterOptions {
  /** Retries per second across all items; default 10 (OpenKruise `--rate-limiter-qps`). */
  readonly qps?: number | undefined;
  /** Retries that may pass at once; default 100 (OpenKruise `--rate-limiter-bucket-size`). */
  readonly burst?: number | undefined;
  readonly clock?: Clock | undefined;
}

/** Options of `defaultControllerRateLimiter`: the union of both limiters' options. */
export type ControllerRateLimiterOptions = ExponentialFailureOptions & BucketRateLimiterOptions;

/** First retry delay of the default backoff (client-go, OpenKruise `--rate-limiter-base-delay`). */
export const DEFAULT_BASE_DELAY_MS = 5;
/** Cap of the default backoff: 1000 s (OpenKruise `--rate-limiter-max-delay`). */
export const DEFAULT_MAX_DELAY_MS = 1_000_000;
/** Overall retries per second of the default bucket (OpenKruise `--rate-limiter-qps`). */
export const DEFAULT_RETRY_QPS = 10;
/** Burst of the default bucket (OpenKruise `--rate-limiter-bucket-size`). */
export const DEFAULT_RETRY_BURST = 100;

/**
 * A per-item exponential backoff: the n-th consecutive failure of an item waits
 * `baseDelayMs * 2^(n-1)`, capped at `maxDelayMs`. Items back off independently, so one broken
 * object does not slow down the others.
 *
 * Worked example with the defaults (5 ms → 1000 s): failures 1, 2, 3, 4 wait 5, 10, 20, 40 ms; the
 * 18th waits 5 · 2^17 = 655,360 ms (≈ 11 min); from the 19th on (5 · 2^18 = 1,310,720 ms would
 * exceed the cap) every retry waits 1,000,000 ms (≈ 16.7 min) until `forget`.
 */
export function itemExponentialFailureRateLimiter<K>(options: ExponentialFailureOptions = {}): RateLimiter<K> {
  const baseDelayMs = options.baseDelayMs ?? DEFAULT_BASE_DELAY_MS;
  const maxDelayMs = options.maxDelayMs ?? DEFAULT_MAX_DELAY_MS;
  if (!(baseDelayMs >= 0) || !(maxDelayMs >= 0)) {
    throw new RangeError(
      `exponential rate limiter: delays must be >= 0, got base ${String(baseDelayMs)} ms, max ${String(maxDelayMs)} ms`,
    );
  }
  const failures = new Map<K, number>();
  return {
    when(item: K): number {
      const exponent = failures.get(item) ?? 0;
      failures.set(item, exponent + 1);
      // Bounding the exponent keeps 2^n finite, so a 0 ms base stays 0 instead of 0 · Infinity = NaN.
      return Math.min(maxDelayMs, baseDelayMs * 2 ** Math.min(exponent, 1000));
    },
    forget(item: K): void {
      failures.delete(item);
    },
    numRequeues(item: K): number {
      return failures.get(item) ?? 0;
    },
  };
}

/**
 * An overall retry limit shared by all items, as client-go's `BucketRateLimiter`: each retry takes a
 * token from a `TokenBucket`. It bounds how fast a controller retries when many items fail at once
 * (e.g. the API server is down); it does not count failures per item.
 *
 * Worked example with the defaults (10 qps, burst 100): 100 items failing at the same instant are
 * retried at once; the 101st waits 100 ms, the 110th 1 s.
 */
export function bucketRateLimiter<K>(options: BucketRateLimiterOptions = {}): RateLimiter<K> {
  const bucket = new TokenBucket({
    qps: options.qps ?? DEFAULT_RETRY_QPS,
    burst: options.burst ?? DEFAULT_RETRY_BURST,
    clock: options.clock,
  });
  return {
    when: (): number => bucket.reserve(),
    forget: (): void => undefined,
    numRequeues: (): number => 0,
  };
}

/**
 * Combines limiters: an item waits as long as the strictest of them says and its requeue count is
 * the highest any of them reports. Every limiter sees every call, so each keeps its own state.
 */
export function maxOfRateLimiter<K>(...limiters: readonly RateLimiter<K>[]): RateLimiter<K> {
  return {
    when(item: K): number {
      let delayMs = 0;
      for (const limiter of limiters) {
        delayMs = Math.max(delayMs, limiter.when(item));
      }
      return delayMs;
    },
    forget(item: K): void {
      for (const limiter of limiters) {
        limiter.forget(item);
      }
    },
    numRequeues(item: K): number {
      return limiters.reduce((max, limiter) => Math.max(max, limiter.numRequeues(item)), 0);
    },
  };
}

/**
 * The controller default of client-go and OpenKruise: the maximum of a per-item exponential backoff
 * (5 ms → 1000 s) and an overall bucket (10 qps, burst 100). Options map one to one to OpenKruise's
 * `--rate-limiter-base-delay`, `--rate-limiter-max-delay`, `--rate-limiter-qps` and
 * `--rate-limiter-bucket-size`.
 */
export function defaultControllerRateLimiter<K>(options: ControllerRateLimiterOptions = {}): RateLimiter<K> {
  return maxOfRateLimiter<K>(
    itemExponentialFailureRateLimiter<K>({ baseDelayMs: options.baseDelayMs, maxDelayMs: options.maxDelayMs }),
    bucketRateLimiter<K>({ qps: options.qps, burst: options.burst, clock: options.clock }),
  );
}
