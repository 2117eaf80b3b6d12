/**
 * The keyed work queue every controller's worker loop reads from, with the semantics of client-go's
 * `workqueue` (queue.go + delaying_queue.go + rate_limiting_queue.go) in one object.
 *
 * ### Invariants
 * - `#dirty` holds every item that needs processing; `#queue` holds those of them not being
 *   processed, in FIFO order. An item is therefore at most once in `#queue`.
 * - `#processing` holds the items handed out by `get()` and not yet `done()`. An item being processed
 *   is never in `#queue`; adding it marks it dirty, and `done()` puts it back in the queue. This is
 *   what guarantees that two workers never reconcile the same key at the same time.
 */
import { realClock } from '../util/clock.ts';
import type { Clock } from '../util/clock.ts';
import { DelayedAdds } from './delayed-adds.ts';
import { Fifo } from './fifo.ts';
import { defaultControllerRateLimiter } from './rate-limiters.ts';
import type { RateLimiter } from './rate-limiters.ts';
import type { WorkQueueMetrics, WorkQueueState } from './work-queue-metrics.ts';

/** A de-duplicating, delaying, rate-limited queue of keys (usually `namespace/name`). */
export interface WorkQueue<K> {
  /** Marks `item` as needing processing; a no-op when it already waits or the queue is shut down. */
  add(item: K): void;
  /** Adds `item` after `delayMs`; a pending earlier time wins, and `delayMs <= 0` adds at once. */
  addAfter(item: K, delayMs: number): void;
  /** Adds `item` after the delay its rate limiter assigns (`when`), counting a retry. */
  addRateLimited(item: K): void;
  /** Resets the backoff of `item`; call it once the item was processed successfully. */
  forget(item: K): void;
  /** How many rate-limited retries of `item` the rate limiter is tracking. */
  numRequeues(item: K): number;
  /**
   * Resolves with the next item to process, waiting while the queue is empty. Resolves with
   * `undefined` once the queue is shut down (after `shutDownWithDrain`: once nothing is left to hand
   * out); the worker should then stop. Every item received must be passed to `done`.
   */
  get(): Promise<K | undefined>;
  /** Marks the processing of `item` finished; re-queues it if it was added in the meantime. */
  done(item: K): void;
  /** Items waiting for a worker (not those being processed or waiting for a delay). */
  len(): number;
  /** Stops the queue: adds are ignored, waiting and delayed items are dropped, `get()` resolves `undefined`. */
  shutDown(): void;
  /**
   * Stops accepting adds and resolves once every waiting item was handed out and every item being
   * processed is done. Delayed items are dropped. Workers must keep calling `get()`/`done()` until
   * `get()` resolves `undefined`; a later `shutDown()` stops the wait early.
   */
  shutDownWithDrain(): Promise<void>;
  /** True once `shutDown` or `shutDownWithDrain` was called. */
  shuttingDown(): boolean;
}

/** Options of `createWorkQueue`. */
export interface WorkQueueOptions<K> {
  /** Names the queue in metrics and logs; by convention the controller name. */
  readonly name: string;
  /** Backoff for `addRateLimited`; `defaultControllerRateLimiter()` when omitted. */
  readonly rateLimiter?: RateLimiter<K> | undefined;
  readonly clock?: Clock | undefined;
  /** Where the queue reports adds, latencies, retries and its gauges; no metrics when omitted. */
  readonly metrics?: WorkQueueMetrics | undefined;
}

type QueueState = 'running' | 'draining' | 'stopped';

class KeyedWorkQueue<K> implements WorkQueue<K> {
  readonly name: string;
  readonly #clock: Clock;
  readonly #rateLimiter: RateLimiter<K>;
  readonly #metrics: WorkQueueMetrics | undefined;
  readonly #queue = new Fifo<K>();
  readonly #dirty = new Set<K>();
  /** Item → time (ms) a worker took it. */
  readonly #processing = new Map<K, number>();
  /** Item → time (ms) it became dirty, for the queue latency metric. */
  readonly #addedAt = new Map<K, number>();
  readonly #waiters = new Fifo<(item: K | undefined) => void>();
  readonly #delayed: DelayedAdds<K>;
  #state: QueueState = 'running';
  #drained: PromiseWithResolvers<void> | undefined;

  constructor(options: WorkQueueOptions<K>) {
    this.name = options.name;
    this.#clock = options.clock ?? realClock;
    this.#rateLimiter = options.rateLimiter ?? defaultControllerRateLimiter<K>({ clock: this.#clock });
    this.#metrics = options.metrics;
    this.#delayed = new DelayedAdds<K>({
      clock: this.#clock,
      onReady: (item) => {
        this.add(item);
      },
    });
    this.#metrics?.bindState(() => this.#readState());
  }

  add(item: K): void {
    if (this.#state !== 'running' || this.#dirty.has(item)) {
      return;
    }
    this.#dirty.add(item);
    this.#metrics?.added();
    if (!this.#addedAt.has(item)) {
      this.#addedAt.set(item, this.#clock.now());
    }
    if (!this.#processing.has(item)) {
      this.#enqueue(item);
    }
  }

  addAfter(item: K, delayMs: number): void {
    if (this.#state !== 'running') {
      return;
    }
    this.#schedule(item, delayMs);
  }

  addRateLimited(item: K): void {
    if (this.#state !== 'running') {
      return;
    }
    const delayMs = this.#rateLimiter.when(item);
    this.#metrics?.retried();
    this.#schedule(item, delayMs);
  }

  forget(item: K): void {
    this.#rateLimiter.forget(item);
  }

  numRequeues(item: K): number {
    return this.#rateLimiter.numRequeues(item);
  }

  get(): Promise<K | undefined> {
    if (this.#queue.length > 0) {
      const item = this.#queue.shift();
      this.#take(item);
      return Promise.resolve(item);
    }
    if (this.#state !== 'running') {
      return Promise.resolve(undefined);
    }
    return new Promise((resolve) => {
      this.#waiters.push(resolve);
    });
  }

  done(item: K): void {
    const startedAt = this.#processing.get(item);
    if (startedAt === undefined) {
      return;
    }
    this.#processing.delete(item);
    this.#metrics?.processed(this.#secondsSince(startedAt));
    if (this.#dirty.has(item)) {
      this.#enqueue(item);
    }
    this.#resolveIfDrained();
  }

  len(): number {
    return this.#queue.length;
  }

  shutDown(): void {
    this.#state = 'stopped';
    this.#delayed.clear();
    this.#queue.clear();
    this.#dirty.clear();
    this.#addedAt.clear();
    this.#releaseWaiters();
    // As in client-go, a shutDown after shutDownWithDrain ends the drain wait.
    this.#drained?.resolve();
  }

  shutDownWithDrain(): Promise<void> {
    if (this.#state === 'stopped') {
      return Promise.resolve();
    }
    if (this.#state === 'running') {
      this.#state = 'draining';
      this.#delayed.clear();
      this.#drained = Promise.withResolvers();
      // Waiters exist only while the queue is empty: there is nothing left to hand them.
      this.#releaseWaiters();
      this.#resolveIfDrained();
    }
    return this.#drained?.promise ?? Promise.resolve();
  }

  shuttingDown(): boolean {
    return this.#state !== 'running';
  }

  #schedule(item: K, delayMs: number): void {
    if (delayMs > 0) {
      this.#delayed.schedule(item, this.#clock.now() + delayMs);
    } else {
      this.add(item);
    }
  }

  /** Hands `item` straight to a waiting worker, or appends it to the queue when none waits. */
  #enqueue(item: K): void {
    if (this.#waiters.length > 0) {
      const resolve = this.#waiters.shift();
      this.#take(item);
      resolve(item);
    } else {
      this.#queue.push(item);
    }
  }

  #take(item: K): void {
    const now = this.#clock.now();
    this.#dirty.delete(item);
    this.#processing.set(item, now);
    const addedAt = this.#addedAt.get(item);
    if (addedAt !== undefined) {
      this.#addedAt.delete(item);
      this.#metrics?.waited((now - addedAt) / 1000);
    }
  }

  #releaseWaiters(): void {
    while (this.#waiters.length > 0) {
      this.#waiters.shift()(undefined);
    }
  }

  #resolveIfDrained(): void {
    if (this.#state === 'draining' && this.#processing.size === 0 && this.#queue.length === 0) {
      this.#drained?.resolve();
    }
  }

  #secondsSince(startMs: number): number {
    return Math.max(0, this.#clock.now() - startMs) / 1000;
  }

  #readState(): WorkQueueState {
    let unfinishedWorkSeconds = 0;
    let longestRunningProcessorSeconds = 0;
    for (const startedAt of this.#processing.values()) {
      const seconds = this.#secondsSince(startedAt);
      unfinishedWorkSeconds += seconds;
      longestRunningProcessorSeconds = Math.max(longestRunningProcessorSeconds, seconds);
    }
    return { depth: this.#dirty.size, unfinishedWorkSeconds, longestRunningProcessorSeconds };
  }
}

/**
 * Creates a work queue. A worker loop looks like:
 *
 * @example
 * const queue = createWorkQueue<string>({ name: 'cloneset', metrics: metrics.workQueueMetrics('cloneset') });
 * for (let key = await queue.get(); key !== undefined; key = await queue.get()) {
 *   try {
 *     const result = await reconcile(key);
 *     queue.forget(key);
 *     if (result.requeueAfterMs !== undefined) queue.addAfter(key, result.requeueAfterMs);
 *   } catch {
 *     queue.addRateLimited(key);
 *   } finally {
 *     queue.done(key);
 *   }
 * }
 */
export function createWorkQueue<K>(options: WorkQueueOptions<K>): WorkQueue<K> {
  return new KeyedWorkQueue<K>(options);
}
