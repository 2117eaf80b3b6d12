/**
 * Metrics of the expectation stores: a key that waits for the cache to show a write is otherwise
 * invisible (its reconciles end early with a debug line), so a rollout stuck on one looks idle.
 * controller-runtime has no expectations; these are ours, named in the style of its workqueue metrics
 * (a gauge of what waits now and of the oldest wait, filled at scrape time, and a histogram of how
 * long each wait took).
 */
import { Counter, Gauge, Histogram } from 'prom-client';
import type { Registry } from 'prom-client';

import type { ExpectationBacklog, ExpectationMetrics } from './expectation-metrics.ts';

/** Label names: the controller, and `scale` or `resource_version`. */
export type ExpectationLabel = 'controller' | 'kind';

/** The kinds of expectation store. */
export type ExpectationKind = 'scale' | 'resource_version';

/**
 * Buckets of `kruise_ts_expectations_wait_duration_seconds`: 5 ms (a watch event on an idle machine)
 * to 10 min (past the default 5 min timeout, where a wait ends by being dropped).
 */
export const EXPECTATION_WAIT_BUCKETS: readonly number[] = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600,
];

/** The expectation metrics on one registry. */
export interface ExpectationCollectors {
  /** `kruise_ts_expectations_timeouts_total{controller,kind}`. */
  readonly timeouts: Counter<ExpectationLabel>;
  /** `kruise_ts_expectations_unsatisfied{controller,kind}`, computed at scrape time. */
  readonly unsatisfied: Gauge<ExpectationLabel>;
  /** `kruise_ts_expectations_oldest_unsatisfied_seconds{controller,kind}`, computed at scrape time. */
  readonly oldestUnsatisfied: Gauge<ExpectationLabel>;
  /** `kruise_ts_expectations_wait_duration_seconds{controller,kind}`. */
  readonly waitDuration: Histogram<ExpectationLabel>;
  /** The provider one store reports to. */
  forStore(controller: string, kind: ExpectationKind): ExpectationMetrics;
}

type BacklogReaders = Map<
  string,
  { readonly labels: Record<ExpectationLabel, string>; readonly read: () => ExpectationBacklog }
>;

const collectorsByRegistry = new WeakMap<Registry, ExpectationCollectors>();

/**
 * The expectation metrics of `registry`, registered on first use: every controller of a process
 * reports on the one registry of its manager, and registering a name twice throws.
 */
export function expectationCollectorsOf(registry: Registry): ExpectationCollectors {
  let collectors = collectorsByRegistry.get(registry);
  if (collectors === undefined) {
    collectors = createExpectationCollectors(registry);
    collectorsByRegistry.set(registry, collectors);
  }
  return collectors;
}

function createExpectationCollectors(registry: Registry): ExpectationCollectors {
  const readers: BacklogReaders = new Map();
  const registers = [registry];
  const labelNames = ['controller', 'kind'] as const;
  const scrapeTimeGauge = (
    name: string,
    help: string,
    value: (backlog: ExpectationBacklog) => number,
  ): Gauge<ExpectationLabel> =>
    new Gauge({
      name,
      help,
      labelNames,
      registers,
      collect(): void {
        for (const { labels, read } of readers.values()) {
          this.set(labels, value(read()));
        }
      },
    });
  const waitDuration = new Histogram({
    name: 'kruise_ts_expectations_wait_duration_seconds',
    help: 'How long in seconds a key waited from raising an expectation until the cache showed every expected change (or the expectation timed out)',
    labelNames,
    buckets: [...EXPECTATION_WAIT_BUCKETS],
    registers,
  });
  return {
    timeouts: new Counter({
      name: 'kruise_ts_expectations_timeouts_total',
      help: 'Total number of expectations that stayed unsatisfied longer than the expectation timeout and were dropped, per controller and kind',
      labelNames,
      registers,
    }),
    unsatisfied: scrapeTimeGauge(
      'kruise_ts_expectations_unsatisfied',
      'Number of keys (owners for scale expectations, objects for resource_version ones) waiting for the cache to show a change the controller made',
      (backlog) => backlog.waiting,
    ),
    oldestUnsatisfied: scrapeTimeGauge(
      'kruise_ts_expectations_oldest_unsatisfied_seconds',
      'How many seconds the key waiting longest has waited for the cache to show a change the controller made. Large values indicate a stuck key.',
      (backlog) => backlog.oldestWaitingMs / 1000,
    ),
    waitDuration,
    forStore: (controller, kind) => {
      const labels = { controller, kind };
      return {
        settled: (seconds) => {
          waitDuration.observe(labels, seconds);
        },
        bindBacklog: (read) => {
          readers.set(`${controller}\u0000${kind}`, { labels, read });
        },
      };
    },
  };
}
