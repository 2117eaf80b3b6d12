/**
 * The runtime's Prometheus metrics, named, labelled, described and bucketed exactly as in
 * controller-runtime (pkg/internal/controller/metrics/metrics.go, pkg/internal/metrics/workqueue.go,
 * pkg/metrics/client_go_adapter.go, pkg/metrics/leaderelection.go) so that existing dashboards and
 * alerts for kube-controller-manager, controller-runtime operators and OpenKruise work unchanged.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

import type { WorkQueueMetrics } from '../queue/work-queue-metrics.ts';
import { createWorkQueueCollectors } from './workqueue-metrics.ts';
import type { WorkQueueLabel } from './workqueue-metrics.ts';

/** Values of the `result` label of `controller_runtime_reconcile_total`. */
export type ReconcileResultLabel = 'success' | 'error' | 'requeue' | 'requeue_after';

/** Buckets of `controller_runtime_reconcile_time_seconds`: 5 ms … 60 s, as controller-runtime. */
export const RECONCILE_TIME_BUCKETS: readonly number[] = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.25, 1.5, 1.75,
  2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60,
];

/** Buckets of the REST client latency histograms: 5 ms … 60 s, as client-go / controller-runtime. */
export const REST_CLIENT_DURATION_BUCKETS: readonly number[] = [
  0.005, 0.025, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 15.0, 30.0, 60.0,
];

/** Every metric the runtime exports, registered on one registry. */
export interface RuntimeMetrics {
  /** The registry all metrics below are registered on; serve `registry.metrics()` on `/metrics`. */
  readonly registry: Registry;

  /** `controller_runtime_reconcile_total{controller,result}`; `result` is a `ReconcileResultLabel`. */
  readonly reconcileTotal: Counter<'controller' | 'result'>;
  /** `controller_runtime_reconcile_errors_total{controller}`: reconciles that returned or threw an error. */
  readonly reconcileErrors: Counter<'controller'>;
  /** `controller_runtime_terminal_reconcile_errors_total{controller}`: errors marked terminal (not retried). */
  readonly terminalReconcileErrors: Counter<'controller'>;
  /** `controller_runtime_reconcile_panics_total{controller}`: unexpected throws caught by the worker loop. */
  readonly reconcilePanics: Counter<'controller'>;
  /** `controller_runtime_reconcile_timeouts_total{controller}`: reconciles cut off by the reconcile timeout. */
  readonly reconcileTimeouts: Counter<'controller'>;
  /** `controller_runtime_reconcile_time_seconds{controller}`: duration of each reconcile. */
  readonly reconcileTime: Histogram<'controller'>;
  /** `controller_runtime_max_concurrent_reconciles{controller}`: configured worker count. */
  readonly maxConcurrentReconciles: Gauge<'controller'>;
  /** `controller_runtime_active_workers{controller}`: workers currently inside a reconcile. */
  readonly activeWorkers: Gauge<'controller'>;

  /** `workqueue_depth{name,controller,priority}` (filled at scrape time; `priority` is empty). */
  readonly workQueueDepth: Gauge<WorkQueueLabel | 'priority'>;
  /** `workqueue_adds_total{name,controller}`. */
  readonly workQueueAdds: Counter<WorkQueueLabel>;
  /** `workqueue_queue_duration_seconds{name,controller}`: time an item waited before a worker took it. */
  readonly workQueueQueueDuration: Histogram<WorkQueueLabel>;
  /** `workqueue_work_duration_seconds{name,controller}`: time a worker held an item. */
  readonly workQueueWorkDuration: Histogram<WorkQueueLabel>;
  /** `workqueue_unfinished_work_seconds{name,controller}` (filled at scrape time). */
  readonly workQueueUnfinishedWork: Gauge<WorkQueueLabel>;
  /** `workqueue_longest_running_processor_seconds{name,controller}` (filled at scrape time). */
  readonly workQueueLongestRunningProcessor: Gauge<WorkQueueLabel>;
  /** `workqueue_retries_total{name,controller}`: rate-limited requeues (not delayed adds, as in client-go). */
  readonly workQueueRetries: Counter<WorkQueueLabel>;

  /** `rest_client_requests_total{code,method,host}`: API requests by HTTP status code and method. */
  readonly restClientRequests: Counter<'code' | 'method' | 'host'>;
  /** `rest_client_request_duration_seconds{verb,host}`: API request latency. */
  readonly restClientRequestDuration: Histogram<'verb' | 'host'>;
  /** `rest_client_rate_limiter_duration_seconds{verb,host}`: time spent waiting for the client's token bucket. */
  readonly restClientRateLimiterDuration: Histogram<'verb' | 'host'>;
  /** `kruise_ts_client_decode_errors_total{resource}`: protobuf answers (gets, lists, watch frames) that did not decode. */
  readonly clientDecodeErrors: Counter<'resource'>;

  /** `leader_election_master_status{name}`: 1 while this process holds the lease `name`, else 0. */
  readonly leaderElectionMasterStatus: Gauge<'name'>;

  /** The metrics provider of the work queue `name` (pass it as `createWorkQueue({ metrics })`). */
  workQueueMetrics(name: string): WorkQueueMetrics;
}

type ControllerMetrics = Pick<
  RuntimeMetrics,
  | 'reconcileTotal'
  | 'reconcileErrors'
  | 'terminalReconcileErrors'
  | 'reconcilePanics'
  | 'reconcileTimeouts'
  | 'reconcileTime'
  | 'maxConcurrentReconciles'
  | 'activeWorkers'
>;

type ClientMetrics = Pick<
  RuntimeMetrics,
  'restClientRequests' | 'restClientRequestDuration' | 'restClientRateLimiterDuration' | 'clientDecodeErrors'
>;

/**
 * Creates and registers the runtime metrics on `registry` (a new, private `Registry` by default; never
 * prom-client's global one, so that two managers in one process or two tests never collide). Call it
 * once per registry: registering the same names twice throws.
 */
export function createRuntimeMetrics(registry: Registry = new Registry()): RuntimeMetrics {
  const workQueue = createWorkQueueCollectors(registry);
  return {
    registry,
    ...createControllerMetrics(registry),
    workQueueDepth: workQueue.depth,
    workQueueAdds: workQueue.adds,
    workQueueQueueDuration: workQueue.queueDuration,
    workQueueWorkDuration: workQueue.workDuration,
    workQueueUnfinishedWork: workQueue.unfinishedWork,
    workQueueLongestRunningProcessor: workQueue.longestRunningProcessor,
    workQueueRetries: workQueue.retries,
    ...createClientMetrics(registry),
    leaderElectionMasterStatus: new Gauge({
      name: 'leader_election_master_status',
      help: "Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. 'name' is the string used to identify the lease. Please make sure to group by name.",
      labelNames: ['name'] as const,
      registers: [registry],
    }),
    workQueueMetrics: (name: string): WorkQueueMetrics => workQueue.forQueue(name),
  };
}

function createControllerMetrics(registry: Registry): ControllerMetrics {
  const registers = [registry];
  const labelNames = ['controller'] as const;
  const counter = (name: string, help: string): Counter<'controller'> =>
    new Counter({ name, help, labelNames, registers });
  const gauge = (name: string, help: string): Gauge<'controller'> => new Gauge({ name, help, labelNames, registers });
  return {
    reconcileTotal: new Counter({
      name: 'controller_runtime_reconcile_total',
      help: 'Total number of reconciliations per controller',
      labelNames: ['controller', 'result'] as const,
      registers,
    }),
    reconcileErrors: counter(
      'controller_runtime_reconcile_errors_total',
      'Total number of reconciliation errors per controller',
    ),
    terminalReconcileErrors: counter(
      'controller_runtime_terminal_reconcile_errors_total',
      'Total number of terminal reconciliation errors per controller',
    ),
    reconcilePanics: counter(
      'controller_runtime_reconcile_panics_total',
      'Total number of reconciliation panics per controller',
    ),
    reconcileTimeouts: counter(
      'controller_runtime_reconcile_timeouts_total',
      'Total number of reconciliation timeouts per controller',
    ),
    reconcileTime: new Histogram({
      name: 'controller_runtime_reconcile_time_seconds',
      help: 'Length of time per reconciliation per controller',
      labelNames,
      buckets: [...RECONCILE_TIME_BUCKETS],
      registers,
    }),
    maxConcurrentReconciles: gauge(
      'controller_runtime_max_concurrent_reconciles',
      'Maximum number of concurrent reconciles per controller',
    ),
    activeWorkers: gauge('controller_runtime_active_workers', 'Number of currently used workers per controller'),
  };
}

function createClientMetrics(registry: Registry): ClientMetrics {
  const registers = [registry];
  return {
    restClientRequests: new Counter({
      name: 'rest_client_requests_total',
      help: 'Number of HTTP requests, partitioned by status code, method, and host.',
      labelNames: ['code', 'method', 'host'] as const,
      registers,
    }),
    restClientRequestDuration: new Histogram({
      name: 'rest_client_request_duration_seconds',
      help: 'Request latency in seconds. Broken down by verb and host.',
      labelNames: ['verb', 'host'] as const,
      buckets: [...REST_CLIENT_DURATION_BUCKETS],
      registers,
    }),
    restClientRateLimiterDuration: new Histogram({
      name: 'rest_client_rate_limiter_duration_seconds',
      help: 'Client side rate limiter latency in seconds. Broken down by verb, and host.',
      labelNames: ['verb', 'host'] as const,
      buckets: [...REST_CLIENT_DURATION_BUCKETS],
      registers,
    }),
    clientDecodeErrors: new Counter({
      name: 'kruise_ts_client_decode_errors_total',
      help: 'Protobuf answers of the API server (gets, lists, watch frames) that did not decode; the read failed and was retried.',
      labelNames: ['resource'] as const,
      registers,
    }),
  };
}
