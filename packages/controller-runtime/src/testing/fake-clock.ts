import type { Clock, TimerHandle } from '../util/clock.ts';

interface FakeTimer {
  readonly id: number;
  readonly dueAt: number;
  readonly callback: () => void;
}

/** 2026-01-01T00:00:00Z: a non-zero start so that code treating 0 as "unset" is still exercised. */
const DEFAULT_START_MS = Date.UTC(2026, 0, 1);

/**
 * A manually driven `Clock` for tests: time stands still until `advance` moves it, and timers fire
 * synchronously inside `advance`, in due-time order (creation order on ties), each with `now()` set
 * to its own due time. Timers scheduled by a callback fire in the same `advance` when they fall due
 * before its end. Promise continuations of fired callbacks run only after `advance` returns, so
 * tests `await` a microtask (or the promise itself) after advancing.
 *
 * @example
 * const clock = new FakeClock();
 * const queue = createWorkQueue<string>({ name: 'test', clock });
 * queue.addAfter('ns/a', 100);
 * clock.advance(99); // queue.len() === 0
 * clock.advance(1); // queue.len() === 1
 */
export class FakeClock implements Clock {
  #now: number;
  #nextId = 1;
  readonly #timers = new Map<number, FakeTimer>();

  constructor(startMs: number = DEFAULT_START_MS) {
    this.#now = startMs;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(callback: () => void, ms: number): TimerHandle {
    const id = this.#nextId++;
    this.#timers.set(id, { id, dueAt: this.#now + Math.max(0, ms), callback });
    return id as unknown as TimerHandle;
  }

  clearTimeout(handle: TimerHandle): void {
    this.#timers.delete(handle as unknown as number);
  }

  /** Moves time forward by `ms` (≥ 0), firing every timer that falls due on the way. */
  advance(ms: number): void {
    if (!(ms >= 0)) {
      throw new RangeError(`FakeClock.advance: ms must be >= 0, got ${String(ms)}`);
    }
    const target = this.#now + ms;
    for (let timer = this.#nextDue(target); timer !== undefined; timer = this.#nextDue(target)) {
      this.#timers.delete(timer.id);
      this.#now = timer.dueAt;
      timer.callback();
    }
    this.#now = target;
  }

  /** How many timers are scheduled and not yet fired or cleared. */
  pendingTimers(): number {
    return this.#timers.size;
  }

  #nextDue(target: number): FakeTimer | undefined {
    let next: FakeTimer | undefined;
    for (const timer of this.#timers.values()) {
      // Map iteration follows insertion (= creation) order, so `<` keeps the earliest-created on ties.
      if (timer.dueAt <= target && (next === undefined || timer.dueAt < next.dueAt)) {
        next = timer;
      }
    }
    return next;
  }
}
