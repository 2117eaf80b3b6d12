import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';

import { RECONCILE_TIME_BUCKETS, REST_CLIENT_DURATION_BUCKETS, createRuntimeMetrics } from './runtime-metrics.ts';
import type { RuntimeMetrics } from './runtime-metrics.ts';
import { WORKQUEUE_DURATION_BUCKETS } from './workqueue-metrics.ts';

type MetricMember = Exclude<keyof RuntimeMetrics, 'registry' | 'workQueueMetrics'>;

interface Expected {
  readonly member: MetricMember;
  readonly name: string;
  readonly type: 'counter' | 'gauge' | 'histogram';
  readonly labels: readonly string[];
  readonly help: string;
  readonly buckets?: readonly number[];
}

const WQ = ['name', 'controller'];

/** controller-runtime's definitions, transcribed independently of the implementation. */
const EXPECTED: readonly Expected[] = [
  {
    member: 'reconcileTotal',
    name: 'controller_runtime_reconcile_total',
    type: 'counter',
    labels: ['controller', 'result'],
    help: 'Total number of reconciliations per controller',
  },
  {
    member: 'reconcileErrors',
    name: 'controller_runtime_reconcile_errors_total',
    type: 'counter',
    labels: ['controller'],
    help: 'Total number of reconciliation errors per controller',
  },
  {
    member: 'terminalReconcileErrors',
    name: 'controller_runtime_terminal_reconcile_errors_total',
    type: 'counter',
    labels: ['controller'],
    help: 'Total number of terminal reconciliation errors per controller',
  },
  {
    member: 'reconcilePanics',
    name: 'controller_runtime_reconcile_panics_total',
    type: 'counter',
    labels: ['controller'],
    help: 'Total number of reconciliation panics per controller',
  },
  {
    member: 'reconcileTimeouts',
    name: 'controller_runtime_reconcile_timeouts_total',
    type: 'counter',
    labels: ['controller'],
    help: 'Total number of reconciliation timeouts per controller',
  },
  {
    member: 'reconcileTime',
    name: 'controller_runtime_reconcile_time_seconds',
    type: 'histogram',
    labels: ['controller'],
    help: 'Length of time per reconciliation per controller',
    buckets: [
      0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.25, 1.5, 1.75,
      2, 2.5, 3, 3.5, 4, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60,
    ],
  },
  {
    member: 'maxConcurrentReconciles',
    name: 'controller_runtime_max_concurrent_reconciles',
    type: 'gauge',
    labels: ['controller'],
    help: 'Maximum number of concurrent reconciles per controller',
  },
  {
    member: 'activeWorkers',
    name: 'controller_runtime_active_workers',
    type: 'gauge',
    labels: ['controller'],
    help: 'Number of currently used workers per controller',
  },
  {
    member: 'workQueueDepth',
    name: 'workqueue_depth',
    type: 'gauge',
    labels: ['name', 'controller', 'priority'],
    help: 'Current depth of workqueue by workqueue and priority',
  },
  {
    member: 'workQueueAdds',
    name: 'workqueue_adds_total',
    type: 'counter',
    labels: WQ,
    help: 'Total number of adds handled by workqueue',
  },
  {
    member: 'workQueueQueueDuration',
    name: 'workqueue_queue_duration_seconds',
    type: 'histogram',
    labels: WQ,
    help: 'How long in seconds an item stays in workqueue before being requested',
    buckets: WORKQUEUE_DURATION_BUCKETS,
  },
  {
    member: 'workQueueWorkDuration',
    name: 'workqueue_work_duration_seconds',
    type: 'histogram',
    labels: WQ,
    help: 'How long in seconds processing an item from workqueue takes.',
    buckets: WORKQUEUE_DURATION_BUCKETS,
  },
  {
    member: 'workQueueUnfinishedWork',
    name: 'workqueue_unfinished_work_seconds',
    type: 'gauge',
    labels: WQ,
    help: "How many seconds of work has been done that is in progress and hasn't been observed by work_duration. Large values indicate stuck threads. One can deduce the number of stuck threads by observing the rate at which this increases.",
  },
  {
    member: 'workQueueLongestRunningProcessor',
    name: 'workqueue_longest_running_processor_seconds',
    type: 'gauge',
    labels: WQ,
    help: 'How many seconds has the longest running processor for workqueue been running.',
  },
  {
    member: 'workQueueRetries',
    name: 'workqueue_retries_total',
    type: 'counter',
    labels: WQ,
    help: 'Total number of items added to the workqueue with a non-zero delay (rate-limited requeues, explicit RequeueAfter or AddAfter calls)',
  },
  {
    member: 'restClientRequests',
    name: 'rest_client_requests_total',
    type: 'counter',
    labels: ['code', 'method', 'host'],
    help: 'Number of HTTP requests, partitioned by status code, method, and host.',
  },
  {
    member: 'restClientRequestDuration',
    name: 'rest_client_request_duration_seconds',
    type: 'histogram',
    labels: ['verb', 'host'],
    help: 'Request latency in seconds. Broken down by verb and host.',
    buckets: [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60],
  },
  {
    member: 'restClientRateLimiterDuration',
    name: 'rest_client_rate_limiter_duration_seconds',
    type: 'histogram',
    labels: ['verb', 'host'],
    help: 'Client side rate limiter latency in seconds. Broken down by verb, and host.',
    buckets: [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60],
  },
  {
    member: 'clientDecodeErrors',
    name: 'kruise_ts_client_decode_errors_total',
    type: 'counter',
    labels: ['resource'],
    help: 'Protobuf answers of the API server (gets, lists, watch frames) that did not decode; the read failed and was retried.',
  },
  {
    member: 'leaderElectionMasterStatus',
    name: 'leader_election_master_status',
    type: 'gauge',
    labels: ['name'],
    help: "Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. 'name' is the string used to identify the lease. Please make sure to group by name.",
  },
];

/** prom-client keeps label names and buckets on the metric object without typing them. */
interface MetricInternals {
  readonly labelNames: readonly string[];
  readonly upperBounds?: readonly number[];
}

describe('createRuntimeMetrics', () => {
  it('registers exactly the expected metrics on a fresh registry, not on the global one', async () => {
    const metrics = createRuntimeMetrics();
    expect(metrics.registry).toBeInstanceOf(Registry);
    const registered = (await metrics.registry.getMetricsAsJSON()).map((metric) => metric.name).sort();
    expect(registered).toEqual(EXPECTED.map((expected) => expected.name).sort());
    // A second set on its own registry does not collide with the first.
    expect(() => createRuntimeMetrics()).not.toThrow();
  });

  it('uses the given registry', async () => {
    const registry = new Registry();
    const metrics = createRuntimeMetrics(registry);
    expect(metrics.registry).toBe(registry);
    expect(await registry.getSingleMetricAsString('workqueue_depth')).toContain('# TYPE workqueue_depth gauge');
  });

  it.each(EXPECTED)('$name: type, help, labels and buckets as controller-runtime', async (expected) => {
    const metrics = createRuntimeMetrics();
    const metric = metrics[expected.member];
    const json = (await metrics.registry.getMetricsAsJSON()).find((candidate) => candidate.name === expected.name);
    expect(json).toMatchObject({ name: expected.name, type: expected.type, help: expected.help });
    const internals = metric as unknown as MetricInternals;
    expect(internals.labelNames).toEqual(expected.labels);
    if (expected.buckets !== undefined) {
      expect(internals.upperBounds).toEqual(expected.buckets);
    }
    const text = await metrics.registry.metrics();
    expect(text).toContain(
      `# HELP ${expected.name} ${expected.help.replace(/\\/g, '\\\\')}\n# TYPE ${expected.name} ${expected.type}`,
    );
  });

  it('exports the bucket constants as defined upstream', () => {
    expect(RECONCILE_TIME_BUCKETS).toHaveLength(40);
    expect(REST_CLIENT_DURATION_BUCKETS).toEqual([0.005, 0.025, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60]);
    // Go's ExponentialBuckets(10e-9, 10, 12) multiplies repeatedly; so must we, to match `le` exactly.
    let bound = 10e-9;
    const go: number[] = [];
    for (let i = 0; i < 12; i++) {
      go.push(bound);
      bound *= 10;
    }
    expect(WORKQUEUE_DURATION_BUCKETS).toEqual(go);
    expect(WORKQUEUE_DURATION_BUCKETS[0]).toBe(1e-8);
    expect(WORKQUEUE_DURATION_BUCKETS[11]).toBeCloseTo(1000);
  });

  it('exposes recorded samples with their labels in the text format', async () => {
    const metrics = createRuntimeMetrics();
    metrics.reconcileTotal.inc({ controller: 'cloneset', result: 'requeue_after' });
    metrics.reconcileTime.observe({ controller: 'cloneset' }, 0.2);
    metrics.restClientRequests.inc({ code: '200', method: 'GET', host: '127.0.0.1:6443' });
    metrics.leaderElectionMasterStatus.set({ name: 'kruise-manager' }, 1);
    const text = await metrics.registry.metrics();
    expect(text).toContain('controller_runtime_reconcile_total{controller="cloneset",result="requeue_after"} 1');
    expect(text).toContain('controller_runtime_reconcile_time_seconds_bucket{le="0.2",controller="cloneset"} 1');
    expect(text).toContain('rest_client_requests_total{code="200",method="GET",host="127.0.0.1:6443"} 1');
    expect(text).toContain('leader_election_master_status{name="kruise-manager"} 1');
  });
});
