import { realClock } from '../util/clock.ts';
import type { Clock } from '../util/clock.ts';

/** Options of `TokenBucket`. */
export interface TokenBucketOptions {
  /** Tokens added per second; `<= 0` (or `Infinity`) turns limiting off. */
  readonly qps: number;
  /** Bucket size: how many requests may pass at once after a quiet period; `>= 1` when limited. */
  readonly burst: number;
  readonly clock?: Clock | undefined;
}

/**
 * A token bucket rate limiter with the semantics of golang.org/x/time/rate, which client-go uses
 * for both the REST client's QPS/burst and the work queue's overall retry limit. The bucket starts
 * full; each request takes one token; tokens come back at `qps` per second up to `burst`. A request
 * that finds the bucket empty may still reserve a token "on credit" and must then wait until the
 * bucket would have refilled to it.
 *
 * Worked example, qps 10 and burst 100 (the work queue default): the first 100 `reserve()` calls at
 * the same instant return 0; the 101st returns 100 ms, the 102nd 200 ms. After 1 s without requests
 * the bucket holds 10 tokens again, so the next 10 calls return 0.
 */
export class TokenBucket {
  readonly #qps: number;
  readonly #burst: number;
  readonly #clock: Clock;
  /** Tokens available at `#last`; negative when requests have reserved tokens on credit. */
  #tokens: number;
  #last: number;

  constructor(options: TokenBucketOptions) {
    if (Number.isNaN(options.qps)) {
      throw new RangeError('TokenBucket: qps must be a number, got NaN');
    }
    const unlimited = options.qps <= 0 || options.qps === Infinity;
    if (!unlimited && !(options.burst >= 1)) {
      throw new RangeError(`TokenBucket: burst must be >= 1 when qps > 0, got ${String(options.burst)}`);
    }
    this.#qps = unlimited ? Infinity : options.qps;
    this.#burst = options.burst;
    this.#clock = options.clock ?? realClock;
    this.#tokens = options.burst;
    this.#last = this.#clock.now();
  }

  /** Takes a token if one is available now and reports whether it did; never waits or borrows. */
  tryAccept(): boolean {
    if (this.#qps === Infinity) {
      return true;
    }
    this.#refill();
    if (this.#tokens < 1) {
      return false;
    }
    this.#tokens -= 1;
    return true;
  }

  /**
   * Takes a token, borrowing from the future if needed, and returns how many milliseconds the caller
   * must wait before acting on it (0 when a token was available). The reservation is not refunded.
   */
  reserve(): number {
    if (this.#qps === Infinity) {
      return 0;
    }
    this.#refill();
    this.#tokens -= 1;
    // Multiply before dividing: for integral deficits and qps this keeps the result exact (3 * 1000 / 10 = 300).
    return this.#tokens >= 0 ? 0 : (-this.#tokens * 1000) / this.#qps;
  }

  /**
   * Reserves a token and resolves once it may be used. When `signal` aborts first, the promise
   * rejects with the signal's reason and the token is given back, so an abandoned request does not
   * slow down the ones queued behind it.
   */
  wait(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted === true) {
      return Promise.reject(abortReason(signal));
    }
    const delayMs = this.reserve();
    if (delayMs <= 0) {
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        this.#clock.clearTimeout(timer);
        this.#refund();
        reject(abortReason(signal));
      };
      const timer = this.#clock.setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, delayMs);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  #refill(): void {
    const now = this.#clock.now();
    const elapsedMs = Math.max(0, now - this.#last);
    this.#last = now;
    this.#tokens = Math.min(this.#burst, this.#tokens + (elapsedMs * this.#qps) / 1000);
  }

  #refund(): void {
    this.#refill();
    this.#tokens = Math.min(this.#burst, this.#tokens + 1);
  }
}

/** The signal's reason when it is an Error (the usual `AbortError`/`TimeoutError`), else an Error wrapping it. */
function abortReason(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error) {
    return reason;
  }
  return new Error('The operation was aborted.', { cause: reason });
}
