/**
 * The webhook's latency as its two ends record it: kube-apiserver's
 * `apiserver_admission_webhook_admission_duration_seconds` (the whole call: connection, TLS, request,
 * our handler and the answer) and our launcher's `controller_runtime_webhook_latency_seconds` (the
 * handler alone, which includes its dry-run pod create). Both as increases over the loop's window.
 */
import { histogramBuckets, parsePrometheusText, subtractBuckets } from '../collect/index.ts';
import type { HistogramBucket } from '../collect/index.ts';
import type { ProfileSource } from '../measure/apiserver-profile.ts';
import { apiServerMetricsText, windowHistogram } from '../measure/injection.ts';
import type { WebhookHistogram } from './result.ts';
import { quantileBucketBound } from './stats.ts';

export const ADMISSION_DURATION = 'apiserver_admission_webhook_admission_duration_seconds';
export const WEBHOOK_LATENCY = 'controller_runtime_webhook_latency_seconds';

/** The webhook's CREATE calls in kube-apiserver's histogram; undefined when /metrics cannot be read. */
export async function apiServerWebhookBuckets(
  source: ProfileSource,
  webhookName: string,
): Promise<HistogramBucket[] | undefined> {
  return apiServerMetricsText(source).then(
    (text) =>
      histogramBuckets(parsePrometheusText(text), ADMISSION_DURATION, {
        name: webhookName,
        type: 'validating',
        operation: 'CREATE',
      }),
    () => undefined,
  );
}

/** The window's histogram with the bound of the bucket holding its p99. */
export function webhookHistogram(buckets: readonly HistogramBucket[]): WebhookHistogram {
  const bound = quantileBucketBound(0.99, buckets);
  return { ...windowHistogram(buckets), ...(bound === undefined ? {} : { p99AtMostSeconds: bound }) };
}

/** The increase between two reads of kube-apiserver's histogram; undefined when either failed. */
export function apiServerIncrease(
  before: readonly HistogramBucket[] | undefined,
  after: readonly HistogramBucket[] | undefined,
): WebhookHistogram | undefined {
  return before === undefined || after === undefined ? undefined : webhookHistogram(subtractBuckets(after, before));
}
