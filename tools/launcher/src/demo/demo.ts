/**
 * The demo on a cluster it is given: CRDs, the controllers in this process (or the chart's apps
 * installed beforehand, `npm run demo -- --chart`), the document's sample
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
import { applyFresh, CloneSetWatch, follow, podsOf, sampleCloneSet, settled } from './cloneset-steps.ts';
import type { StepContext } from './cloneset-steps.ts';
import { playStatefulSet } from './statefulset-steps.ts';
import type { Output } from './status-line.ts';
import { summaryLines } from './summary.ts';
import type { ControllerWrites, DemoSummary } from './summary.ts';
import { WriteTally } from './write-tally.ts';

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const SAMPLE = new URL('../../demo/sample-cloneset.yaml', import.meta.url);
const NEW_IMAGE = 'nginx:mainline';
const PARTITION = 3;
const CRD_FILES = [
  'apps.kruise.io_clonesets.yaml',
  'apps.kruise.io_statefulsets.yaml',
  'apps.kruise.io_broadcastjobs.yaml',
];
/** BroadcastJob is off by default (kruise-ts's gate: OpenKruise has none and always runs it); the demo's process turns it on for its job. */
const DEMO_FEATURE_GATES = 'BroadcastJob=true';

/**
 * Who reconciles the demo's workloads: `in-process` (the default) applies the CRDs and runs the
 * controllers in this process; `installed` uses the apps the chart installed on the cluster
 * (`--chart`: the chart brings the CRDs), whose API writes this process cannot count.
 */
export type DemoControllers = 'in-process' | 'installed';

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
  readonly controllers?: DemoControllers | undefined;
}

export type { DemoSummary } from './summary.ts';

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

const uidsOf = async (ctx: StepContext, selector: string): Promise<string[]> =>
  (await podsOf(ctx, selector)).map((pod) => pod.metadata?.uid ?? '');

async function inPlaceUpdate(
  ctx: StepContext,
  watch: CloneSetWatch,
  cs: DeepReadonly<CloneSet>,
): Promise<{ partitionMs: number; finishMs: number }> {
  const { client } = ctx;
  const name = cs.metadata.name ?? '';
  heading(
    ctx.out,
    `In-place update to ${NEW_IMAGE}, partition ${String(PARTITION)}: ${String(cs.spec.replicas - PARTITION)} pods are updated, ${String(PARTITION)} stay`,
  );
  const [container] = cs.spec.template.spec?.containers ?? [];
  await client.patch(
    cloneSetResource,
    { namespace: ctx.namespace, name },
    {
      type: 'merge',
      body: {
        spec: {
          updateStrategy: { type: 'InPlaceIfPossible', partition: PARTITION },
          template: { spec: { containers: [{ ...container, image: NEW_IMAGE }] } },
        },
      },
    },
  );
  const held = await follow(ctx, watch, {
    name,
    goal: (c) => settled(c) && c.status?.updatedReplicas === c.spec.replicas - PARTITION,
  });
  heading(ctx.out, 'Partition 0: the rest follow');
  await client.patch(
    cloneSetResource,
    { namespace: ctx.namespace, name },
    { type: 'merge', body: { spec: { updateStrategy: { partition: 0 } } } },
  );
  const done = await follow(ctx, watch, {
    name,
    goal: (c) =>
      settled(c) &&
      c.status?.updatedReplicas === c.spec.replicas &&
      c.status.currentRevision === c.status.updateRevision,
  });
  return { partitionMs: held.elapsedMs, finishMs: done.elapsedMs };
}

function printSummary(out: Output, summary: DemoSummary): void {
  heading(out, 'Summary');
  out.write([...summaryLines(summary), ''].join('\n'));
}

/** The scale-out and the in-place update, measured; the controllers are running (`tally` counts their writes when they run here). */
async function playSample(
  ctx: StepContext,
  tally: WriteTally | undefined,
): Promise<Omit<DemoSummary, 'statefulSet' | 'broadcastJob'>> {
  const sample = sampleCloneSet(await readFile(SAMPLE, 'utf8'), ctx.namespace);
  const name = sample.metadata.name ?? '';
  const selector = Object.entries(sample.spec.selector.matchLabels ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  heading(ctx.out, `The document's sample CloneSet: ${name}, ${String(sample.spec.replicas)} replicas`);
  await applyFresh(ctx, sample);
  const watch = new CloneSetWatch(ctx);
  try {
    const scaled = await follow(ctx, watch, { name, goal: settled });
    const before = await uidsOf(ctx, selector);
    const writesBefore = tally?.total('pods') ?? 0;
    const update = await inPlaceUpdate(ctx, watch, scaled.cs);
    const after = await podsOf(ctx, selector);
    return summaryOf({
      scaledMs: scaled.elapsedMs,
      update,
      before,
      after,
      writes: writesOf(tally, writesBefore, after.length),
    });
  } finally {
    watch.stop();
  }
}

/** The writes `tally` counted, those to pods since `podWritesBefore` per pod of `pods`. */
function writesOf(tally: WriteTally | undefined, podWritesBefore: number, pods: number): ControllerWrites | undefined {
  if (tally === undefined) {
    return undefined;
  }
  const podWrites = tally.total('pods');
  return { pods: podWrites, updatePerPod: (podWrites - podWritesBefore) / Math.max(pods, 1), all: tally.describe() };
}

function summaryOf(input: {
  scaledMs: number;
  update: { partitionMs: number; finishMs: number };
  before: readonly string[];
  after: readonly Pod[];
  writes: ControllerWrites | undefined;
}): Omit<DemoSummary, 'statefulSet' | 'broadcastJob'> {
  const { update, before, after } = input;
  return {
    scaleOutMs: input.scaledMs,
    partitionMs: update.partitionMs,
    finishMs: update.finishMs,
    pods: after.length,
    podsKept: after.filter((pod) => before.includes(pod.metadata?.uid ?? '')).length,
    restarts: after.reduce(
      (sum, pod) => sum + (pod.status?.containerStatuses ?? []).reduce((s, c) => s + c.restartCount, 0),
      0,
    ),
    writes: input.writes,
  };
}

/** Every step, one after another; the controllers are running. */
async function playAll(ctx: StepContext, tally: WriteTally | undefined): Promise<DemoSummary> {
  const cloneSet = await playSample(ctx, tally);
  heading(ctx.out, 'An Advanced StatefulSet next to it: 3 pods with a PVC each, then an in-place update');
  const statefulSet = await playStatefulSet(ctx, { from: 'nginx:alpine', to: NEW_IMAGE });
  heading(ctx.out, 'A BroadcastJob: one pod run to completion on each node');
  return { ...cloneSet, statefulSet, broadcastJob: await playBroadcastJob(ctx) };
}

function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    signal.addEventListener(
      'abort',
      () => {
        resolve();
      },
      { once: true },
    );
  });
}

/** The controllers the demo's steps run against; `tally` counts their writes when they run in this process. */
interface DemoControllersHandle {
  readonly tally: WriteTally | undefined;
  /** What `--keep` leaves running, for its message. */
  readonly running: string;
  stop(): Promise<void>;
}

/** The CRDs applied and the enabled controllers started in this process. */
async function startInProcess(options: DemoOptions): Promise<DemoControllersHandle> {
  const { out, namespace } = options;
  heading(out, 'Installing the CRDs');
  await applyCrdFiles(
    options.kubeConfig,
    CRD_FILES.map((file) => path.join(REPO_ROOT, 'crds', file)),
  );
  await ensureNamespace(options.kubeConfig, namespace);
  const tally = new WriteTally();
  // The local webhook configuration (a free port on 127.0.0.1) takes effect once the SidecarSet gate is on.
  const flags = launcherFlagsSchema.parse({
    'feature-gates': DEMO_FEATURE_GATES,
    'leader-elect': 'false',
    'metrics-bind-address': '0',
    'health-probe-bind-address': '0',
    namespace,
    'webhook-local-configuration': 'kruise-ts-demo',
    'webhook-port': '0',
  });
  const controllers = startControllers({
    flags,
    kubeConfig: options.kubeConfig,
    logger: createLogger({ level: 'info', destination: options.controllerLog }),
    requestObservers: [tally],
  });
  out.write(
    `Controllers running in this process: ${controllers.apps.map((app) => app.name).join(', ')} (watching namespace ${namespace})\n`,
  );
  return { tally, running: 'The controllers keep running', stop: () => controllers.stop() };
}

/** The chart's apps, installed by the caller: nothing to start or stop here, and their writes are not this process's. */
async function useInstalledApps(options: DemoOptions): Promise<DemoControllersHandle> {
  await ensureNamespace(options.kubeConfig, options.namespace);
  options.out.write("Controllers: the chart's apps, each in its own pod (this process runs none)\n");
  return { tally: undefined, running: "The chart's apps keep running", stop: () => Promise.resolve() };
}

/** Runs the demo; the caller owns the cluster (and the chart's apps, `installed`). Stops the controllers it started before returning. */
export async function runDemo(options: DemoOptions): Promise<DemoSummary> {
  const { out, namespace } = options;
  const controllers =
    options.controllers === 'installed' ? await useInstalledApps(options) : await startInProcess(options);
  try {
    const client = createClient(
      new Transport({ kubeConfig: options.kubeConfig, qps: 50, burst: 100, userAgent: 'kruise-ts-demo' }),
    );
    const ctx: StepContext = {
      client,
      namespace,
      out,
      signal: options.signal,
      stepTimeoutMs: options.stepTimeoutMs ?? 180_000,
    };
    const summary = await playAll(ctx, controllers.tally);
    printSummary(out, summary);
    if (options.keepRunning === true) {
      out.write(
        `${controllers.running}; try: kubectl -n ${namespace} get clone,asts,bcj,pods,pvc. Ctrl-C stops everything the demo started.\n`,
      );
      await untilAborted(options.signal);
    }
    return summary;
  } finally {
    await controllers.stop();
  }
}
