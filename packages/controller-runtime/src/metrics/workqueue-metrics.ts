import { Counter, Gauge, Histogram, exponentialBuckets } from 'prom-client';
import type { Registry } from 'prom-client';

import type { WorkQueueMetrics, WorkQueueState } from '../queue/work-queue-metrics.ts';

/**
 * Buckets of the queue and work duration histograms: 10 ns … 1000 s by powers of ten, computed
 * exactly like Go's `prometheus.ExponentialBuckets(10e-9, 10, 12)` (repeated multiplication), so the
 * `le` values match controller-runtime's bit for bit.
 */
export const WORKQUEUE_DURATION_BUCKETS: readonly number[] = exponentialBuckets(10e-9, 10, 12);

/** Label names of the workqueue metrics; controller-runtime sets `controller` to the queue name. */
export type WorkQueueLabel = 'name' | 'controller';

/** The workqueue metrics of controller-runtime (`pkg/internal/metrics/workqueue.go`). */
export interface WorkQueueCollectors {
  /** `workqueue_depth{name,controller,priority}`; `priority` is always empty (no priority queue). */
  readonly depth: Gauge<WorkQueueLabel | 'priority'>;
  /** `workqueue_adds_total{name,controller}`. */
  readonly adds: Counter<WorkQueueLabel>;
  /** `workqueue_queue_duration_seconds{name,controller}`: time from add to get. */
  readonly queueDuration: Histogram<WorkQueueLabel>;
  /** `workqueue_work_duration_seconds{name,controller}`: time from get to done. */
  readonly workDuration: Histogram<WorkQueueLabel>;
  /** `workqueue_unfinished_work_seconds{name,controller}`, computed at scrape time. */
  readonly unfinishedWork: Gauge<WorkQueueLabel>;
  /** `workqueue_longest_running_processor_seconds{name,controller}`, computed at scrape time. */
  readonly longestRunningProcessor: Gauge<WorkQueueLabel>;
  /** `workqueue_retries_total{name,controller}`. */
  readonly retries: Counter<WorkQueueLabel>;
  /** The per-queue provider a work queue reports to. */
  forQueue(name: string): WorkQueueMetrics;
}

type StateReaders = Map<string, () => WorkQueueState>;

/**
 * Registers controller-runtime's workqueue metrics on `registry`. The three gauges are filled from
 * each queue's state when Prometheus scrapes (prom-client `collect`), which replaces client-go's
 * 500 ms update goroutine and costs nothing between scrapes.
 */
export function createWorkQueueCollectors(registry: Registry): WorkQueueCollectors {
  const readers: StateReaders = new Map();
  const registers = [registry];
  const labelNames = ['name', 'controller'] as const;
  const depth = new Gauge({
    name: 'workqueue_depth',
    help: 'Current depth of workqueue by workqueue and priority',
    labelNames: ['name', 'controller', 'priority'] as const,
    registers,
    collect(): void {
      for (const [name, read] of readers) {
        this.set({ name, controller: name, priority: '' }, read().depth);
      }
    },
  });
  const adds = new Counter({
    name: 'workqueue_adds_total',
    help: 'Total number of adds handled by workqueue',
    labelNames,
    registers,
  });
  const queueDuration = new Histogram({
    name: 'workqueue_queue_duration_seconds',
    help: 'How long in seconds an item stays in workqueue before being requested',
    labelNames,
    buckets: [...WORKQUEUE_DURATION_BUCKETS],
    registers,
  });
  const workDuration = new Histogram({
    name: 'workqueue_work_duration_seconds',
    help: 'How long in seconds processing an item from workqueue takes.',
    labelNames,
    buckets: [...WORKQUEUE_DURATION_BUCKETS],
    registers,
  });
  const unfinishedWork = scrapeTimeGauge({
    name: 'workqueue_unfinished_work_seconds',
    help:
      "How many seconds of work has been done that is in progress and hasn't been observed by work_duration. " +
      'Large values indicate stuck threads. One can deduce the number of stuck threads by observing the rate at which this increases.',
    registry,
    value: (read) => read().unfinishedWorkSeconds,
    readers,
  });
  const longestRunningProcessor = scrapeTimeGauge({
    name: 'workqueue_longest_running_processor_seconds',
    help: 'How many seconds has the longest running processor for workqueue been running.',
    registry,
    value: (read) => read().longestRunningProcessorSeconds,
    readers,
  });
  const retries = new Counter({
    name: 'workqueue_retries_total',
    help: 'Total number of items added to the workqueue with a non-zero delay (rate-limited requeues, explicit RequeueAfter or AddAfter calls)',
    labelNames,
    registers,
  });
  const forQueue = (name: string): WorkQueueMetrics => {
    const labels = { name, controller: name };
    return {
      added: () => {
        adds.inc(labels);
      },
      waited: (seconds) => {
        queueDuration.observe(labels, seconds);
      },
      processed: (seconds) => {
        workDuration.observe(labels, seconds);
      },
      retried: () => {
        retries.inc(labels);
      },
      bindState: (read) => {
        readers.set(name, read);
      },
    };
  };
  return { depth, adds, queueDuration, workDuration, unfinishedWork, longestRunningProcessor, retries, forQueue };
}

interface ScrapeTimeGaugeOptions {
  readonly name: string;
  readonly help: string;
  readonly registry: Registry;
  readonly readers: StateReaders;
  readonly value: (read: () => WorkQueueState) => number;
}

function scrapeTimeGauge(options: ScrapeTimeGaugeOptions): Gauge<WorkQueueLabel> {
  const { readers, value } = options;
  return new Gauge({
    name: options.name,
    help: options.help,
    labelNames: ['name', 'controller'] as const,
    registers: [options.registry],
    collect(): void {
      for (const [name, read] of readers) {
        this.set({ name, controller: name }, value(read));
      }
    },
  });
}
