/**
 * A manager for an app's integration tests: the controller under test runs in the test process,
 * caching one namespace only (test files running in parallel never see each other's objects), with
 * a generous client rate limit and a frozen cache, and stops cleanly.
 */
import type { KubeConfig } from '@kubernetes/client-node';

import type { Client } from '../client/client.ts';
import type { KubeObject } from '../client/kube-object.ts';
import type { ResourceType } from '../client/resource-type.ts';
import type { RequestObserver } from '../client/transport.ts';
import { createLogger } from '../log/logger.ts';
import { Manager } from '../manager/manager.ts';
import type { ManagerSharding } from '../manager/manager-sharding.ts';
import type { ControllerRateLimiterOptions } from '../queue/rate-limiters.ts';

/** How the test manager runs. */
export interface TestManagerOptions {
  readonly kubeConfig: KubeConfig;
  readonly namespace: string;
  /** Registers the controller under test. */
  readonly setup: (manager: Manager) => void;
  /** Told about every API request the controller makes. */
  readonly requestObservers?: readonly RequestObserver[] | undefined;
  /** The graceful-shutdown budget (default 5 s). */
  readonly gracefulShutdownTimeoutMs?: number | undefined;
  /** Shares the sharded controllers' work with the other test managers of the ring (@kruise-ts/sharding/testing). */
  readonly sharding?: ManagerSharding | undefined;
  /**
   * The work queue's rate limiter, as `--rate-limiter-*` set it (default: the flags' defaults). A test
   * that waits out the per-item backoff can run it on a shorter time scale.
   */
  readonly rateLimiter?: ControllerRateLimiterOptions | undefined;
}

/** A running test manager. */
export interface TestManager {
  readonly manager: Manager;
  stop(): Promise<void>;
}

/** Starts the manager; `KRUISE_TS_TEST_LOG_LEVEL` (default silent) sets its log level. */
export function startTestManager(options: TestManagerOptions): TestManager {
  const manager = new Manager({
    kubeConfig: options.kubeConfig,
    logger: createLogger({
      level: (process.env['KRUISE_TS_TEST_LOG_LEVEL'] ?? 'silent') as 'silent',
      base: { namespace: options.namespace },
    }),
    namespace: options.namespace,
    qps: 200,
    burst: 200,
    freezeCache: true,
    gracefulShutdownTimeoutMs: options.gracefulShutdownTimeoutMs ?? 5000,
    requestObservers: options.requestObservers,
    sharding: options.sharding,
    rateLimiter: options.rateLimiter,
  });
  options.setup(manager);
  const stop = new AbortController();
  const running = manager.start(stop.signal);
  return {
    manager,
    stop: async () => {
      stop.abort();
      await running;
    },
  };
}

/** Polls `read` until `check` holds, with `waitFor` of the caller's choice (the local cluster's). */
export type WaitFor = <T>(
  probe: () => Promise<T | undefined>,
  options: { description: string; timeoutMs?: number },
) => Promise<T>;

/** Waits until the object satisfies `check`, and returns it. */
export function waitForObject<T extends KubeObject>(
  input: { readonly client: Client; readonly resource: ResourceType<T>; readonly waitFor: WaitFor },
  options: {
    readonly namespace: string;
    readonly name: string;
    readonly description: string;
    readonly timeoutMs?: number;
  },
  check: (object: T) => boolean,
): Promise<T> {
  return input.waitFor(
    async () => {
      const object = await input.client.get(input.resource, { namespace: options.namespace, name: options.name });
      return check(object) ? object : undefined;
    },
    { description: options.description, timeoutMs: options.timeoutMs ?? 60_000 },
  );
}

/** A workload as `replicaCountsReached` reads it. */
export interface ReplicatedObject {
  readonly metadata: { readonly generation?: number | undefined };
  readonly spec: { readonly replicas: number };
  readonly status?: { readonly observedGeneration?: number | undefined } | undefined;
}

/** The status has observed the spec and each of `counts` equals `spec.replicas`. */
export function replicaCountsReached<T extends ReplicatedObject>(
  object: T,
  counts: readonly (keyof NonNullable<T['status']> & string)[],
): boolean {
  const status = object.status as Readonly<Record<string, unknown>> | undefined;
  return (
    status !== undefined &&
    status['observedGeneration'] === object.metadata.generation &&
    counts.every((count) => status[count] === object.spec.replicas)
  );
}
