/**
 * The Markdown report of one result file: what ran, on what, and one row per contender with every
 * figure next to its ratio to the first contender, then where the requests went. Rendered from the
 * result alone and deterministic, so a committed report can be regenerated and diffed.
 */
import type {
  BenchResult,
  ContenderResult,
  InjectionStats,
  LatencySummary,
  PerNodeStats,
  RequestCount,
  SimulatorHealth,
  WindowHistogram,
} from '../result.ts';
import {
  formatCores,
  formatGiB,
  formatLatency,
  formatMiB,
  formatNumber,
  formatRatio,
  formatSeconds,
  groupThousands,
  MISSING,
  orMissing,
} from './format.ts';
import { escapeMarkdown, markdownTable } from './markdown-table.ts';
import type { TableColumn } from './markdown-table.ts';
import { contenderRatios, ratio } from './ratios.ts';
import type { ContenderRatios, FigureValues, RatioFigure } from './ratios.ts';

/** Rows of the requests table per contender; the rest is summed into one row. */
export const TOP_REQUEST_ROWS = 12;

/** The report (ends with a newline). */
export function renderMarkdown(result: BenchResult): string {
  const { settings } = result;
  const sections = [
    `## ${settings.scenario} · ${groupThousands(settings.pods)} pods`,
    ['```sh', result.command, '```'].join('\n'),
    settingsLine(result),
    summaryTable(result),
    idleNote(result.results),
    referenceNote(result),
    errorList(result.results),
    '### Requests by verb and resource',
    requestsTable(result.results),
    ...(settings.scenario === 'steady' ? ['### Steady state', steadyTable(result.results)] : []),
    ...(settings.scenario === 'steady' ? idleControlPlaneSection(result.results) : []),
    ...injectionSection(result.results),
    ...perNodeSection(result.results),
    ...controlPlaneSection(result.results),
    ...simulatorSection(result.results),
  ];
  return `${sections.filter((section) => section !== '').join('\n\n')}\n`;
}

function settingsLine(result: BenchResult): string {
  const { settings, machine } = result;
  const { kubelet } = settings;
  return [
    `**Settings:** ${groupThousands(settings.nodes)} nodes, ${groupThousands(settings.podsPerNode)} pods/node`,
    `kubelet delays: start ${groupThousands(kubelet.podStartDelayMs)} ms, update ${groupThousands(kubelet.containerUpdateDelayMs)} ms, delete ${groupThousands(kubelet.podDeleteDelayMs)} ms, ${groupThousands(kubelet.podParallelism)} pod writes at once`,
    settings.clientQps === 0
      ? 'no client-side rate limit (API Priority and Fairness only)'
      : `client QPS ${groupThousands(settings.clientQps)}, burst ${groupThousands(settings.clientBurst)}`,
    settings.schedulerQps === 0
      ? 'kube-scheduler without client-side limit'
      : `kube-scheduler QPS ${groupThousands(settings.schedulerQps)}`,
    settings.jobRunMs === undefined
      ? `maxUnavailable ${escapeMarkdown(settings.maxUnavailable)}`
      : `job pods run ${groupThousands(settings.jobRunMs)} ms`,
    `Kubernetes ${escapeMarkdown(settings.kubernetesVersion)}`,
    `timeout ${groupThousands(settings.timeoutSeconds)} s`,
    `machine: ${groupThousands(machine.cpus)} CPUs (${escapeMarkdown(machine.cpuModel)}), ${formatGiB(machine.memoryBytes)}, Node.js ${machine.nodeVersion}, ${machine.platform}`,
    `started ${result.startedAt}`,
  ].join(' · ');
}

const SUMMARY_COLUMNS: readonly TableColumn[] = [
  { title: 'contender', align: 'left' },
  { title: 'done?', align: 'left' },
  { title: 'wall time', align: 'right' },
  { title: 'writes/pod', align: 'right' },
  { title: 'pod writes/pod', align: 'right' },
  { title: 'requests', align: 'right' },
  { title: 'mutating p99', align: 'right' },
  { title: 'peak RSS', align: 'right' },
  { title: 'peak heap', align: 'right' },
  { title: 'CPU s', align: 'right' },
  { title: 'idle CPU cores', align: 'right' },
  { title: 'RSS / 1,000 pods', align: 'right' },
  { title: 'event-loop p99', align: 'right' },
  { title: 'reconcile p50/p99', align: 'right' },
  { title: 'ready after', align: 'right' },
];

const NO_RATIOS: FigureValues = {
  wallSeconds: undefined,
  writesPerPod: undefined,
  podWritesPerPod: undefined,
  requests: undefined,
  peakRssBytes: undefined,
  peakHeapUsedBytes: undefined,
  cpuSeconds: undefined,
  reconcileP99Seconds: undefined,
  mutatingP99Seconds: undefined,
  idleCpuCores: undefined,
  rssBytesPer1000Pods: undefined,
};

function summaryTable(result: BenchResult): string {
  const rows = contenderRatios(result).flatMap((ratios, index) => {
    const contender = result.results[index];
    // The reference's ratios are 1 by definition: printing them would only add noise.
    return contender === undefined
      ? []
      : [summaryRow(contender, index === 0 ? { ...ratios, ratios: NO_RATIOS } : ratios)];
  });
  return markdownTable(SUMMARY_COLUMNS, rows);
}

/** A figure in its unit, followed by its ratio to the reference when there is one. */
function figureCell(row: ContenderRatios, figure: RatioFigure, format: (value: number) => string): string {
  const text = orMissing(row.figures[figure], format);
  const ratio = row.ratios[figure];
  return text === MISSING || ratio === undefined ? text : `${text} (${formatRatio(ratio)})`;
}

function summaryRow(contender: ContenderResult, row: ContenderRatios): string[] {
  const { metrics } = contender;
  const reconcileP50 = orMissing(metrics.reconcileP50Seconds, formatLatency);
  const reconcileP99 = figureCell(row, 'reconcileP99Seconds', formatLatency);
  return [
    row.name,
    contender.completed ? 'yes' : 'no',
    figureCell(row, 'wallSeconds', formatSeconds),
    figureCell(row, 'writesPerPod', formatNumber),
    figureCell(row, 'podWritesPerPod', formatNumber),
    figureCell(row, 'requests', groupThousands),
    figureCell(row, 'mutatingP99Seconds', formatLatency),
    figureCell(row, 'peakRssBytes', formatMiB),
    figureCell(row, 'peakHeapUsedBytes', formatMiB),
    figureCell(row, 'cpuSeconds', formatNumber),
    figureCell(row, 'idleCpuCores', formatCores),
    figureCell(row, 'rssBytesPer1000Pods', formatMiB),
    orMissing(metrics.eventLoopDelayP99Seconds, formatLatency),
    reconcileP50 === MISSING && reconcileP99 === MISSING ? MISSING : `${reconcileP50} / ${reconcileP99}`,
    orMissing(contender.readySeconds, formatSeconds),
  ];
}

/** What the RSS per 1,000 pods was divided by, said once for the run (every contender's is read the same way). */
function rssNote(results: readonly ContenderResult[]): string | undefined {
  const basis = results.find((result) => result.rssBasis !== undefined)?.rssBasis;
  if (basis === undefined) {
    return undefined;
  }
  return basis.after === 'preparation'
    ? 'RSS / 1,000 pods: resident memory at the end of that window, per 1,000 pods the preparation created.'
    : 'RSS / 1,000 pods: resident memory once the change settled, per 1,000 pods it created (the scenario starts from none).';
}

/** How the idle and start figures were taken; empty when no contender has them (older results). */
function idleNote(results: readonly ContenderResult[]): string {
  const windowSeconds = results.find((result) => result.idleWindowSeconds !== undefined)?.idleWindowSeconds;
  const sentences = [
    windowSeconds === undefined
      ? undefined
      : `Idle CPU: cores the contender used over ${groupThousands(windowSeconds)} s with nothing changing, once the preparation had settled.`,
    rssNote(results),
    results.some((result) => result.readySeconds !== undefined)
      ? "Ready after: from the start of the contender's process until its ready URL answered 2xx, or else its /metrics answered."
      : undefined,
  ];
  return sentences.filter((sentence) => sentence !== undefined).join(' ');
}

function referenceNote(result: BenchResult): string {
  const reference = result.results[0];
  return reference === undefined || result.results.length < 2
    ? ''
    : `Ratios (×) are relative to the first contender, ${escapeMarkdown(reference.contender.name)}; lower is better for every figure.`;
}

function errorList(results: readonly ContenderResult[]): string {
  const lines = results.flatMap((result) =>
    result.error === undefined ? [] : [`- ${escapeMarkdown(result.contender.name)}: ${escapeMarkdown(result.error)}`],
  );
  return lines.length === 0 ? '' : ['**Errors:**', '', ...lines].join('\n');
}

const REQUEST_COLUMNS: readonly TableColumn[] = [
  { title: 'contender', align: 'left' },
  { title: 'verb', align: 'left' },
  { title: 'resource', align: 'left' },
  { title: 'requests', align: 'right' },
];

function requestsTable(results: readonly ContenderResult[]): string {
  return markdownTable(REQUEST_COLUMNS, results.flatMap(requestRows));
}

/** The contender's top request kinds (already sorted by count), the rest summed into one row. */
function requestRows(result: ContenderResult): string[][] {
  const name = result.contender.name;
  const counts = result.requests.byVerbAndResource;
  if (counts.length === 0) {
    return [[name, MISSING, MISSING, '0']];
  }
  const shown = counts.slice(0, TOP_REQUEST_ROWS);
  const rest = counts.slice(TOP_REQUEST_ROWS);
  const rows = shown.map((count) => [name, count.verb, count.resource, groupThousands(count.count)]);
  if (rest.length > 0) {
    rows.push([name, '…', `${groupThousands(rest.length)} more`, groupThousands(sumCounts(rest))]);
  }
  return rows;
}

function sumCounts(counts: readonly RequestCount[]): number {
  return counts.reduce((sum, count) => sum + count.count, 0);
}

const STEADY_COLUMNS: readonly TableColumn[] = [
  { title: 'contender', align: 'left' },
  { title: 'workloads × pods', align: 'right' },
  { title: 'idle CPU cores', align: 'right' },
  { title: 'heap / 1,000 pods', align: 'right' },
  { title: 'RSS / 1,000 pods', align: 'right' },
  { title: 'churned pods', align: 'right' },
  { title: 'converge time', align: 'right' },
];

function steadyTable(results: readonly ContenderResult[]): string {
  return markdownTable(STEADY_COLUMNS, results.map(steadyRow));
}

function steadyRow(result: ContenderResult): string[] {
  const { steady } = result;
  if (steady === undefined) {
    return [result.contender.name, ...STEADY_COLUMNS.slice(1).map(() => MISSING)];
  }
  return [
    result.contender.name,
    `${groupThousands(steady.workloads)} × ${groupThousands(steady.podsPerWorkload)}`,
    orMissing(steady.idleCpuCoresUsed, formatCores),
    orMissing(steady.heapBytesPer1000Pods, (bytes) =>
      steady.heapAfterFullGc ? formatMiB(bytes) : `${formatMiB(bytes)} (garbage included)`,
    ),
    orMissing(steady.rssBytesPer1000Pods, formatMiB),
    groupThousands(steady.churnedPods),
    orMissing(steady.convergeSeconds, formatSeconds),
  ];
}

const INJECTION_COLUMNS: readonly TableColumn[] = [
  { title: 'contender', align: 'left' },
  { title: 'SidecarSet', align: 'left' },
  { title: 'pods with / without sidecar', align: 'right' },
  { title: 'webhook requests', align: 'right' },
  { title: 'webhook p50 / p99', align: 'right' },
  { title: 'API server admission p50 / p99', align: 'right' },
  { title: 'no-op webhook: API server admission p50 / p99', align: 'right' },
  { title: 'API server calls ≤ 25 ms: ours / no-op', align: 'right' },
  { title: 'pod create p50 / p99', align: 'right' },
];

/** The share of a histogram's observations within 25 ms (a bucket bound of kube-apiserver's admission histogram). */
function within25ms(histogram: WindowHistogram | undefined): string {
  const total = histogram?.count ?? 0;
  const bucket = histogram?.buckets.find((candidate) => Math.abs(candidate.le - 0.025) < 1e-9);
  return total === 0 || bucket === undefined ? MISSING : `${((100 * bucket.count) / total).toFixed(1)}%`;
}

function quantiles(p50: number | undefined, p99: number | undefined): string {
  return p50 === undefined && p99 === undefined
    ? MISSING
    : `${orMissing(p50, formatLatency)} / ${orMissing(p99, formatLatency)}`;
}

const histogramQuantiles = (histogram: WindowHistogram | undefined): string =>
  quantiles(histogram?.p50Seconds, histogram?.p99Seconds);
const latencyQuantiles = (latency: LatencySummary): string =>
  latency.count === 0 ? MISSING : quantiles(latency.p50Seconds, latency.p99Seconds);

function injectionRow(name: string, stats: InjectionStats): string[] {
  return [
    name,
    stats.sidecarSet ? 'yes' : 'no',
    `${groupThousands(stats.podsWithSidecar)} / ${groupThousands(stats.podsWithoutSidecar)}`,
    groupThousands(stats.webhookLatency.count),
    histogramQuantiles(stats.webhookLatency),
    histogramQuantiles(stats.apiServerAdmission),
    histogramQuantiles(stats.referenceAdmission),
    `${within25ms(stats.apiServerAdmission)} / ${within25ms(stats.referenceAdmission)}`,
    latencyQuantiles(stats.podCreateLatency),
  ];
}

/**
 * sidecarset-scale: each phase's pods and the pod webhook's latency from its server, from
 * kube-apiserver, and in the audit log's pod creates.
 */
function injectionSection(results: readonly ContenderResult[]): string[] {
  const rows = results.flatMap((result) =>
    result.injection === undefined ? [] : [injectionRow(escapeMarkdown(result.contender.name), result.injection)],
  );
  if (rows.length === 0) {
    return [];
  }
  const note =
    "Webhook: the contender's `controller_runtime_webhook_latency_seconds` (buckets 5, 10, 25, 50 ms, ...); API server admission: " +
    "kube-apiserver's `apiserver_admission_webhook_admission_duration_seconds` (buckets 5, 25, 100 ms, ...); both quantiles are " +
    "PromQL's interpolation within those buckets. No-op webhook: the same API server figure for a webhook that answers every pod unchanged from a Node.js process of its own with nothing else to do, called for the same pods (the floor any webhook pays on this machine at that moment). Pod create: the contender's pod creates in the audit log, the webhook call included.";
  return ['### SidecarSet injection', markdownTable(INJECTION_COLUMNS, rows), note];
}

const PER_NODE_COLUMNS: readonly TableColumn[] = [
  { title: 'contender', align: 'left' },
  { title: 'kind', align: 'left' },
  { title: 'nodes', align: 'right' },
  { title: 'pods created / ran / succeeded', align: 'right' },
  { title: "every node's pod running", align: 'right' },
  { title: "every node's pod succeeded", align: 'right' },
  { title: 'done (status)', align: 'right' },
  { title: 'nodes with 2+ pods', align: 'right' },
];

function perNodeRow(result: ContenderResult, stats: PerNodeStats, reference: PerNodeStats | undefined): string[] {
  const running = orMissing(stats.allRunningSeconds, formatSeconds);
  const runningRatio =
    reference === undefined ? undefined : ratio(stats.allRunningSeconds, reference.allRunningSeconds);
  return [
    escapeMarkdown(result.contender.name),
    result.workloadKind,
    groupThousands(stats.nodes),
    `${groupThousands(stats.podsCreated)} / ${groupThousands(stats.podsStarted)} / ${groupThousands(stats.podsSucceeded)}`,
    running === MISSING || runningRatio === undefined ? running : `${running} (${formatRatio(runningRatio)})`,
    orMissing(stats.allSucceededSeconds, formatSeconds),
    result.completed ? formatSeconds(result.wallSeconds) : MISSING,
    groupThousands(stats.nodesWithSeveralPods),
  ];
}

/**
 * bcj-nodes: when every node's pod ran (the figure both kinds share, from a watch of the pods), when
 * a job's pods all succeeded, and when the workload's status said it was done.
 */
function perNodeSection(results: readonly ContenderResult[]): string[] {
  const reference = results[0]?.perNode;
  const rows = results.flatMap((result, index) =>
    result.perNode === undefined ? [] : [perNodeRow(result, result.perNode, index === 0 ? undefined : reference)],
  );
  if (rows.length === 0) {
    return [];
  }
  const note =
    "Running: the last node's pod first seen Running and Ready by a watch of the benchmark's pods (ratio to the first contender); " +
    "succeeded: the last node's pod seen Succeeded (a DaemonSet's pods never end). Done: the wall time, when the status said so " +
    '(BroadcastJob: the Complete condition; DaemonSet: every scheduled pod updated, ready and available).';
  return ['### A pod on every node', markdownTable(PER_NODE_COLUMNS, rows), note];
}

/** steady: the control plane's idle CPU and RSS next to each contender's (results written before it was recorded have none). */
function idleControlPlaneSection(results: readonly ContenderResult[]): string[] {
  const names = [...new Set(results.flatMap((result) => Object.keys(result.steady?.controlPlane ?? {})))].sort();
  if (names.length === 0) {
    return [];
  }
  const columns: TableColumn[] = [
    { title: 'contender', align: 'left' },
    ...names.map((name): TableColumn => ({ title: name, align: 'right' })),
  ];
  const rows = results.map((result) => [
    result.contender.name,
    ...names.map((name) => {
      const figures = result.steady?.controlPlane?.[name];
      return figures === undefined ? MISSING : `${formatCores(figures.cpuCores)} · ${formatMiB(figures.rssBytes)}`;
    }),
  ]);
  const note =
    "Each control-plane process over the same idle window as the steady table: CPU cores · RSS at the window's end.";
  return ['### The control plane at rest', markdownTable(columns, rows), note];
}

/** The control plane's CPU in each contender's window (results written before it was recorded have none). */
function controlPlaneSection(results: readonly ContenderResult[]): string[] {
  const names = [...new Set(results.flatMap((result) => Object.keys(result.controlPlaneCpuSeconds ?? {})))].sort();
  if (names.length === 0) {
    return [];
  }
  const columns: TableColumn[] = [
    { title: 'contender', align: 'left' },
    ...names.map((name): TableColumn => ({ title: name, align: 'right' })),
    { title: 'contender itself', align: 'right' },
  ];
  const rows = results.map((result) => [
    result.contender.name,
    ...names.map((name) => orMissing(result.controlPlaneCpuSeconds?.[name], formatNumber)),
    formatNumber(result.process.cpuSeconds),
  ]);
  return ['### CPU seconds in the measured window', markdownTable(columns, rows)];
}

/** The watcher a closure row names: `pods labels <selector>, fields <selector>` (each only when set), or `pods (all)`. */
function watcherName(row: SimulatorHealth['watchClosures'][number]): string {
  const selectors = [
    row.labelSelector === '' ? '' : `labels ${row.labelSelector}`,
    row.fieldSelector === '' ? '' : `fields ${row.fieldSelector}`,
  ].filter((part) => part !== '');
  return escapeMarkdown(selectors.length === 0 ? `${row.resource} (all)` : `${row.resource} ${selectors.join(', ')}`);
}

function closureSummary(health: SimulatorHealth): string {
  const total = health.watchClosures.reduce((sum, row) => sum + row.count, 0);
  return total === 0
    ? '0'
    : `${groupThousands(total)}: ${health.watchClosures.map((row) => `${watcherName(row)} ×${groupThousands(row.count)}`).join('; ')}`;
}

function failureSummary(health: SimulatorHealth): string {
  const total = health.kubeletFailedRequests.reduce((sum, row) => sum + row.count, 0);
  return total === 0
    ? '0'
    : `${groupThousands(total)}: ${health.kubeletFailedRequests.map((row) => `${row.verb} ${escapeMarkdown(row.resource)} ${String(row.code)} ×${groupThousands(row.count)}`).join('; ')}`;
}

/**
 * The run's noise next to its figures: watches the API server closed for falling behind, and the
 * simulated kubelets' failed requests (stale stage replays after kwok's watch was closed).
 */
function simulatorSection(results: readonly ContenderResult[]): string[] {
  if (results.every((result) => result.simulator === undefined)) {
    return [];
  }
  const columns: TableColumn[] = [
    { title: 'contender', align: 'left' },
    { title: 'watches closed for falling behind', align: 'left' },
    { title: "simulated kubelets' failed requests", align: 'left' },
  ];
  const rows = results.map((result) => [
    result.contender.name,
    result.simulator === undefined ? MISSING : closureSummary(result.simulator),
    result.simulator === undefined ? MISSING : failureSummary(result.simulator),
  ]);
  return ['### The simulator in the measured window', markdownTable(columns, rows)];
}
