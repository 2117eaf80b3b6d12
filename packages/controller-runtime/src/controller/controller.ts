import { randomUUID } from 'node:crypto';

import type { Logger } from 'pino';

import type { Informer } from '../cache/informer.ts';
import type { KubeObject } from '../client/kube-object.ts';
import type { Runnable } from '../manager/runnable.ts';
import { defaultControllerRateLimiter } from '../queue/rate-limiters.ts';
import type { RateLimiter } from '../queue/rate-limiters.ts';
import { createWorkQueue } from '../queue/work-queue.ts';
import type { WorkQueue } from '../queue/work-queue.ts';
import type { WorkQueueMetrics } from '../queue/work-queue-metrics.ts';
import { requestFromKey, requestKey, TerminalError } from '../reconcile/reconcile.ts';
import type { Reconciler, Request, Result } from '../reconcile/reconcile.ts';
import type { ReconcileGate } from './reconcile-gate.ts';
import type { RequestMapper } from './event-mappers.ts';

/** How a reconcile ended, with controller-runtime's `result` label values. */
export type ReconcileOutcome = 'success' | 'error' | 'requeue' | 'requeue_after';

/** Receives what the controller loop does; the manager feeds controller-runtime's metrics from it. */
export interface ControllerObserver {
  reconciled(record: { controller: string; outcome: ReconcileOutcome; seconds: number; terminal: boolean }): void;
  workers(record: { controller: string; max: number; active: number }): void;
}

export interface ControllerOptions {
  /** Names the controller in logs, metrics and the queue (e.g. `cloneset`). */
  readonly name: string;
  readonly reconciler: Reconciler;
  readonly logger: Logger;
  /** Reconciles running at once (controller-runtime's MaxConcurrentReconciles); 3 by default, as the apps' `--workers`. */
  readonly workers?: number | undefined;
  readonly rateLimiter?: RateLimiter<string> | undefined;
  /** A reconcile's signal aborts after this long, so that one stuck call cannot hold a worker forever. */
  readonly reconcileTimeoutMs?: number | undefined;
  /** Starting fails when the watched caches have not synced by then. */
  readonly cacheSyncTimeoutMs?: number | undefined;
  readonly observer?: ControllerObserver | undefined;
  readonly queueMetrics?: WorkQueueMetrics | undefined;
  /**
   * Asked before each reconcile in a sharded process: only keys of buckets this replica works on
   * run. A gated controller runs on every replica, without the leader Lease.
   */
  readonly gate?: ReconcileGate | undefined;
}

/** How long a key the gate holds back waits before it is asked again. */
const GATE_RETRY_MS = 1000;

const DEFAULT_WORKERS = 3;
const DEFAULT_RECONCILE_TIMEOUT_MS = 5 * 60_000;
const DEFAULT_CACHE_SYNC_TIMEOUT_MS = 2 * 60_000;

/**
 * The generic controller loop: watched informers map changes to request keys in a de-duplicating,
 * rate-limited queue; N workers take keys and call the reconciler; success forgets the key's backoff,
 * an error retries it with backoff, a TerminalError is only counted, `requeueAfterMs` schedules the
 * next run. The workers are the only code that takes keys from the queue, forgets them or retries
 * them; others only add keys to it: the watches here, event handlers an app or a shared package
 * registers itself (owned pods, PVCs), and the shard coordinator when this replica takes buckets.
 */
export class Controller implements Runnable {
  readonly needLeaderElection: boolean;
  readonly name: string;
  readonly queue: WorkQueue<string>;
  readonly #options: ControllerOptions;
  readonly #informers: Informer<KubeObject>[] = [];
  #active = 0;
  #running = false;

  constructor(options: ControllerOptions) {
    this.name = options.name;
    this.#options = options;
    this.needLeaderElection = options.gate === undefined;
    this.queue = createWorkQueue<string>({
      name: options.name,
      rateLimiter: options.rateLimiter ?? defaultControllerRateLimiter<string>(),
      ...(options.queueMetrics === undefined ? {} : { metrics: options.queueMetrics }),
    });
  }

  /**
   * Reconciles what `mapper` returns for every add, update and delete of the informer's objects. On an
   * update both the old and the new object are mapped, so that a change of owner or labels reaches the
   * previous owner too.
   */
  watch<T extends KubeObject>(informer: Informer<T>, mapper: RequestMapper<T>): void {
    this.#informers.push(informer as unknown as Informer<KubeObject>);
    const enqueueAll = (requests: readonly Request[]): void => {
      for (const request of requests) {
        this.queue.add(requestKey(request));
      }
    };
    informer.addEventHandler({
      onAdd: (object) => {
        enqueueAll(mapper(object));
      },
      onUpdate: (oldObject, newObject) => {
        enqueueAll(uniqueRequests([...mapper(oldObject), ...mapper(newObject)]));
      },
      onDelete: (object) => {
        enqueueAll(mapper(object));
      },
    });
  }

  /**
   * Waits for this informer's cache before the workers start, for informers whose events the caller
   * handles itself (for example to check off expectations) instead of through `watch`.
   */
  addSource<T extends KubeObject>(informer: Informer<T>): void {
    this.#informers.push(informer as unknown as Informer<KubeObject>);
  }

  /**
   * Whether its workers run: on the elected leader, or on every replica when gated (the gate then says
   * which keys). A standby's informers still deliver events; what a handler would keep per key for the
   * reconciler is wasted there.
   */
  get running(): boolean {
    return this.#running;
  }

  /** Queues a request from outside the informers (for example a periodic check). */
  enqueue(request: Request, afterMs = 0): void {
    this.queue.addAfter(requestKey(request), afterMs);
  }

  /**
   * Waits for the watched caches, then runs the workers until the signal aborts. On abort the queue
   * shuts down: keys still waiting are dropped (the next leader reconciles everything anyway) and the
   * reconciles in flight see their signal abort, so their API calls end at once and shutdown does
   * not wait for a queue of work that would only fail.
   */
  async start(signal: AbortSignal): Promise<void> {
    const timeout = this.#options.cacheSyncTimeoutMs ?? DEFAULT_CACHE_SYNC_TIMEOUT_MS;
    const syncSignal = AbortSignal.any([signal, AbortSignal.timeout(timeout)]);
    const synced = await Promise.all(this.#informers.map((informer) => informer.waitForSync(syncSignal)));
    if (signal.aborted) {
      return;
    }
    if (synced.includes(false)) {
      throw new Error(`controller ${this.name}: caches did not sync within ${String(timeout)}ms`);
    }
    const workers = this.#options.workers ?? DEFAULT_WORKERS;
    this.#options.logger.info({ controller: this.name, workers }, 'Starting workers');
    this.#reportWorkers();
    this.#running = true;
    const running = Array.from({ length: workers }, () => this.#work(signal));
    signal.addEventListener(
      'abort',
      () => {
        this.queue.shutDown();
      },
      { once: true },
    );
    await Promise.all(running);
    this.#running = false;
    this.#options.logger.info({ controller: this.name }, 'All workers finished');
  }

  async #work(signal: AbortSignal): Promise<void> {
    for (;;) {
      const key = await this.queue.get();
      if (key === undefined) {
        return;
      }
      const admission = this.#options.gate?.admit(key) ?? 'run';
      try {
        if (admission === 'run') {
          await this.#reconcileHandler(key, signal);
        } else if (admission === 'later') {
          this.queue.addAfter(key, GATE_RETRY_MS);
        } else {
          this.queue.forget(key);
        }
      } finally {
        if (admission === 'run') {
          this.#options.gate?.finished(key);
        }
        this.queue.done(key);
      }
    }
  }

  async #reconcileHandler(key: string, signal: AbortSignal): Promise<void> {
    const request = requestFromKey(key);
    const reconcileId = randomUUID();
    const logger = this.#options.logger.child({
      controller: this.name,
      namespace: request.namespace,
      name: request.name,
      reconcileID: reconcileId,
    });
    const timeout = AbortSignal.timeout(this.#options.reconcileTimeoutMs ?? DEFAULT_RECONCILE_TIMEOUT_MS);
    const started = performance.now();
    this.#active++;
    this.#reportWorkers();
    let outcome: ReconcileOutcome = 'error';
    let terminal = false;
    try {
      const result = await this.#options.reconciler.reconcile(
        { signal: AbortSignal.any([signal, timeout]), logger, reconcileId },
        request,
      );
      outcome = this.#onSuccess(key, result);
    } catch (error) {
      terminal = error instanceof TerminalError;
      this.#onError(key, error, { logger, terminal, stopping: signal.aborted });
    } finally {
      this.#active--;
      this.#reportWorkers();
      this.#options.observer?.reconciled({
        controller: this.name,
        outcome,
        seconds: (performance.now() - started) / 1000,
        terminal,
      });
    }
  }

  #onSuccess(key: string, result: Result | undefined): ReconcileOutcome {
    this.queue.forget(key);
    const after = result?.requeueAfterMs ?? 0;
    if (after > 0) {
      this.queue.addAfter(key, after);
      return 'requeue_after';
    }
    return 'success';
  }

  #onError(key: string, error: unknown, context: { logger: Logger; terminal: boolean; stopping: boolean }): void {
    if (context.stopping) {
      // Cut short by the shutdown: not a failure of the object, nothing to retry in this process.
      context.logger.info({ err: error }, 'Reconcile cancelled by shutdown');
      return;
    }
    if (context.terminal) {
      this.queue.forget(key);
      context.logger.error({ err: error }, 'Reconciler error (terminal, not retried)');
      return;
    }
    this.queue.addRateLimited(key);
    context.logger.error(
      { err: error, retries: this.queue.numRequeues(key) },
      'Reconciler error, retrying with backoff',
    );
  }

  #reportWorkers(): void {
    this.#options.observer?.workers({
      controller: this.name,
      max: this.#options.workers ?? DEFAULT_WORKERS,
      active: this.#active,
    });
  }
}

function uniqueRequests(requests: readonly Request[]): Request[] {
  const seen = new Map<string, Request>();
  for (const request of requests) {
    seen.set(requestKey(request), request);
  }
  return [...seen.values()];
}
