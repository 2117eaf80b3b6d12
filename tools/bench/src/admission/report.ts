/** The admission run's tables, rendered from its JSON result alone (printed, and pasted into docs/benchmarks.md). */
import { formatLatency, formatNumber, groupThousands, MISSING, orMissing } from '../report/format.ts';
import { markdownTable } from '../report/markdown-table.ts';
import type { AdmissionPhase, AdmissionResult, WebhookHistogram } from './result.ts';
import { ADMISSION_DURATION, WEBHOOK_LATENCY } from './webhook-histograms.ts';
import type { MillisecondStats } from './stats.ts';

const RIGHT = 'right' as const;

function ms(value: number): string {
  return `${formatNumber(value)} ms`;
}

/** A difference, signed. */
function deltaMs(value: number): string {
  return `${value > 0 ? '+' : ''}${ms(value)}`;
}

function statsCells(stats: Omit<MillisecondStats, 'count'>, format: (value: number) => string): string[] {
  return [stats.p50Ms, stats.p90Ms, stats.p99Ms, stats.maxMs, stats.meanMs].map(format);
}

function clientTable(result: AdmissionResult): string {
  const columns = [
    { title: 'phase', align: 'left' as const },
    ...['creates', 'p50', 'p90', 'p99', 'max', 'mean', 'server-side p50 / p99 (audit log)', 'load before / after'].map(
      (title) => ({ title, align: RIGHT }),
    ),
  ];
  const rows = result.phases.map((phase) => [
    phase.name,
    groupThousands(phase.client.count),
    ...statsCells(phase.client, ms),
    `${ms(phase.server.p50Ms)} / ${ms(phase.server.p99Ms)}`,
    `${phase.loadAverage.before.toFixed(2)} / ${phase.loadAverage.after.toFixed(2)}`,
  ]);
  const adds = [
    'webhook adds',
    '',
    ...statsCells(result.webhookAdds, deltaMs),
    `${deltaMs(result.webhookAddsServerSide.p50Ms)} / ${deltaMs(result.webhookAddsServerSide.p99Ms)}`,
    '',
  ];
  return markdownTable(columns, [...rows, adds]);
}

function histogramRow(title: string, histogram: WebhookHistogram | undefined): string[] {
  if (histogram === undefined) {
    return [title, MISSING, MISSING, MISSING, MISSING];
  }
  return [
    title,
    groupThousands(histogram.count),
    orMissing(histogram.p50Seconds, formatLatency),
    orMissing(histogram.p99Seconds, formatLatency),
    orMissing(histogram.p99AtMostSeconds, (bound) => `≤ ${formatLatency(bound)}`),
  ];
}

function webhookTable(phase: AdmissionPhase): string {
  const columns = [
    { title: `the webhook's side (phase "${phase.name}")`, align: 'left' as const },
    ...['calls', 'p50', 'p99', 'p99 bucket'].map((title) => ({ title, align: RIGHT })),
  ];
  const dryRuns = phase.dryRunPodCreates;
  return markdownTable(columns, [
    histogramRow(`kube-apiserver: ${ADMISSION_DURATION} (CREATE)`, phase.apiServerWebhook),
    histogramRow(`launcher: ${WEBHOOK_LATENCY}`, phase.launcherWebhook),
    [
      "launcher's dry-run pod creates, server-side (audit log)",
      groupThousands(dryRuns.count),
      ms(dryRuns.p50Ms),
      ms(dryRuns.p99Ms),
      MISSING,
    ],
  ]);
}

function launcherTable(phases: readonly AdmissionPhase[]): string {
  const columns = [
    { title: 'launcher, per phase', align: 'left' as const },
    ...['ready after', 'reconciles', 'reconcile p50 / p99', 'event-loop delay p99 (peak)', 'dry-run pod creates'].map(
      (title) => ({ title, align: RIGHT }),
    ),
  ];
  return markdownTable(
    columns,
    phases.map((phase) => {
      const metrics = phase.launcherMetrics;
      return [
        phase.name,
        `${formatNumber(phase.launcherReadySeconds)} s`,
        orMissing(metrics.reconciles, groupThousands),
        `${orMissing(metrics.reconcileP50Seconds, formatLatency)} / ${orMissing(metrics.reconcileP99Seconds, formatLatency)}`,
        orMissing(metrics.eventLoopDelayP99Seconds, formatLatency),
        groupThousands(phase.dryRunPodCreates.count),
      ];
    }),
  );
}

/** The tables with a line of settings; ends with a newline. */
export function renderAdmissionMarkdown(result: AdmissionResult): string {
  const { settings, machine } = result;
  const webhook = result.phases.find((phase) => phase.name === 'webhook');
  const lines = [
    `CloneSet creates, one at a time, timed by the client (${groupThousands(settings.creates)} per phase after ${String(settings.warmup)} warm-up creates; replicas 0, one ${settings.image} container); Kubernetes ${settings.kubernetesVersion}, ${String(machine.cpus)} × ${machine.cpuModel}, Node.js ${machine.nodeVersion}. Baseline: ${settings.baseline}.`,
    '',
    clientTable(result),
    ...(webhook === undefined ? [] : ['', webhookTable(webhook)]),
    '',
    launcherTable(result.phases),
    '',
  ];
  return lines.join('\n');
}
