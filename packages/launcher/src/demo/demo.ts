/**
 * The demo on a cluster it is given: CRDs, the controllers in this process, the document's sample
 * CloneSet scaling out, then an in-place image update held at partition 3 and released, an Advanced
 * StatefulSet with per-ordinal PVCs updated in place next to it, a BroadcastJob running one pod on
 * each of the demo's nodes to completion, and a summary.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { ApiException, CoreV1Api } from '@kubernetes/client-node';
import type { KubeConfig } from '@kubernetes/client-node';
import { cloneSetResource } from '@kruise-ts/cloneset';
import type { CloneSet, Pod } from '@kruise-ts/api';
import { createClient, createLogger, Transport } from '@kruise-ts/controller-runtime';
import type { DeepReadonly, TextSink } from '@kruise-ts/controller-runtime';
import { applyCrdFiles } from '@kruise-ts/local-cluster';

import { launcherFlagsSchema } from '../apps.ts';
import { startControllers } from '../controllers.ts';
import { playBroadcastJob } from './broadcastjob-steps.ts';
import type { BroadcastJobDemoResult } from './broadcastjob-steps.ts';
import { applyFresh, CloneSetWatch, follow, podsOf, sampleCloneSet, settled } from './cloneset-steps.ts';
import type { StepContext } from './cloneset-steps.ts';
import { playStatefulSet } from './statefulset-steps.ts';
import type { StatefulSetDemoResult } from './statefulset-steps.ts';
import type { Output } from './status-line.ts';
import { WriteTally } from './write-tally.ts';

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const SAMPLE = new URL('../../demo/sample-cloneset.yaml', import.meta.url);
const NEW_IMAGE = 'nginx:mainline';
const PARTITION = 3;
const CRD_FILES = ['apps.kruise.io_clonesets.yaml', 'apps.kruise.io_statefulsets.yaml', 'apps.kruise.io_broadcastjobs.yaml'];
/** BroadcastJob is off by default (kruise-ts's gate: OpenKruise has none and always runs it); the demo's process turns it on for its job. */
const DEMO_FEATURE_GATES = 'BroadcastJob=true';

export interface DemoOptions {
  readonly kubeConfig: KubeConfig;
  readonly namespace: string;
  readonly out: Output;
  readonly signal: AbortSignal;
  /** Where the controllers' log lines go (JSON), so they do not mix with the live display. */
  readonly controllerLog: TextSink;
  readonly stepTimeoutMs?: number | undefined;
  /** Leave the controllers running after the summary, until the signal aborts. */
  readonly keepRunning?: boolean | undefined;
}

export interface DemoSummary {
  readonly scaleOutMs: number;
  readonly partitionMs: number;
  readonly finishMs: number;
  readonly podsKept: number;
  readonly pods: number;
  readonly restarts: number;
  readonly podWrites: number;
  /** Controller writes to pods during the in-place update, per pod. */
  readonly updateWritesPerPod: number;
  readonly writes: string;
  /** The Advanced StatefulSet next to the CloneSet. */
  readonly statefulSet: StatefulSetDemoResult;
  readonly broadcastJob: BroadcastJobDemoResult;
}

async function ensureNamespace(kubeConfig: KubeConfig, name: string): Promise<void> {
  await kubeConfig
    .makeApiClient(CoreV1Api)
    .createNamespace({ body: { metadata: { name, labels: { 'app.kubernetes.io/part-of': 'kruise-ts-demo' } } } })
    .catch((error: unknown) => {
      if (!(error instanceof ApiException && error.code === 409)) {
        throw error;
      }
    });
}

function heading(out: Output, text: string): void {
  out.write(`\n== ${text}\n`);
}

const uidsOf = async (ctx: StepContext, selector: string): Promise<string[]> => (await podsOf(ctx, selector)).map((pod) => pod.metadata?.uid ?? '');

async function inPlaceUpdate(ctx: StepContext, watch: CloneSetWatch, cs: DeepReadonly<CloneSet>): Promise<{ partitionMs: number; finishMs: number }> {
  const { client } = ctx;
  const name = cs.metadata.name ?? '';
  heading(ctx.out, `In-place update to ${NEW_IMAGE}, partition ${String(PARTITION)}: ${String(cs.spec.replicas - PARTITION)} pods are updated, ${String(PARTITION)} stay`);
  const [container] = cs.spec.template.spec?.containers ?? [];
  await client.patch(cloneSetResource, { namespace: ctx.namespace, name }, {
    type: 'merge',
    body: {
      spec: {
        updateStrategy: { type: 'InPlaceIfPossible', partition: PARTITION },
        template: { spec: { containers: [{ ...container, image: NEW_IMAGE }] } },
      },
    },
  });
  const held = await follow(ctx, watch, { name, goal: (c) => settled(c) && c.status?.updatedReplicas === c.spec.replicas - PARTITION });
  heading(ctx.out, 'Partition 0: the rest follow');
  await client.patch(cloneSetResource, { namespace: ctx.namespace, name }, { type: 'merge', body: { spec: { updateStrategy: { partition: 0 } } } });
  const done = await follow(ctx, watch, { name, goal: (c) => settled(c) && c.status?.updatedReplicas === c.spec.replicas && c.status.currentRevision === c.status.updateRevision });
  return { partitionMs: held.elapsedMs, finishMs: done.elapsedMs };
}

function printSummary(out: Output, summary: DemoSummary): void {
  heading(out, 'Summary');
  out.write(
    [
      `  scale out 0 → ${String(summary.pods)} pods, all available:        ${(summary.scaleOutMs / 1000).toFixed(1)}s`,
      `  in-place update up to the partition:       ${(summary.partitionMs / 1000).toFixed(1)}s`,
      `  the remaining pods after partition 0:      ${(summary.finishMs / 1000).toFixed(1)}s`,
      `  pods kept through the update (same UID):   ${String(summary.podsKept)}/${String(summary.pods)}, container restarts ${String(summary.restarts)}`,
      `  controller writes per pod for the update:  ${summary.updateWritesPerPod.toFixed(1)} (OpenKruise: 4)`,
      `  controller writes to pods in all:          ${String(summary.podWrites)}`,
      `  all controller writes:                     ${summary.writes}`,
      `  Advanced StatefulSet demo-db: ${String(summary.statefulSet.pods)} pods with a PVC each in ${(summary.statefulSet.createdMs / 1000).toFixed(1)}s, updated in place in ${(summary.statefulSet.updatedMs / 1000).toFixed(1)}s, pods kept ${String(summary.statefulSet.podsKept)}/${String(summary.statefulSet.pods)}, PVCs kept ${String(summary.statefulSet.claimsKept)}/${String(summary.statefulSet.pods)}`,
      `  BroadcastJob ${summary.broadcastJob.name}: ${String(summary.broadcastJob.nodes)} nodes, ${String(summary.broadcastJob.parallelism)} pods at a time, completed in ${(summary.broadcastJob.completedMs / 1000).toFixed(1)}s, ${String(summary.broadcastJob.succeeded)} succeeded, ${String(summary.broadcastJob.failed)} failed`,
      '',
    ].join('\n'),
  );
}

/** The scale-out and the in-place update, measured; the controllers are running. */
async function playSample(ctx: StepContext, tally: WriteTally): Promise<Omit<DemoSummary, 'statefulSet' | 'broadcastJob'>> {
  const sample = sampleCloneSet(await readFile(SAMPLE, 'utf8'), ctx.namespace);
  const name = sample.metadata.name ?? '';
  const selector = Object.entries(sample.spec.selector.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`).join(',');
  heading(ctx.out, `The document's sample CloneSet: ${name}, ${String(sample.spec.replicas)} replicas`);
  await applyFresh(ctx, sample);
  const watch = new CloneSetWatch(ctx);
  try {
    const scaled = await follow(ctx, watch, { name, goal: settled });
    const before = await uidsOf(ctx, selector);
    const writesBefore = tally.total('pods');
    const update = await inPlaceUpdate(ctx, watch, scaled.cs);
    const after = await podsOf(ctx, selector);
    return summaryOf({ scaledMs: scaled.elapsedMs, update, before, after, podWritesForUpdate: tally.total('pods') - writesBefore, tally });
  } finally {
    watch.stop();
  }
}

function summaryOf(input: {
  scaledMs: number;
  update: { partitionMs: number; finishMs: number };
  before: readonly string[];
  after: readonly Pod[];
  podWritesForUpdate: number;
  tally: WriteTally;
}): Omit<DemoSummary, 'statefulSet' | 'broadcastJob'> {
  const { update, before, after, tally } = input;
  return {
    scaleOutMs: input.scaledMs,
    partitionMs: update.partitionMs,
    finishMs: update.finishMs,
    pods: after.length,
    podsKept: after.filter((pod) => before.includes(pod.metadata?.uid ?? '')).length,
    restarts: after.reduce((sum, pod) => sum + (pod.status?.containerStatuses ?? []).reduce((s, c) => s + c.restartCount, 0), 0),
    podWrites: tally.total('pods'),
    updateWritesPerPod: input.podWritesForUpdate / Math.max(after.length, 1),
    writes: tally.describe(),
  };
}

/** Every step, one after another; the controllers are running. */
async function playAll(ctx: StepContext, tally: WriteTally): Promise<DemoSummary> {
  const cloneSet = await playSample(ctx, tally);
  heading(ctx.out, 'An Advanced StatefulSet next to it: 3 pods with a PVC each, then an in-place update');
  const statefulSet = await playStatefulSet(ctx, { from: 'nginx:alpine', to: NEW_IMAGE });
  heading(ctx.out, 'A BroadcastJob: one pod run to completion on each node');
  return { ...cloneSet, statefulSet, broadcastJob: await playBroadcastJob(ctx) };
}

function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    signal.addEventListener('abort', () => {
      resolve();
    }, { once: true });
  });
}

/** Runs the demo; the caller owns the cluster. Stops the controllers it started before returning. */
export async function runDemo(options: DemoOptions): Promise<DemoSummary> {
  const { out, namespace } = options;
  heading(out, 'Installing the CRDs');
  await applyCrdFiles(options.kubeConfig, CRD_FILES.map((file) => path.join(REPO_ROOT, 'crds', file)));
  await ensureNamespace(options.kubeConfig, namespace);
  const tally = new WriteTally();
  // The local webhook configuration (a free port on 127.0.0.1) takes effect once the SidecarSet gate is on.
  const flags = launcherFlagsSchema.parse({ 'feature-gates': DEMO_FEATURE_GATES, 'leader-elect': 'false', 'metrics-bind-address': '0', 'health-probe-bind-address': '0', namespace, 'webhook-local-configuration': 'kruise-ts-demo', 'webhook-port': '0' });
  const controllers = startControllers({
    flags,
    kubeConfig: options.kubeConfig,
    logger: createLogger({ level: 'info', destination: options.controllerLog }),
    requestObservers: [tally],
  });
  out.write(`Controllers running in this process: ${controllers.apps.map((app) => app.name).join(', ')} (watching namespace ${namespace})\n`);
  try {
    const client = createClient(new Transport({ kubeConfig: options.kubeConfig, qps: 50, burst: 100, userAgent: 'kruise-ts-demo' }));
    const ctx: StepContext = { client, namespace, out, signal: options.signal, stepTimeoutMs: options.stepTimeoutMs ?? 180_000 };
    const summary = await playAll(ctx, tally);
    printSummary(out, summary);
    if (options.keepRunning === true) {
      out.write(`The controllers keep running; try: kubectl -n ${namespace} get clone,asts,bcj,pods,pvc. Ctrl-C stops everything the demo started.\n`);
      await untilAborted(options.signal);
    }
    return summary;
  } finally {
    await controllers.stop();
  }
}
