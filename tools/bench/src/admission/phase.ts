/**
 * One phase of the admission run: our launcher started as the `kruise-ts` contender is (the bundle,
 * the chart's node flags, its own identity), ready, the webhook proven in the path (or proven out of
 * it), a warm-up, then the measured loop with the webhook histograms and the audit log around it.
 * The launcher is stopped at the end, so it deletes the webhook configuration it wrote.
 */
import { stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { validatingWebhookConfigurationResource } from '@kruise-ts/webhook';
import type { Client } from '@kruise-ts/controller-runtime';
import { freeLoopbackPort } from '@kruise-ts/local-cluster';
import type { LocalCluster } from '@kruise-ts/local-cluster';

import { kruiseTsContender } from '../contenders/command-contender.ts';
import type { Contender, ContenderContext, RunningContender } from '../contenders/contender.ts';
import { startMetricsScraper } from '../measure/metrics-scraper.ts';
import type { MetricsScraper } from '../measure/metrics-scraper.ts';
import type { ContenderIdentity } from '../run/identity.ts';
import { readinessTarget, waitUntilReady } from '../run/readiness.ts';
import { readAuditWindow } from './audit-window.ts';
import { timedCreates } from './create-loop.ts';
import type { AdmissionOptions } from './flags.ts';
import type { AdmissionPhase, PhaseName } from './result.ts';
import { millisecondStats } from './stats.ts';
import { ADMISSION_WEBHOOK } from './webhook.ts';
import { apiServerIncrease, apiServerWebhookBuckets, WEBHOOK_LATENCY, webhookHistogram } from './webhook-histograms.ts';
import { assertNoWebhook, waitUntilWebhookDenies } from './webhook-probe.ts';

const READY_TIMEOUT_MS = 120_000;
const WEBHOOK_TIMEOUT_MS = 60_000;
/** As the scenarios scrape: often enough for the event-loop delay's peak, rarely enough to cost the launcher nothing that shows. */
const SCRAPE_INTERVAL_MS = 2_000;
/** kube-apiserver writes an audit event after the response; a moment for the last ones to land. */
const AUDIT_FLUSH_MS = 1_000;

/** What every phase shares: one control plane, the loop's client, the launcher's identity. */
export interface PhaseEnvironment {
  readonly cluster: LocalCluster;
  readonly client: Client;
  /** The loop client's user agent (it shares the admin identity with the control plane). */
  readonly userAgent: string;
  readonly identity: ContenderIdentity;
  readonly options: AdmissionOptions;
  readonly log: (line: string) => void;
}

export interface PhasePlan {
  readonly name: PhaseName;
  readonly namespace: string;
  /** The launcher's flags on top of the contender's usual ones. */
  readonly launcherArgs: readonly string[];
  /** Whether the webhook must refuse the probe (else: admit it). */
  readonly webhook: boolean;
}

interface StartedLauncher {
  readonly contender: Contender;
  readonly running: RunningContender;
  readonly context: ContenderContext;
  readonly startedAt: number;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function startLauncher(plan: PhasePlan, env: PhaseEnvironment): Promise<StartedLauncher> {
  const controllerManager = env.cluster.components.find((component) => component.name === 'kube-controller-manager');
  const context: ContenderContext = {
    kubeconfigPath: env.identity.kubeconfigPath,
    username: env.identity.username,
    qps: 0,
    burst: 0,
    metricsPorts: [await freeLoopbackPort()],
    controllerManagerPid: controllerManager?.pid ?? 0,
    logFile: path.join(env.options.workDir, `launcher-${plan.name.replace(/\W+/g, '-')}.log`),
    extraArgs: plan.launcherArgs,
  };
  const contender = kruiseTsContender('kruise-ts', env.options.runtime);
  const running = await contender.start(context);
  return { contender, running, context, startedAt: performance.now() };
}

async function waitForLauncher(launcher: StartedLauncher): Promise<number> {
  const target = readinessTarget(launcher.contender, launcher.running, launcher.context);
  if (target === undefined) {
    throw new Error('the launcher serves no /metrics to wait for');
  }
  return waitUntilReady('kruise-ts', target, {
    timeoutMs: READY_TIMEOUT_MS,
    intervalMs: 250,
    startedAt: launcher.startedAt,
    alive: () => alive(launcher.running.pid),
  }).catch((error: unknown) => {
    throw new Error(
      `${error instanceof Error ? error.message : String(error)} (its output: ${launcher.context.logFile})`,
    );
  });
}

/** `<configuration>/<webhook>` of every ValidatingWebhookConfiguration in the cluster. */
async function validatingWebhooks(client: Client): Promise<string[]> {
  const list = await client.listAll(validatingWebhookConfigurationResource);
  return list.items.flatMap((configuration) =>
    (configuration.webhooks ?? []).map((webhook) => `${configuration.metadata?.name ?? ''}/${webhook.name}`),
  );
}

/** The webhook phase: seconds until the webhook refused the probe; the baseline: undefined, once it admitted it. */
async function checkWebhookPath(plan: PhasePlan, env: PhaseEnvironment): Promise<number | undefined> {
  const probe = { namespace: plan.namespace, webhookName: ADMISSION_WEBHOOK.name };
  if (!plan.webhook) {
    await assertNoWebhook(env.client, probe);
    return undefined;
  }
  return waitUntilWebhookDenies(env.client, { ...probe, timeoutMs: WEBHOOK_TIMEOUT_MS });
}

async function fileSize(file: string): Promise<number> {
  return stat(file).then(
    (info) => info.size,
    () => 0,
  );
}

type LoopFigures = Pick<
  AdmissionPhase,
  | 'loopSeconds'
  | 'client'
  | 'server'
  | 'dryRunPodCreates'
  | 'apiServerWebhook'
  | 'launcherWebhook'
  | 'launcherMetrics'
  | 'loadAverage'
>;

/** The launcher's figures of the window (its webhook histogram, reconciles, event-loop delay); stops the scraper. */
async function launcherFigures(
  scraper: MetricsScraper,
): Promise<Pick<AdmissionPhase, 'launcherWebhook' | 'launcherMetrics'>> {
  const buckets = await scraper.histogramIncrease(WEBHOOK_LATENCY, { webhook: ADMISSION_WEBHOOK.path });
  const launcherMetrics = await scraper.snapshot();
  scraper.stop();
  return { launcherWebhook: webhookHistogram(buckets), launcherMetrics };
}

/** The measured loop, with the histograms, the audit log's range and the load around it. */
async function measuredLoop(plan: PhasePlan, env: PhaseEnvironment, running: RunningContender): Promise<LoopFigures> {
  const apiServerBefore = await apiServerWebhookBuckets(env.cluster, ADMISSION_WEBHOOK.name);
  const scraper = startMetricsScraper(running.metricsUrls, SCRAPE_INTERVAL_MS);
  await scraper.markWindowStart();
  const fromOffset = await fileSize(env.cluster.auditLogPath);
  const loadBefore = os.loadavg()[0] ?? 0;
  const started = performance.now();
  const samples = await timedCreates(env.client, {
    namespace: plan.namespace,
    prefix: 'cs',
    count: env.options.creates,
  });
  const loopSeconds = (performance.now() - started) / 1000;
  const loadAfter = os.loadavg()[0] ?? 0;
  await sleep(AUDIT_FLUSH_MS);
  const toOffset = await fileSize(env.cluster.auditLogPath);
  const launcher = await launcherFigures(scraper);
  const apiServerWebhook = apiServerIncrease(
    apiServerBefore,
    await apiServerWebhookBuckets(env.cluster, ADMISSION_WEBHOOK.name),
  );
  const audit = await readAuditWindow(
    env.cluster.auditLogPath,
    { fromOffset, toOffset },
    { namespace: plan.namespace, loopUserAgent: env.userAgent, launcherUsername: env.identity.username },
  );
  return {
    loopSeconds: Number(loopSeconds.toFixed(3)),
    client: millisecondStats(samples),
    server: audit.cloneSetCreates,
    dryRunPodCreates: audit.dryRunPodCreates,
    ...(apiServerWebhook === undefined ? {} : { apiServerWebhook }),
    ...launcher,
    loadAverage: { before: loadBefore, after: loadAfter },
  };
}

/** Runs one phase on its own launcher; the launcher is stopped however the phase ends. */
export async function runPhase(plan: PhasePlan, env: PhaseEnvironment): Promise<AdmissionPhase> {
  env.log(`${plan.name}: starting the launcher (${plan.launcherArgs.join(' ')})`);
  const launcher = await startLauncher(plan, env);
  try {
    const readySeconds = await waitForLauncher(launcher);
    const effectiveSeconds = await checkWebhookPath(plan, env);
    env.log(
      `${plan.name}: launcher ready after ${readySeconds.toFixed(1)} s${effectiveSeconds === undefined ? '; the probe was admitted (no webhook)' : `, webhook refusing the probe ${effectiveSeconds.toFixed(1)} s later`}`,
    );
    const webhooks = await validatingWebhooks(env.client);
    await timedCreates(env.client, { namespace: plan.namespace, prefix: 'warmup', count: env.options.warmup });
    env.log(
      `${plan.name}: ${String(env.options.warmup)} warm-up creates done; measuring ${String(env.options.creates)} creates in ${plan.namespace}`,
    );
    const figures = await measuredLoop(plan, env, launcher.running);
    env.log(
      `${plan.name}: client-side p50 ${figures.client.p50Ms.toFixed(2)} ms, p99 ${figures.client.p99Ms.toFixed(2)} ms`,
    );
    return {
      name: plan.name,
      namespace: plan.namespace,
      launcherCommand: launcher.running.info.command,
      launcherReadySeconds: Number(readySeconds.toFixed(3)),
      ...(effectiveSeconds === undefined ? {} : { webhookEffectiveSeconds: Number(effectiveSeconds.toFixed(3)) }),
      validatingWebhooks: webhooks,
      ...figures,
    };
  } finally {
    await launcher.running.stop();
  }
}
