/**
 * controller-runtime's webhook metrics (pkg/webhook/internal/metrics), same names, help, labels and
 * (Prometheus' default) buckets, so that dashboards of controller-runtime webhooks work unchanged.
 * `webhook` is the path the handler is registered at, `code` the HTTP status code of the answer.
 * And kruise-ts' own count of what conversions ignored in the objects' conversion records.
 */
import { Counter, Gauge, Histogram } from 'prom-client';
import type { Registry } from 'prom-client';

import type { ConversionObserver } from './conversion-review.ts';
import type { RequestObserver } from './https-webhook-listener.ts';

export interface WebhookMetrics {
  /** `controller_runtime_webhook_requests_total{webhook,code}`. */
  readonly requests: Counter<'webhook' | 'code'>;
  /** `controller_runtime_webhook_latency_seconds{webhook,code}`. */
  readonly latency: Histogram<'webhook' | 'code'>;
  /** `controller_runtime_webhook_requests_in_flight{webhook}`. */
  readonly inFlight: Gauge<'webhook'>;
  /**
   * `kruise_ts_conversion_ignored_record_entries_total{kind}`: entries of conversion records (the
   * user-writable `conversion.kruise-ts.io/<version>` annotation) not restored: not a field the kind
   * restores, a value its schema refuses, a stale record, or an unreadable one (one entry).
   */
  readonly conversionIgnoredRecordEntries: Counter<'kind'>;
}

/** Registers the webhook metrics on `registry` (once per registry: names registered twice throw). */
export function createWebhookMetrics(registry: Registry): WebhookMetrics {
  const registers = [registry];
  return {
    requests: new Counter({
      name: 'controller_runtime_webhook_requests_total',
      help: 'Total number of admission requests by HTTP status code.',
      labelNames: ['webhook', 'code'] as const,
      registers,
    }),
    latency: new Histogram({
      name: 'controller_runtime_webhook_latency_seconds',
      help: 'Histogram of the latency of processing admission requests',
      labelNames: ['webhook', 'code'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    inFlight: new Gauge({
      name: 'controller_runtime_webhook_requests_in_flight',
      help: 'Current number of admission requests being served.',
      labelNames: ['webhook'] as const,
      registers,
    }),
    conversionIgnoredRecordEntries: new Counter({
      name: 'kruise_ts_conversion_ignored_record_entries_total',
      help: 'Entries of conversion records (the conversion.kruise-ts.io/<version> annotation) a conversion did not restore: not restorable, invalid, stale or unreadable.',
      labelNames: ['kind'] as const,
      registers,
    }),
  };
}

/** Counts what conversions ignored in the objects' conversion records. */
export function conversionMetricsObserver(metrics: WebhookMetrics): ConversionObserver {
  return (kind, ignoredRecordEntries) => {
    metrics.conversionIgnoredRecordEntries.inc({ kind }, ignoredRecordEntries);
  };
}

/** Keeps the metrics of every request the listener reports. */
export function metricsObserver(metrics: WebhookMetrics): RequestObserver {
  return {
    started: (path) => {
      metrics.inFlight.inc({ webhook: path });
    },
    finished: (path, code, seconds) => {
      const labels = { webhook: path, code: String(code) };
      metrics.inFlight.dec({ webhook: path });
      metrics.requests.inc(labels);
      metrics.latency.observe(labels, seconds);
    },
  };
}
