/**
 * Scrapes a contender's /metrics endpoints (one per process) during a run: the peaks of the Node.js
 * heap and event-loop delay gauges, and the reconcile-time histogram's increase over the window.
 */
import {
  gaugeMax,
  histogramBuckets,
  histogramQuantile,
  parsePrometheusText,
  subtractBuckets,
} from '../collect/index.ts';
import type { HistogramBucket, MetricSample } from '../collect/index.ts';
import type { ControllerMetrics } from '../result.ts';

const RECONCILE_TIME = 'controller_runtime_reconcile_time_seconds';

export interface MetricsScraper {
  /** Starts the window: peaks reset, the histogram's current counts become the baseline. */
  markWindowStart(): Promise<void>;
  /** The figures since the window started (scrapes once more first). */
  snapshot(): Promise<ControllerMetrics>;
  /**
   * The increase since the window started of histogram `name` (its series with `labels`), summed over
   * the processes (scrapes once more first).
   */
  histogramIncrease(name: string, labels?: Readonly<Record<string, string>>): Promise<HistogramBucket[]>;
  /** Current heap used (summed over processes), for per-pod memory figures. */
  currentHeapUsedBytes(): Promise<number | undefined>;
  /**
   * Runs `measure` with no scrape of the contender: an idle window measures what the process does
   * on its own, and a scrape every 2 s (6 ms of CPU each for ours at 5,000 pods) would be most of it.
   */
  withoutScrapes<T>(measure: () => Promise<T>): Promise<T>;
  stop(): void;
}

async function scrape(url: string): Promise<MetricSample[]> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    return response.ok ? parsePrometheusText(await response.text()) : [];
  } catch {
    return [];
  }
}

function sumDefined(values: readonly (number | undefined)[]): number | undefined {
  const defined = values.filter((value): value is number => value !== undefined);
  return defined.length === 0 ? undefined : defined.reduce((sum, value) => sum + value, 0);
}

function maxDefined(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) {
    return b;
  }
  return b === undefined ? a : Math.max(a, b);
}

/** Scrapes every `intervalMs`; with no URLs every figure stays undefined. */
export function startMetricsScraper(urls: readonly string[], intervalMs: number): MetricsScraper {
  let peakHeap: number | undefined;
  let peakLag: number | undefined;
  let atWindowStart: MetricSample[][] = [];
  let latest: MetricSample[][] = [];
  const scrapeAll = async (): Promise<void> => {
    latest = await Promise.all(urls.map(scrape));
    peakHeap = maxDefined(
      peakHeap,
      sumDefined(latest.map((samples) => gaugeMax(samples, 'nodejs_heap_size_used_bytes'))),
    );
    for (const samples of latest) {
      peakLag = maxDefined(peakLag, gaugeMax(samples, 'nodejs_eventloop_lag_p99_seconds'));
    }
  };
  const buckets = (
    scrapes: readonly MetricSample[][],
    name: string,
    labels: Readonly<Record<string, string>> = {},
  ): HistogramBucket[] => mergeBuckets(scrapes.map((samples) => histogramBuckets(samples, name, labels)));
  const increase = (name: string, labels?: Readonly<Record<string, string>>): HistogramBucket[] =>
    subtractBuckets(buckets(latest, name, labels), buckets(atWindowStart, name, labels));
  let scraping = Promise.resolve();
  let paused = false;
  const timer = setInterval(() => {
    if (!paused) {
      scraping = scraping.then(scrapeAll);
    }
  }, intervalMs);
  return {
    async withoutScrapes(measure) {
      paused = true;
      try {
        await scraping;
        return await measure();
      } finally {
        paused = false;
      }
    },
    async markWindowStart() {
      await scraping;
      await scrapeAll();
      peakHeap = undefined;
      peakLag = undefined;
      await scrapeAll();
      atWindowStart = latest;
    },
    async snapshot() {
      await scraping;
      await scrapeAll();
      const window = increase(RECONCILE_TIME);
      // The +Inf bucket counts every reconcile of the window.
      const reconciles = window.at(-1)?.count;
      return withoutUndefined({
        peakHeapUsedBytes: peakHeap,
        eventLoopDelayP99Seconds: peakLag,
        reconcileP50Seconds: histogramQuantile(0.5, window),
        reconcileP99Seconds: histogramQuantile(0.99, window),
        reconciles,
      });
    },
    async histogramIncrease(name, labels) {
      await scraping;
      await scrapeAll();
      return increase(name, labels);
    },
    async currentHeapUsedBytes() {
      await scraping;
      await scrapeAll();
      return sumDefined(latest.map((samples) => gaugeMax(samples, 'nodejs_heap_size_used_bytes')));
    },
    stop() {
      clearInterval(timer);
    },
  };
}

/** Adds the buckets of several processes per `le`. */
function mergeBuckets(lists: readonly HistogramBucket[][]): HistogramBucket[] {
  const counts = new Map<number, number>();
  for (const list of lists) {
    for (const bucket of list) {
      counts.set(bucket.le, (counts.get(bucket.le) ?? 0) + bucket.count);
    }
  }
  return [...counts].map(([le, count]) => ({ le, count })).sort((a, b) => a.le - b.le);
}

/** exactOptionalPropertyTypes: leave out what is unknown instead of writing `undefined`. */
function withoutUndefined(figures: Record<keyof ControllerMetrics, number | undefined>): ControllerMetrics {
  return Object.fromEntries(Object.entries(figures).filter(([, value]) => value !== undefined));
}
