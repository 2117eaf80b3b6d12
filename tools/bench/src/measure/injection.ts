/**
 * sidecarset-scale's figures of a phase: whether the pods carry the sidecar, and the pod webhook's
 * latency seen from three sides: the contender's webhook server (controller-runtime's
 * `controller_runtime_webhook_latency_seconds`), kube-apiserver
 * (`apiserver_admission_webhook_admission_duration_seconds`, the call with its connection and TLS),
 * and the audit log's pod creates (the whole request, the webhook call included).
 */
import type { IncomingMessage } from 'node:http';
import https from 'node:https';

import {
  histogramBuckets,
  histogramQuantile,
  parsePrometheusText,
  readAuditLog,
  resourceName,
  subtractBuckets,
} from '../collect/index.ts';
import type { AuditSelector, HistogramBucket } from '../collect/index.ts';
import type { InjectionStats, WindowHistogram } from '../result.ts';
import type { InjectionProbe, ScenarioContext } from '../scenarios/scenario.ts';
import { countSidecars } from '../scenarios/sidecarset-scale.ts';
import { apiServerCredentials } from './apiserver-profile.ts';
import type { ProfileSource } from './apiserver-profile.ts';
import type { MetricsScraper } from './metrics-scraper.ts';

const WEBHOOK_LATENCY = 'controller_runtime_webhook_latency_seconds';
const ADMISSION_DURATION = 'apiserver_admission_webhook_admission_duration_seconds';

/** kube-apiserver's /metrics text, with the admin credentials of `source`. */
export async function apiServerMetricsText(source: ProfileSource): Promise<string> {
  const { server, ca, token } = apiServerCredentials(source);
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    https
      .get(new URL('/metrics', server), { ca, headers: { Authorization: `Bearer ${token}` } }, resolve)
      .on('error', reject);
  });
  if (response.statusCode !== 200) {
    response.resume();
    throw new Error(`kube-apiserver /metrics: HTTP ${String(response.statusCode)}`);
  }
  response.setEncoding('utf8');
  let text = '';
  for await (const chunk of response) {
    text += chunk as string;
  }
  return text;
}

/** The buckets of the pod webhook's admission duration in kube-apiserver; undefined when they cannot be read. */
async function admissionBuckets(
  source: ProfileSource,
  probe: InjectionProbe,
): Promise<{ readonly webhook: HistogramBucket[]; readonly reference: HistogramBucket[] | undefined } | undefined> {
  return apiServerMetricsText(source).then(
    (text) => {
      const samples = parsePrometheusText(text);
      const reference =
        probe.referenceWebhookName === undefined
          ? undefined
          : histogramBuckets(samples, ADMISSION_DURATION, { name: probe.referenceWebhookName });
      return { webhook: histogramBuckets(samples, ADMISSION_DURATION, { name: probe.webhookName }), reference };
    },
    () => undefined,
  );
}

/** The window's admission durations of the contender's webhook and of the reference webhook. */
function admissionWindow(
  before: Awaited<ReturnType<typeof admissionBuckets>>,
  after: Awaited<ReturnType<typeof admissionBuckets>>,
): Pick<InjectionStats, 'apiServerAdmission' | 'referenceAdmission'> {
  if (before === undefined || after === undefined) {
    return {};
  }
  const reference =
    before.reference === undefined || after.reference === undefined
      ? {}
      : { referenceAdmission: windowHistogram(subtractBuckets(after.reference, before.reference)) };
  return { apiServerAdmission: windowHistogram(subtractBuckets(after.webhook, before.webhook)), ...reference };
}

/** The scenario's probe with the pod webhook's name the contender gives it in its configuration (OpenKruise's `mpod.kb.io`); ours by default. */
export function probeOfContender(
  probe: InjectionProbe,
  contender: { readonly podWebhookName?: string },
): InjectionProbe {
  return contender.podWebhookName === undefined ? probe : { ...probe, webhookName: contender.podWebhookName };
}

/** A window's histogram: its count, PromQL's p50 and p99 and the buckets (none when nothing was observed). */
export function windowHistogram(buckets: readonly HistogramBucket[]): WindowHistogram {
  const count = buckets.at(-1)?.count ?? 0;
  const p50Seconds = histogramQuantile(0.5, buckets);
  const p99Seconds = histogramQuantile(0.99, buckets);
  return {
    count,
    ...(p50Seconds === undefined ? {} : { p50Seconds }),
    ...(p99Seconds === undefined ? {} : { p99Seconds }),
    buckets: buckets.map(({ le, count: observed }) => ({ le, count: observed })),
  };
}

/** The contender's pod creates (its other requests left out). */
function podCreates(contender: AuditSelector): AuditSelector {
  return (event) => contender(event) && event.verb === 'create' && resourceName(event) === 'pods';
}

export interface InjectionWindowInput {
  readonly probe: InjectionProbe;
  readonly context: Pick<ScenarioContext, 'client' | 'namespace'>;
  readonly scraper: MetricsScraper;
  readonly cluster: ProfileSource;
}

/** What the window's end needs: the audit log's range of the window and the contender's requests. */
export interface InjectionWindowEnd {
  readonly sidecarSet: boolean;
  readonly auditLog: string;
  readonly auditRange: { readonly fromOffset: number; readonly toOffset: number };
  readonly select: AuditSelector;
}

/** Starts a phase's window (call it as the change starts); `end` reads the figures once the workload settled. */
export async function startInjectionWindow(
  input: InjectionWindowInput,
): Promise<{ end: (window: InjectionWindowEnd) => Promise<InjectionStats> }> {
  const admissionBefore = await admissionBuckets(input.cluster, input.probe);
  return {
    async end(window) {
      const webhook = await input.scraper.histogramIncrease(WEBHOOK_LATENCY, { webhook: input.probe.webhookPath });
      const admissionAfter = await admissionBuckets(input.cluster, input.probe);
      const pods = await countSidecars(input.context, input.probe.container);
      const creates = await readAuditLog(window.auditLog, podCreates(window.select), {
        podsTouched: 1,
        ...window.auditRange,
      });
      return {
        sidecarSet: window.sidecarSet,
        podsWithSidecar: pods.withSidecar,
        podsWithoutSidecar: pods.withoutSidecar,
        webhookLatency: windowHistogram(webhook),
        ...admissionWindow(admissionBefore, admissionAfter),
        podCreateLatency: creates.mutatingLatency,
      };
    },
  };
}

/** Why a phase whose pods went through the SidecarSet webhook failed; undefined when none escaped it (or there was no such phase). */
export function injectionFailure(stats: InjectionStats | undefined): string | undefined {
  if (stats === undefined) {
    return undefined;
  }
  const total = stats.podsWithSidecar + stats.podsWithoutSidecar;
  if (stats.sidecarSet && stats.podsWithoutSidecar > 0) {
    return `${String(stats.podsWithoutSidecar)} of ${String(total)} pods were admitted without the SidecarSet's container (the webhook failed open for them)`;
  }
  if (!stats.sidecarSet && stats.podsWithSidecar > 0) {
    return `${String(stats.podsWithSidecar)} of ${String(total)} pods got a sidecar with no SidecarSet`;
  }
  return undefined;
}
