import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';

import type { Logger } from 'pino';
import { collectDefaultMetrics } from 'prom-client';
import type { Registry } from 'prom-client';

import { InformerFactory } from '../cache/informer-factory.ts';
import { createClient } from '../client/client.ts';
import type { KubeConfigLike } from '../client/cluster-config.ts';
import type { Client } from '../client/client.ts';
import { Transport } from '../client/transport.ts';
import type { ApiContentType } from '../client/content-type.ts';
import type { RequestObserver } from '../client/transport.ts';
import { Controller } from '../controller/controller.ts';
import type { ControllerOptions } from '../controller/controller.ts';
import { EventRecorder } from '../events/event-recorder.ts';
import type { HealthCheck } from '../health/probe-server.ts';
import { LeaderElector } from '../leader-election/leader-elector.ts';
import { createRuntimeMetrics } from '../metrics/runtime-metrics.ts';
import type { RuntimeMetrics } from '../metrics/runtime-metrics.ts';
import { controllerObserver, requestObserver } from './metrics-adapters.ts';
import { IdleMemoryReducer } from './idle-memory-reducer.ts';
import { startProbeServers } from './probe-servers.ts';
import type { BoundPorts } from './probe-servers.ts';
import type { Runnable } from './runnable.ts';
import { defaultControllerRateLimiter } from '../queue/rate-limiters.ts';
import type { ManagerSharding, OwnersTakenListener, ShardedOwners } from './manager-sharding.ts';
import type { ControllerRateLimiterOptions } from '../queue/rate-limiters.ts';

/** Lease-based leader election of one manager. */
export interface LeaderElectionOptions {
  readonly enabled: boolean;
  readonly namespace: string;
  readonly name: string;
  /** Unique per process; `<hostname>_<uuid>` by default. */
  readonly identity?: string | undefined;
  readonly leaseDurationMs?: number | undefined;
  readonly renewDeadlineMs?: number | undefined;
  readonly retryPeriodMs?: number | undefined;
}

/** How often the event-loop delay is sampled (nodejs_eventloop_lag_* metrics). */
const EVENT_LOOP_SAMPLE_MS = 100;

export interface ManagerOptions {
  readonly kubeConfig: KubeConfigLike;
  readonly logger: Logger;
  readonly userAgent?: string | undefined;
  /** Client-side rate limit for every request of this manager (OpenKruise: 30 / 50). */
  readonly qps?: number | undefined;
  readonly burst?: number | undefined;
  /** What built-in kinds are read in (`--api-content-type`): protobuf (the default) or JSON. */
  readonly apiContentType?: ApiContentType | undefined;
  /** Caches only this namespace when set. */
  readonly namespace?: string | undefined;
  readonly leaderElection?: LeaderElectionOptions | undefined;
  /** Address of `/metrics` (`:8080`, `127.0.0.1:8080`, `0` for a free loopback port); off when undefined. */
  readonly metricsAddress?: string | undefined;
  /** Address of `/healthz` and `/readyz`; off when undefined. */
  readonly healthProbeAddress?: string | undefined;
  /** Shutdown waits at most this long for controllers to finish their current reconciles. */
  readonly gracefulShutdownTimeoutMs?: number | undefined;
  readonly cacheSyncTimeoutMs?: number | undefined;
  /** Deep-freeze cached objects (tests: a mutation of a cache object then throws). */
  readonly freezeCache?: boolean | undefined;
  readonly registry?: Registry | undefined;
  /** Also told about every API request (besides the rest_client metrics): write counts in tests and benchmarks. */
  readonly requestObservers?: readonly RequestObserver[] | undefined;
  /** The retry backoff of every controller's queue (OpenKruise's `--rate-limiter-*`); client-go's defaults when absent. */
  readonly rateLimiter?: ControllerRateLimiterOptions | undefined;
  /**
   * Set: controllers made `shardedBy` share their work with the other replicas (@kruise-ts/sharding);
   * the others still need the leader Lease.
   */
  readonly sharding?: ManagerSharding | undefined;
}

/** What `newController` adds to a controller's options. */
export interface NewControllerOptions extends Omit<ControllerOptions, 'observer' | 'queueMetrics' | 'logger' | 'gate'> {
  readonly logger?: Logger;
  /**
   * The controller's own objects (its workloads): in a sharded manager, the controller reconciles
   * only those of the buckets this replica holds, and queues them all when it takes their bucket.
   */
  readonly shardedBy?: ShardedOwners | undefined;
}

const DEFAULT_GRACEFUL_SHUTDOWN_MS = 30_000;
/** The most of the shutdown budget spent on writing queued Events. */
const MAX_EVENT_FLUSH_MS = 2000;
/**
 * The most spent on stopping the webhook servers once the rest has drained: they finish the requests
 * in flight (each within its handler's budget, 3 s by default) and cut connections a second later.
 * Within the 5 seconds the chart's grace period adds to the graceful-shutdown timeout.
 */
const MAX_SERVING_STOP_MS = 4500;

/**
 * Owns what the controllers of one process share (client, informer caches, metrics, event recorders)
 * and runs them: probe servers, caches and webhook servers on every replica, controllers only on the
 * elected leader. On shutdown the controllers drain first; the caches and webhook servers stop last.
 * `start` resolves after a graceful shutdown (bounded by `gracefulShutdownTimeoutMs`) and rejects when
 * a runnable fails or leadership is lost, so that the process exits and is restarted.
 */
export class Manager {
  readonly client: Client;
  readonly informers: InformerFactory;
  readonly metrics: RuntimeMetrics;
  readonly logger: Logger;
  readonly #options: ManagerOptions;
  readonly #runnables: Runnable[] = [];
  readonly #healthz = new Map<string, HealthCheck>([['ping', () => true]]);
  readonly #readyz = new Map<string, HealthCheck>();
  readonly #recorders = new Map<string, EventRecorder>();
  #ports: BoundPorts = {};
  readonly #memoryReducer: IdleMemoryReducer;

  constructor(options: ManagerOptions) {
    this.#options = options;
    this.logger = options.logger;
    this.#memoryReducer = new IdleMemoryReducer({
      gc: IdleMemoryReducer.exposedGc(),
      logger: options.logger.child({ component: 'idle-memory-reducer' }),
    });
    this.metrics = createRuntimeMetrics(options.registry);
    const sharding = options.sharding;
    const transport = new Transport({
      kubeConfig: options.kubeConfig,
      qps: options.qps ?? 30,
      burst: options.burst ?? 50,
      userAgent: userAgentOf(options.userAgent, sharding),
      observer: fanOut([requestObserver(this.metrics), ...(options.requestObservers ?? [])]),
      apiContentType: options.apiContentType,
    });
    this.client = createClient(transport);
    const reducer = this.#memoryReducer;
    this.informers = new InformerFactory({
      client: this.client,
      logger: options.logger,
      namespace: options.namespace,
      freeze: options.freezeCache,
      onActivity: () => {
        reducer.notifyActivity();
      },
      shard: sharding?.gate,
    });
    this.#readyz.set('informers', () => this.informers.hasSynced());
    sharding?.attach({
      client: this.client,
      informers: this.informers,
      logger: this.logger,
      registry: this.metrics.registry,
      namespace: options.namespace,
      add: (runnable) => {
        this.add(runnable);
      },
    });
  }

  /** How this manager shares its sharded controllers' work, when it does. */
  get sharding(): ManagerSharding | undefined {
    return this.#options.sharding;
  }

  /** Adds a runnable; controllers made with `newController` are added already. */
  add(runnable: Runnable): void {
    this.#runnables.push(runnable);
  }

  /** A controller wired to this manager's metrics and logger, added to the manager. */
  newController(options: NewControllerOptions): Controller {
    const { shardedBy, ...rest } = options;
    const shards = shardedBy === undefined ? undefined : this.#options.sharding;
    const controller = new Controller({
      ...rest,
      rateLimiter: options.rateLimiter ?? defaultControllerRateLimiter<string>(this.#options.rateLimiter),
      logger: options.logger ?? this.logger,
      observer: controllerObserver(this.metrics),
      queueMetrics: this.metrics.workQueueMetrics(options.name),
      gate: shards?.gate,
    });
    if (shards !== undefined && shardedBy !== undefined) {
      shards.shardController(controller, shardedBy);
    }
    this.add(controller);
    return controller;
  }

  /**
   * In a sharded manager, called each time this replica takes buckets, before any of their reconciles,
   * with a test of the owner keys in them: what a controller remembers of those owners may be stale,
   * as another replica worked on them meanwhile (docs/sharding.md). Never called otherwise.
   */
  onOwnersTaken(listener: OwnersTakenListener): void {
    this.#options.sharding?.onOwnersTaken(listener);
  }

  /** The event recorder of a component (one per component name). */
  eventRecorder(component: string): EventRecorder {
    let recorder = this.#recorders.get(component);
    if (recorder === undefined) {
      recorder = new EventRecorder({ client: this.client, component, logger: this.logger.child({ component }) });
      this.#recorders.set(component, recorder);
    }
    return recorder;
  }

  addHealthzCheck(name: string, check: HealthCheck): void {
    this.#healthz.set(name, check);
  }

  addReadyzCheck(name: string, check: HealthCheck): void {
    this.#readyz.set(name, check);
  }

  /** Ports the probe servers listen on, once started (useful with address `0`). */
  boundPorts(): BoundPorts {
    return this.#ports;
  }

  /** Runs everything until the signal aborts, a runnable fails or leadership is lost. */
  async start(signal: AbortSignal): Promise<void> {
    if (this.#options.metricsAddress !== undefined) {
      // process_* and nodejs_* (heap, event-loop delay, GC), as Go controllers export process_* and
      // go_*: what benchmarks and dashboards read. Once per process, when metrics are served. The
      // event-loop delay is sampled by a timer every EVENT_LOOP_SAMPLE_MS: at prom-client's 10 ms that
      // timer alone woke an idle process 100 times a second (0.007 cores, more than a Go controller's
      // whole idle CPU); a blocked loop still shows, as a late sample.
      collectDefaultMetrics({ register: this.metrics.registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
    }
    const servers = await startProbeServers({
      ...this.#options,
      registry: this.metrics.registry,
      healthz: this.#healthz,
      readyz: this.#readyz,
    });
    this.#ports = servers.ports;
    this.logger.info(
      { metricsPort: servers.ports.metrics, healthProbePort: servers.ports.health },
      'Serving metrics and health probes',
    );
    const group = new RunGroup(signal);
    const serving = this.#startServing(group);
    const background = group.run(
      this.#runnables.filter((r) => r.needLeaderElection !== true && r.servesUntilExit !== true),
      group.signal,
    );
    const leaderRunnables = this.#runnables.filter((r) => r.needLeaderElection === true);
    // A sharded app's controllers need no leader: it takes the Lease only for what still does.
    const elected =
      leaderRunnables.length === 0 && this.#options.sharding !== undefined
        ? Promise.resolve('shutdown' as const)
        : this.#runElected({
            stop: group.signal,
            run: (leading) => group.run(leaderRunnables, leading),
            onLost: () => {
              group.fail(new Error('leader election lost'));
            },
          });
    await group.stopped();
    this.#memoryReducer.stop();
    this.logger.info('Stopping the manager');
    await this.#drain(Promise.all([background, elected]), serving);
    await servers.close();
    group.throwFirstFailure();
  }

  /**
   * Starts the caches and the runnables that serve until exit (webhook servers), on a signal of their
   * own; returns what stops them. A replica that is shutting down is still called (its pod is an
   * endpoint until it is gone): it answers from live caches while its reconciles drain.
   */
  #startServing(group: RunGroup): () => Promise<void> {
    const serving = new AbortController();
    this.informers.start(serving.signal);
    const served = group.run(
      this.#runnables.filter((r) => r.servesUntilExit === true),
      serving.signal,
    );
    return async () => {
      serving.abort();
      await served;
    };
  }

  async #runElected(input: {
    stop: AbortSignal;
    run: (signal: AbortSignal) => Promise<void>;
    onLost: () => void;
  }): Promise<'shutdown' | 'lost'> {
    const election = this.#options.leaderElection;
    if (election?.enabled !== true) {
      await input.run(input.stop);
      return 'shutdown';
    }
    const elector = new LeaderElector({
      client: this.client,
      namespace: election.namespace,
      name: election.name,
      identity: election.identity ?? `${os.hostname()}_${randomUUID()}`,
      leaseDurationMs: election.leaseDurationMs ?? 15_000,
      renewDeadlineMs: election.renewDeadlineMs ?? 10_000,
      retryPeriodMs: election.retryPeriodMs ?? 2_000,
      logger: this.logger,
      onLeadershipChange: (leading) => {
        this.metrics.leaderElectionMasterStatus.set({ name: election.name }, leading ? 1 : 0);
      },
    });
    const end = await elector.run(input.stop, input.run);
    if (end === 'lost') {
      input.onLost();
    }
    return end;
  }

  /**
   * Waits for runnables to finish and then for queued Events, all within the graceful-shutdown
   * timeout, and then closes the API client: whatever still runs after that (a reconcile stuck past
   * the timeout, an Event not yet written) can no longer reach the API server, so nothing this
   * manager does lands after `start` returned, when the next leader may already be acting.
   */
  async #drain(work: Promise<unknown>, stopServing: () => Promise<void>): Promise<void> {
    const timeoutMs = this.#options.gracefulShutdownTimeoutMs ?? DEFAULT_GRACEFUL_SHUTDOWN_MS;
    const deadline = performance.now() + timeoutMs;
    const finished = await Promise.race([work.then(() => true), sleep(timeoutMs, false, { ref: false })]);
    if (!finished) {
      this.logger.warn({ timeoutMs }, 'Graceful shutdown timed out; some reconciles were still running');
    }
    const eventsMs = Math.min(MAX_EVENT_FLUSH_MS, Math.max(0, deadline - performance.now()));
    await Promise.race([
      Promise.all([...this.#recorders.values()].map((r) => r.flush())),
      sleep(eventsMs, undefined, { ref: false }),
    ]);
    // Before the client closes: a handler in flight may still need the API server.
    await Promise.race([stopServing(), sleep(MAX_SERVING_STOP_MS, undefined, { ref: false })]);
    this.client.transport.close();
  }
}

/** Runnables sharing one stop signal: the caller's, or the first failure's. */
class RunGroup {
  readonly signal: AbortSignal;
  readonly #internal = new AbortController();
  readonly #failures: unknown[] = [];

  constructor(outer: AbortSignal) {
    this.signal = AbortSignal.any([outer, this.#internal.signal]);
  }

  /** Runs the runnables with the signal; a failure stops the group instead of rejecting. */
  async run(runnables: readonly Runnable[], signal: AbortSignal): Promise<void> {
    await Promise.all(
      runnables.map((runnable) =>
        runnable.start(signal).catch((error: unknown) => {
          this.fail(error);
        }),
      ),
    );
  }

  fail(error: unknown): void {
    this.#failures.push(error);
    this.#internal.abort();
  }

  /** Resolves once the group is told to stop. */
  stopped(): Promise<void> {
    return new Promise((resolve) => {
      if (this.signal.aborted) {
        resolve();
        return;
      }
      this.signal.addEventListener(
        'abort',
        () => {
          resolve();
        },
        { once: true },
      );
    });
  }

  throwFirstFailure(): void {
    const [first] = this.#failures;
    if (first !== undefined) {
      throw first instanceof Error ? first : new Error(JSON.stringify(first));
    }
  }
}

/** A sharded replica names itself in its user agent, so that the API server's audit log tells the replicas' writes apart. */
function userAgentOf(userAgent: string | undefined, sharding: { readonly identity: string } | undefined): string {
  const base = userAgent ?? 'kruise-ts';
  return sharding === undefined ? base : `${base} shard/${sharding.identity}`;
}

function fanOut(observers: readonly RequestObserver[]): RequestObserver {
  return {
    observeRequest: (record) => {
      for (const observer of observers) {
        observer.observeRequest(record);
      }
    },
    observeDecodeError: (record) => {
      for (const observer of observers) {
        observer.observeDecodeError?.(record);
      }
    },
  };
}
