/**
 * One contender's run of one scenario, on a control plane of its own: start the cluster (audit log
 * on), install the CRDs, give the contender its identity, start it, prepare the workloads, then
 * measure the change until every workload is settled.
 */
import { rm, stat } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';

import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';

import { createClient, Transport } from '@kruise-ts/controller-runtime';
import type { Client } from '@kruise-ts/controller-runtime';
import { applyCrdFiles, freeLoopbackPort, startLocalCluster } from '@kruise-ts/local-cluster';
import type { LocalCluster } from '@kruise-ts/local-cluster';

import { auditPolicyYaml, readAuditLog, readSimulatorHealth, waitForQuietPods } from '../collect/index.ts';
import { REPOSITORY_ROOT } from '../contenders/command-contender.ts';
import type { Contender, ContenderContext, RunningContender } from '../contenders/contender.ts';
import { captureApiServerProfile } from '../measure/apiserver-profile.ts';
import { idleFigures, measureIdleWindow } from '../measure/idle-window.ts';
import type { IdleFigures, IdleWindow } from '../measure/idle-window.ts';
import { injectionFailure, probeOfContender, startInjectionWindow } from '../measure/injection.ts';
import { componentIdleFigures, startComponentCpuWindow } from '../measure/component-cpu.ts';
import { perNodeFailure, startPerNodePodWatch } from '../measure/per-node-pods.ts';
import type { PerNodePodWatch } from '../measure/per-node-pods.ts';
import { startMetricsScraper } from '../measure/metrics-scraper.ts';
import type { MetricsScraper } from '../measure/metrics-scraper.ts';
import { signalNodeProcesses, startProcessSampler } from '../measure/process-sampler.ts';
import type { ProcessSampler } from '../measure/process-sampler.ts';
import { startStatusRecorder } from '../measure/status-recorder.ts';
import { workloadKindFor } from '../measure/workloads.ts';
import type { WorkloadKind } from '../measure/workloads.ts';
import type { StatusRecorder } from '../measure/status-recorder.ts';
import type {
  ContenderResult,
  InjectionStats,
  PerNodeStats,
  QuietBeforeChange,
  RunSettings,
  SimulatorHealth,
  SteadyStateStats,
} from '../result.ts';
import { SCENARIOS } from '../scenarios/scenario.ts';
import type { RunScenarioOptions, Scenario, ScenarioContext, ScenarioPhase } from '../scenarios/scenario.ts';
import { createContenderIdentity } from './identity.ts';
import { readinessTarget, waitUntilReady } from './readiness.ts';

const NAMESPACE = 'bench';
const SAMPLE_INTERVAL_MS = 500;
const SCRAPE_INTERVAL_MS = 2_000;
const UNLIMITED = 100_000;
/** No pod write for this long counts as quiet (kwok's stale replays come within a second of an event). */
const QUIET_MS = 2_000;
const QUIET_TIMEOUT_MS = 120_000;
const NATIVE_FEATURE_GATES = '--feature-gates=MaxUnavailableStatefulSet=true';
/** The CRDs of the kinds the scenarios drive (SidecarSets: sidecarset-scale; BroadcastJobs: bcj-nodes). */
const CRD_FILES = [
  'apps.kruise.io_clonesets.yaml',
  'apps.kruise.io_statefulsets.yaml',
  'apps.kruise.io_sidecarsets.yaml',
  'apps.kruise.io_broadcastjobs.yaml',
];
/** How long the pod watch may lag behind the workload's status once it settled. */
const POD_WATCH_CATCH_UP_MS = 10_000;
/** How long a started contender may take to be ready (webhook certificates, informer caches) before it fails. */
const READY_TIMEOUT_MS = 120_000;
const READY_POLL_MS = 250;

export interface ContenderRunOptions {
  readonly settings: RunSettings;
  readonly scenario: RunScenarioOptions;
  /** Where the cluster, logs and the contender's output go. */
  readonly workDir: string;
  readonly log: (line: string) => void;
}

async function fileSize(file: string): Promise<number> {
  return stat(file).then(
    (info) => info.size,
    () => 0,
  );
}

async function startCluster(options: ContenderRunOptions, index: number): Promise<LocalCluster> {
  const { settings } = options;
  return startLocalCluster({
    name: `bench-${String(index)}`,
    runDir: path.join(options.workDir, `cluster-${String(index)}`),
    nodes: settings.nodes,
    podsPerNode: settings.podsPerNode,
    kubelet: settings.kubelet,
    auditPolicy: auditPolicyYaml(),
    schedulerClient: { qps: settings.schedulerQps || UNLIMITED, burst: settings.schedulerQps || UNLIMITED },
    extraArgs: {
      // The native StatefulSet's rollingUpdate.maxUnavailable is alpha in Kubernetes 1.34: without
      // the gate the API server drops the field and the baseline would replace one pod at a time.
      'kube-apiserver': [NATIVE_FEATURE_GATES],
      // kube-controller-manager has no "unlimited": 0 becomes a limit no rollout here reaches.
      'kube-controller-manager': [
        `--kube-api-qps=${String(settings.clientQps || UNLIMITED)}`,
        `--kube-api-burst=${String(settings.clientBurst || UNLIMITED)}`,
        NATIVE_FEATURE_GATES,
      ],
    },
    log: (line) => {
      options.log(`  [cluster] ${line}`);
    },
  });
}

interface Measurement {
  readonly cluster: LocalCluster;
  readonly log: (line: string) => void;
  /** A kube-apiserver CPU profile of the window's first `seconds`, into `file`. */
  readonly profile: { readonly seconds: number; readonly file: string } | undefined;
  readonly recorder: StatusRecorder;
  /** bcj-nodes: the watch that times every node's pod. */
  readonly perNode: PerNodePodWatch | undefined;
  readonly sampler: ProcessSampler;
  readonly scraper: MetricsScraper;
  readonly auditLogPath: string;
}

/** A window's part of a log file (a LogRange with both ends known). */
interface ByteRange {
  readonly fromOffset: number;
  readonly toOffset: number;
}

interface ChangeOutcome {
  readonly completed: boolean;
  readonly error?: string;
  readonly pods: number;
  readonly wallSeconds: number;
  /** The window's byte range of the audit log. */
  readonly auditRange: ByteRange;
  /** The window's byte range of kube-apiserver's log, when the cluster names that log. */
  readonly apiServerLog?: { readonly file: string; readonly range: ByteRange };
  readonly controlPlaneCpuSeconds: Record<string, number>;
  readonly apiserverProfile?: string;
}

/** With `--apiserver-profile-seconds`, a profile of kube-apiserver from the change on; its file, or undefined when none was taken. */
async function profileApiServer(measurement: Measurement): Promise<string | undefined> {
  const { profile } = measurement;
  if (profile === undefined) {
    return undefined;
  }
  return captureApiServerProfile(
    { kubeconfigPath: measurement.cluster.kubeconfigPath },
    profile.seconds,
    profile.file,
  ).then(
    () => profile.file,
    (error: unknown) => {
      measurement.log(`  no kube-apiserver profile: ${String(error)}`);
      return undefined;
    },
  );
}

/** The measured part: the change, then waiting until every workload is settled (or the timeout). */
async function measuredChange(
  { scenario, change: makeChange }: { scenario: Scenario; change: Scenario['change'] },
  context: ScenarioContext,
  measurement: Measurement,
): Promise<ChangeOutcome> {
  await measurement.sampler.markWindowStart();
  await measurement.scraper.markWindowStart();
  const auditFrom = await fileSize(measurement.auditLogPath);
  const apiServerLogFile = measurement.cluster.components.find(
    (component) => component.name === 'kube-apiserver',
  )?.logFile;
  const apiServerLogFrom = apiServerLogFile === undefined ? 0 : await fileSize(apiServerLogFile);
  const cpu = await startComponentCpuWindow(measurement.cluster.components);
  measurement.recorder.startWindow();
  measurement.perNode?.startWindow();
  const started = performance.now();
  const profiling = profileApiServer(measurement);
  const change = await makeChange(context);
  const settled = await measurement.recorder
    .waitUntilSettled(scenario.workloadCount(context.options), context.options.timeoutMs, {
      touched: change.touched,
      holdMs: scenario.settleHoldMs,
    })
    .then(
      (wallSeconds) => ({ completed: true, wallSeconds }),
      (error: unknown) => ({
        completed: false,
        error: String(error),
        wallSeconds: (performance.now() - started) / 1000,
      }),
    );
  const apiserverProfile = await profiling;
  return {
    ...settled,
    pods: change.pods,
    auditRange: { fromOffset: auditFrom, toOffset: await fileSize(measurement.auditLogPath) },
    ...(apiServerLogFile === undefined
      ? {}
      : {
          apiServerLog: {
            file: apiServerLogFile,
            range: { fromOffset: apiServerLogFrom, toOffset: await fileSize(apiServerLogFile) },
          },
        }),
    controlPlaneCpuSeconds: await cpu.end(),
    ...(apiserverProfile === undefined ? {} : { apiserverProfile }),
  };
}

/** The steady figures of its idle phase (the churn's come later). */
type SteadyIdle = Omit<SteadyStateStats, 'churnedPods' | 'convergeSeconds'>;

/** steady: CPU while nothing changes, and memory per cached pod; its window is also the scenario's idle window. */
async function idlePhase(
  context: ScenarioContext,
  measurement: Measurement,
  input: { idleSeconds: number; running: RunningContender },
): Promise<{ window: IdleWindow; steady: SteadyIdle }> {
  const { idleSeconds, running } = input;
  // Let the last status writes and events of the preparation pass.
  await sleep(3_000);
  const idle = () => measurement.scraper.withoutScrapes(() => measureIdleWindow(measurement.sampler, idleSeconds));
  const { result: window, components } = await componentIdleFigures(measurement.cluster.components, idleSeconds, idle);
  // Heap used counts garbage until a collection; an idle process does not collect. Ours collect on
  // SIGUSR2 (gc-on-signal.ts), so the figure is the live heap; others report what they report.
  // Ours serve one /metrics per Node.js process, so every one of them must have got the signal.
  const collected =
    running.collectsGarbageOnSignal &&
    (await signalNodeProcesses(running.pid, 'SIGUSR2')) >= Math.max(1, running.metricsUrls.length);
  if (collected) {
    await sleep(2_000);
  }
  const heap = await measurement.scraper.currentHeapUsedBytes();
  const pods = context.options.workloads * context.options.podsPerWorkload;
  const perThousand = (bytes: number): number => Math.round((bytes / pods) * 1000);
  const steady = {
    workloads: context.options.workloads,
    podsPerWorkload: context.options.podsPerWorkload,
    idleCpuCoresUsed: window.cpuCores,
    idleSeconds,
    ...(heap === undefined ? {} : { heapBytesPer1000Pods: perThousand(heap) }),
    heapAfterFullGc: collected,
    rssBytesPer1000Pods: perThousand(window.rssBytes),
    controlPlane: components,
  };
  return { window, steady };
}

/**
 * The contender with nothing to do, once the preparation is settled and quiet: every scenario's idle
 * window (`--idle-window-seconds`), or steady's own idle phase (`--idle-seconds`) instead of a second one.
 */
async function idleBeforeChange(input: PhaseInput): Promise<{ window: IdleWindow; steady?: SteadyIdle }> {
  const { scenario, context, measurement, running, options } = input;
  if (scenario.name === 'steady') {
    return idlePhase(context, measurement, { idleSeconds: options.scenario.idleSeconds, running });
  }
  options.log(`  idle for ${String(options.scenario.idleWindowSeconds)} s`);
  return {
    window: await measurement.scraper.withoutScrapes(() =>
      measureIdleWindow(measurement.sampler, options.scenario.idleWindowSeconds),
    ),
  };
}

/**
 * The phase's idle figures; in a scenario that starts from no pods, the RSS is read right after the
 * change settled (before the audit log is read), per pod of the change.
 */
async function phaseIdleFigures(
  input: { scenario: Scenario; options: ContenderRunOptions; measurement: Measurement },
  window: IdleWindow,
  changedPods: number,
): Promise<IdleFigures> {
  const preparedPods = input.scenario.preparedPods(input.options.scenario);
  if (preparedPods > 0) {
    return idleFigures({ window, preparedPods });
  }
  const { currentRssBytes } = await input.measurement.sampler.snapshot();
  return idleFigures({ window, preparedPods, endOfChange: { rssBytes: currentRssBytes, pods: changedPods } });
}

/** The kind the contender serves in this run's scenario. */
function workloadKindOf(contender: Contender, options: ContenderRunOptions): WorkloadKind {
  return workloadKindFor(SCENARIOS[options.settings.scenario].family, contender.kind === 'native');
}

function failedResult(contender: Contender, options: ContenderRunOptions, error: unknown): ContenderResult {
  const latency = { count: 0, p50Seconds: 0, p99Seconds: 0, maxSeconds: 0 };
  return {
    contender: { name: contender.name, kind: contender.kind, command: '' },
    workloadKind: workloadKindOf(contender, options),
    completed: false,
    error: error instanceof Error ? error.message : String(error),
    wallSeconds: 0,
    pods: 0,
    requests: {
      byVerbAndResource: [],
      total: 0,
      writes: 0,
      writesPerPod: 0,
      podWritesPerPod: 0,
      mutatingLatency: latency,
      readLatency: latency,
    },
    process: { peakRssBytes: 0, cpuSeconds: 0, sampleIntervalMs: SAMPLE_INTERVAL_MS },
    metrics: {},
    series: [],
  };
}

/** The contender's installation (its CRDs, ours by default, and whatever else it writes) and the benchmark's namespace. */
async function adminSetup(cluster: LocalCluster, contender: Contender): Promise<{ admin: KubeConfig; client: Client }> {
  const admin = new KubeConfig();
  admin.loadFromFile(cluster.kubeconfigPath);
  await applyCrdFiles(admin, contender.crdFiles ?? CRD_FILES.map((file) => path.join(REPOSITORY_ROOT, 'crds', file)));
  await contender.setUpCluster?.(admin);
  await admin.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name: NAMESPACE } } });
  // The driver is not measured and must never be the bottleneck: no client-side rate limit.
  return {
    admin,
    client: createClient(new Transport({ kubeConfig: admin, qps: 0, burst: 0, userAgent: 'kruise-ts-bench' })),
  };
}

/** A started contender, what it was given, and when its process was spawned (`performance.now()`). */
interface StartedContender {
  readonly running: RunningContender;
  readonly context: ContenderContext;
  readonly startedAt: number;
}

async function startContender(
  contender: Contender,
  { cluster, admin }: { cluster: LocalCluster; admin: KubeConfig },
  options: ContenderRunOptions,
): Promise<StartedContender> {
  const identity = await createContenderIdentity(admin, cluster.runDir);
  const metricsPorts = await Promise.all(Array.from({ length: contender.processes }, () => freeLoopbackPort()));
  const controllerManager = cluster.components.find((component) => component.name === 'kube-controller-manager');
  if (controllerManager === undefined) {
    throw new Error('the cluster has no kube-controller-manager');
  }
  const context: ContenderContext = {
    kubeconfigPath: identity.kubeconfigPath,
    username: identity.username,
    qps: options.settings.clientQps,
    burst: options.settings.clientBurst,
    metricsPorts,
    controllerManagerPid: controllerManager.pid,
    logFile: path.join(options.workDir, `${contender.name}.log`),
    extraArgs: SCENARIOS[options.settings.scenario].contenderArgs ?? [],
  };
  const running = await contender.start(context);
  // From the process's spawn, which `start` returns right after: building what it runs (our bundles,
  // once per run) is not the contender's start-up.
  return { running, context, startedAt: performance.now() };
}

/** Whether the process still exists (EPERM: it does, owned by someone else). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error instanceof Error && 'code' in error && error.code === 'EPERM';
  }
}

/**
 * Waits until the started contender is ready (see readiness.ts), so that the preparation does not
 * start against a controller still loading; its seconds, or undefined when nothing tells readiness.
 */
async function waitForReady(
  contender: Contender,
  started: StartedContender,
  options: ContenderRunOptions,
): Promise<number | undefined> {
  const target = readinessTarget(contender, started.running, started.context);
  if (target === undefined) {
    if (contender.kind !== 'native') {
      options.log(`${contender.name}: no ready URL and no /metrics to wait for; preparing right away`);
    }
    return undefined;
  }
  options.log(
    `${contender.name}: waiting for ${target.want === '2xx' ? 'a 2xx answer' : 'an answer'} from ${target.urls.join(', ')}`,
  );
  const seconds = await waitUntilReady(contender.name, target, {
    timeoutMs: READY_TIMEOUT_MS,
    intervalMs: READY_POLL_MS,
    startedAt: started.startedAt,
    alive: () => processAlive(started.running.pid),
  }).catch((error: unknown) => {
    throw new Error(
      `${error instanceof Error ? error.message : String(error)} (its output: ${started.context.logFile})`,
    );
  });
  options.log(`${contender.name}: ready after ${seconds.toFixed(1)} s`);
  return Number(seconds.toFixed(3));
}

interface MeasureInput {
  readonly contender: Contender;
  readonly running: RunningContender;
  readonly client: Client;
  readonly cluster: LocalCluster;
  readonly options: ContenderRunOptions;
  readonly cleanups: (() => Promise<void> | void)[];
}

/** Prepares the scenario with the contender running, measures its change (each of its phases) and collects every figure. */
async function measureScenario({
  contender,
  running,
  client,
  cluster,
  options,
  cleanups,
}: MeasureInput): Promise<ContenderResult[]> {
  const scenario = SCENARIOS[options.settings.scenario];
  const kind = workloadKindOf(contender, options);
  const profileSeconds = options.settings.apiserverProfileSeconds;
  const measurement: Measurement = {
    cluster,
    log: options.log,
    profile:
      profileSeconds === undefined
        ? undefined
        : { seconds: profileSeconds, file: path.join(options.workDir, `${contender.name}-kube-apiserver.pprof`) },
    recorder: await startStatusRecorder({ client, namespace: NAMESPACE, kind }),
    perNode: scenario.perNode === true ? await startPerNodePodWatch({ client, namespace: NAMESPACE }) : undefined,
    sampler: startProcessSampler(running.pid, SAMPLE_INTERVAL_MS),
    scraper: startMetricsScraper(running.metricsUrls, SCRAPE_INTERVAL_MS),
    auditLogPath: cluster.auditLogPath,
  };
  cleanups.push(
    () => {
      measurement.recorder.stop();
    },
    () => {
      measurement.perNode?.stop();
    },
    () => {
      measurement.sampler.stop();
    },
    () => {
      measurement.scraper.stop();
    },
  );
  const context: ScenarioContext = {
    client,
    namespace: NAMESPACE,
    kind,
    options: options.scenario,
    recorder: measurement.recorder,
    metricsUrls: running.metricsUrls,
  };
  const results: ContenderResult[] = [];
  for (const phase of plannedPhases(scenario)) {
    results.push(await measurePhase({ contender, scenario, phase, context, measurement, running, options }));
  }
  return results;
}

/** A measured change and the preparation before it: the scenario's only one, or one of its phases. */
interface PlannedPhase {
  readonly label: string | undefined;
  readonly prepare: (context: ScenarioContext) => Promise<void>;
  readonly change: Scenario['change'];
  readonly sidecarSet: boolean;
}

/** The scenario's phases; the first one prepares the scenario first. */
function plannedPhases(scenario: Scenario): PlannedPhase[] {
  const phases: readonly ScenarioPhase[] = scenario.phases ?? [
    { label: '', change: (context) => scenario.change(context) },
  ];
  return phases.map((phase, index) => ({
    label: scenario.phases === undefined ? undefined : phase.label,
    prepare: async (context) => {
      if (index === 0) {
        await scenario.prepare(context);
      }
      await phase.prepare?.(context);
    },
    change: phase.change,
    sidecarSet: phase.sidecarSet ?? false,
  }));
}

interface PhaseInput {
  readonly contender: Contender;
  readonly scenario: Scenario;
  readonly phase: PlannedPhase;
  readonly context: ScenarioContext;
  readonly measurement: Measurement;
  readonly running: RunningContender;
  readonly options: ContenderRunOptions;
}

/** Prepares the phase, measures its change and collects every figure into one result. */
async function measurePhase(input: PhaseInput): Promise<ContenderResult> {
  const { scenario, phase, context, measurement, running, options } = input;
  const name = phase.label === undefined ? running.info.name : `${running.info.name} (${phase.label})`;
  options.log(`${name}: preparing ${scenario.name}`);
  const preparedFrom = await fileSize(measurement.auditLogPath);
  await phase.prepare(context);
  const quiet = await waitForQuiet(measurement.auditLogPath, preparedFrom, options);
  const idle = await idleBeforeChange(input);
  options.log(`${name}: measuring ${scenario.name}`);
  const injection =
    scenario.injection === undefined
      ? undefined
      : await startInjectionWindow({
          probe: probeOfContender(scenario.injection, input.contender),
          context,
          scraper: measurement.scraper,
          cluster: { kubeconfigPath: measurement.cluster.kubeconfigPath },
        });
  const outcome = await measuredChange({ scenario, change: phase.change }, context, measurement);
  const idleStats = await phaseIdleFigures(input, idle.window, outcome.pods);
  options.log(
    `${name}: ${outcome.completed ? 'done' : 'NOT done'} after ${outcome.wallSeconds.toFixed(1)} s; reading the audit log`,
  );
  const injected = await injection?.end({
    sidecarSet: phase.sidecarSet,
    auditLog: measurement.auditLogPath,
    auditRange: outcome.auditRange,
    select: running.select,
  });
  const perNode = await endPerNodeWatch(measurement, {
    nodes: options.scenario.pods,
    jobs: context.kind === 'BroadcastJob',
    completed: outcome.completed,
  });
  const result = await phaseResult({ outcome, measurement, running, kind: context.kind });
  return {
    ...withFailure(
      { ...result, contender: { ...running.info, name } },
      outcome.error ?? injectionFailure(injected) ?? perNode.failure,
    ),
    quietBeforeChange: quiet,
    ...idleStats,
    ...(idle.steady === undefined
      ? {}
      : {
          steady: {
            ...idle.steady,
            churnedPods: outcome.pods,
            convergeSeconds: Number(outcome.wallSeconds.toFixed(3)),
          },
        }),
    ...scenarioFigures({ label: phase.label, injected, perNode: perNode.stats }),
  };
}

/** The figures only some scenarios have: the phase's name, the SidecarSet injection, the pods of every node. */
function scenarioFigures(input: {
  label: string | undefined;
  injected: InjectionStats | undefined;
  perNode: PerNodeStats | undefined;
}): Pick<ContenderResult, 'phase' | 'injection' | 'perNode'> {
  return {
    ...(input.label === undefined ? {} : { phase: input.label }),
    ...(input.injected === undefined ? {} : { injection: input.injected }),
    ...(input.perNode === undefined ? {} : { perNode: input.perNode }),
  };
}

/** bcj-nodes: the pods of every node, and why they fail the run (if they do). */
async function endPerNodeWatch(
  measurement: Measurement,
  input: { nodes: number; jobs: boolean; completed: boolean },
): Promise<{ stats?: PerNodeStats; failure?: string | undefined }> {
  if (measurement.perNode === undefined) {
    return {};
  }
  // A run that timed out has nothing to catch up with.
  const stats = await measurement.perNode.end({
    nodes: input.nodes,
    jobs: input.jobs,
    catchUpMs: input.completed ? POD_WATCH_CATCH_UP_MS : 0,
  });
  return { stats, failure: perNodeFailure(stats, input.jobs) };
}

/** The result, failed with `error` when there is one. */
function withFailure(result: ContenderResult, error: string | undefined): ContenderResult {
  return error === undefined ? { ...result, completed: true } : { ...result, completed: false, error };
}

/** The figures every scenario has, read once the change settled (or timed out). */
async function phaseResult(input: {
  outcome: ChangeOutcome;
  measurement: Measurement;
  running: RunningContender;
  kind: WorkloadKind;
}): Promise<ContenderResult> {
  const { outcome, measurement, running } = input;
  const requests = await readAuditLog(measurement.auditLogPath, running.select, {
    podsTouched: outcome.pods,
    ...outcome.auditRange,
  });
  const processStats = await measurement.sampler.snapshot();
  const simulator = await simulatorHealth(measurement.auditLogPath, outcome);
  return {
    contender: running.info,
    workloadKind: input.kind,
    completed: outcome.completed,
    wallSeconds: Number(outcome.wallSeconds.toFixed(3)),
    pods: outcome.pods,
    requests,
    process: {
      peakRssBytes: processStats.peakRssBytes,
      cpuSeconds: Number(processStats.cpuSeconds.toFixed(2)),
      sampleIntervalMs: SAMPLE_INTERVAL_MS,
    },
    metrics: await measurement.scraper.snapshot(),
    controlPlaneCpuSeconds: outcome.controlPlaneCpuSeconds,
    ...(outcome.apiserverProfile === undefined ? {} : { apiserverProfile: outcome.apiserverProfile }),
    ...(simulator === undefined ? {} : { simulator }),
    series: measurement.recorder.series(),
  };
}

/** The window's watch closures and simulated-kubelet failures; undefined when kube-apiserver's log is not known. */
async function simulatorHealth(auditLog: string, outcome: ChangeOutcome): Promise<SimulatorHealth | undefined> {
  const { apiServerLog } = outcome;
  if (apiServerLog === undefined) {
    return undefined;
  }
  return readSimulatorHealth({
    apiServerLog: apiServerLog.file,
    apiServerLogRange: apiServerLog.range,
    auditLog,
    auditLogRange: outcome.auditRange,
  });
}

/** Waits until the preparation's tail of pod writes has passed (see quiet-period.ts). */
async function waitForQuiet(
  auditLogPath: string,
  fromOffset: number,
  options: ContenderRunOptions,
): Promise<QuietBeforeChange> {
  const outcome = await waitForQuietPods(auditLogPath, fromOffset, { quietMs: QUIET_MS, timeoutMs: QUIET_TIMEOUT_MS });
  options.log(
    `  ${outcome.quiet ? 'quiet' : 'NOT quiet'} after ${outcome.waitedSeconds.toFixed(1)} s (${String(outcome.podWritesSeen)} pod writes seen meanwhile)`,
  );
  return { quietMs: QUIET_MS, ...outcome };
}

/**
 * Runs one contender on a fresh cluster: one result, or one per phase of the scenario; failures
 * become a result with `completed: false` and the error.
 */
export async function runContender(
  contender: Contender,
  index: number,
  options: ContenderRunOptions,
): Promise<ContenderResult[]> {
  options.log(`${contender.name}: starting a control plane`);
  const cluster = await startCluster(options, index);
  const cleanups: (() => Promise<void> | void)[] = [];
  try {
    const { admin, client } = await adminSetup(cluster, contender);
    const started = await startContender(contender, { cluster, admin }, options);
    const { running } = started;
    cleanups.push(() => running.stop());
    const readySeconds = await waitForReady(contender, started, options);
    const results = await measureScenario({ contender, running, client, cluster, options, cleanups });
    // One process for every phase: they share its start.
    return readySeconds === undefined ? results : results.map((result) => ({ ...result, readySeconds }));
  } catch (error) {
    options.log(`${contender.name}: failed: ${String(error)}`);
    return [failedResult(contender, options, error)];
  } finally {
    for (const cleanup of cleanups.reverse()) {
      await cleanup();
    }
    await cluster.stop();
    // The audit log, the components' logs and the contender's output stay for inspection; etcd's data
    // (hundreds of MiB at 10,000 pods) does not.
    await rm(path.join(cluster.runDir, 'etcd'), { recursive: true, force: true });
  }
}
