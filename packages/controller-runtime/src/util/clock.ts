/**
 * Time as a dependency. Every time-based part of the runtime (rate limiters, the delaying queue,
 * expectation timeouts) takes a `Clock` option so that tests drive time with `FakeClock` instead of
 * sleeping, and production code uses `realClock`.
 */

declare const timerHandleBrand: unique symbol;

/**
 * An opaque handle returned by `Clock.setTimeout`; only the clock that issued it can clear it.
 * Branded so that a handle from one clock is not mistaken for a number or a Node.js `Timeout`.
 */
export interface TimerHandle {
  readonly [timerHandleBrand]: 'TimerHandle';
}

/** The source of time and timers for the runtime's pure modules. */
export interface Clock {
  /** Milliseconds since the epoch; never decreases. */
  now(): number;
  /** Runs `callback` once after `ms` milliseconds (at once on the next tick when `ms <= 0`). */
  setTimeout(callback: () => void, ms: number): TimerHandle;
  /** Cancels a timer; clearing a fired or already cleared timer does nothing. */
  clearTimeout(handle: TimerHandle): void;
}

/**
 * A clock on monotonic time with real, `unref()`ed timers. `now()` is `performance.timeOrigin +
 * performance.now()` rather than `Date.now()` because a wall-clock step (NTP, a VM resume) must not
 * make a backoff or an expectation timeout jump or run backwards. Timers are unref'ed because a
 * pending requeue or refill must never be the reason a process stays alive after shutdown.
 */
export const realClock: Clock = {
  now: (): number => performance.timeOrigin + performance.now(),
  setTimeout: (callback: () => void, ms: number): TimerHandle => {
    const timer = setTimeout(callback, Math.max(0, ms));
    timer.unref();
    return timer as unknown as TimerHandle;
  },
  clearTimeout: (handle: TimerHandle): void => {
    clearTimeout(handle as unknown as NodeJS.Timeout);
  },
};

/** Resolves after `ms` on `clock`, or at once when `signal` aborts (never rejects). */
export function sleepOn(clock: Clock, ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) {
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const done = (): void => {
      clock.clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = clock.setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** A signal that aborts after `ms` on `clock` (AbortSignal.timeout on a clock tests can drive); `cancel` clears its timer. */
export function timeoutOn(clock: Clock, ms: number): { readonly signal: AbortSignal; cancel(): void } {
  const controller = new AbortController();
  const timer = clock.setTimeout(() => {
    controller.abort(new DOMException(`timed out after ${String(ms)} ms`, 'TimeoutError'));
  }, ms);
  return {
    signal: controller.signal,
    cancel: () => {
      clock.clearTimeout(timer);
    },
  };
}
