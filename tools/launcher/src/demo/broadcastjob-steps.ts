/**
 * The demo's BroadcastJob, after the workloads: one pod run to completion on each of the demo's
 * nodes, two at a time, followed by its status line until the job completes.
 *
 * The demo's nodes are the oldest Ready nodes that take pods (at most four): on the demo's own
 * cluster its four nodes; on a shared one the nodes it started with, not the ones tests add and
 * remove while the demo runs. The job names them in its node affinity, so that no later node joins it.
 */
import type { BroadcastJob, Node } from '@kruise-ts/api';
import { broadcastJobResource } from '@kruise-ts/broadcastjob';
import { isNotFound } from '@kruise-ts/controller-runtime';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { nodeResource } from '@kruise-ts/workload';

import { followObject, ObjectWatch, until } from './cloneset-steps.ts';
import type { StepContext } from './cloneset-steps.ts';
import { jobProgressText } from './status-line.ts';

const NAME = 'demo-bcj';
/** Most nodes the job runs on, so that the step stays short on a large cluster. */
const MAX_NODES = 4;
const PARALLELISM = 2;
/** How long the simulated kubelet runs each pod (sim.kruise-ts.io/run-ms, docs/local-control-plane.md). */
const RUN_MS = 2000;

/** What the BroadcastJob part showed. */
export interface BroadcastJobDemoResult {
  readonly name: string;
  readonly nodes: number;
  readonly parallelism: number;
  readonly succeeded: number;
  readonly failed: number;
  readonly completedMs: number;
}

function takesPods(node: DeepReadonly<Node>): boolean {
  const ready =
    node.status?.conditions?.some((condition) => condition.type === 'Ready' && condition.status === 'True') === true;
  const repelling = (node.spec?.taints ?? []).some(
    (taint) => taint.effect === 'NoSchedule' || taint.effect === 'NoExecute',
  );
  return ready && node.spec?.unschedulable !== true && !repelling;
}

/** The demo's nodes (see the file's comment), oldest first. */
async function demoNodes(ctx: StepContext): Promise<string[]> {
  const nodes = (await ctx.client.list(nodeResource)).items.filter(takesPods);
  const key = (node: DeepReadonly<Node>): string =>
    `${node.metadata?.creationTimestamp ?? ''} ${node.metadata?.name ?? ''}`;
  const names = nodes
    .sort((a, b) => key(a).localeCompare(key(b)))
    .slice(0, MAX_NODES)
    .map((node) => node.metadata?.name ?? '');
  if (names.length === 0) {
    throw new Error('no Ready, schedulable node without a NoSchedule taint for the BroadcastJob');
  }
  return names;
}

/** The job: one short busybox pod per named node (a node affinity term per node: terms are ORed). */
function sampleJob(namespace: string, nodes: readonly string[]): BroadcastJob {
  const terms = nodes.map((node) => ({ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] }));
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'BroadcastJob',
    metadata: { name: NAME, namespace },
    spec: {
      parallelism: PARALLELISM,
      template: {
        metadata: { labels: { app: NAME }, annotations: { 'sim.kruise-ts.io/run-ms': String(RUN_MS) } },
        spec: {
          containers: [{ name: 'hello', image: 'busybox:1.36', command: ['sh', '-c', 'echo hello from $(hostname)'] }],
          restartPolicy: 'Never',
          terminationGracePeriodSeconds: 0,
          affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } } },
        },
      },
      completionPolicy: { type: 'Always' },
      failurePolicy: { type: 'FailFast', restartLimit: 0 },
      paused: false,
    },
  };
}

function finished(job: DeepReadonly<BroadcastJob>): boolean {
  return (job.status?.conditions ?? []).some(
    (condition) => condition.status === 'True' && (condition.type === 'Complete' || condition.type === 'Failed'),
  );
}

/** Deletes a job left by an earlier run, with its pods, and waits until it is gone. */
async function deleteEarlierJob(ctx: StepContext): Promise<void> {
  const key = { namespace: ctx.namespace, name: NAME };
  await ctx.client.delete(broadcastJobResource, key, { propagationPolicy: 'Foreground' }).catch((error: unknown) => {
    if (!isNotFound(error)) {
      throw error;
    }
  });
  await until(ctx, `the old ${NAME} to be gone`, () =>
    ctx.client.get(broadcastJobResource, key).then(
      () => false,
      (error: unknown) => isNotFound(error),
    ),
  );
}

/** Creates the job on the demo's nodes and follows it until it completes; throws when it fails. */
export async function playBroadcastJob(ctx: StepContext): Promise<BroadcastJobDemoResult> {
  await deleteEarlierJob(ctx);
  const nodes = await demoNodes(ctx);
  ctx.out.write(
    `One pod on each of ${String(nodes.length)} nodes (${nodes.join(', ')}), ${String(PARALLELISM)} at a time, each running ${String(RUN_MS / 1000)}s\n`,
  );
  const watch = new ObjectWatch(ctx, broadcastJobResource);
  try {
    await ctx.client.create(broadcastJobResource, sampleJob(ctx.namespace, nodes));
    const { elapsedMs, object: job } = await followObject(ctx, watch, {
      kind: 'BroadcastJob',
      name: NAME,
      text: jobProgressText,
      goal: finished,
    });
    if (job.status?.phase !== 'completed') {
      throw new Error(`BroadcastJob ${NAME} did not complete: ${jobProgressText(job)}`);
    }
    return {
      name: NAME,
      nodes: job.status.desired,
      parallelism: PARALLELISM,
      succeeded: job.status.succeeded,
      failed: job.status.failed,
      completedMs: elapsedMs,
    };
  } finally {
    watch.stop();
  }
}
