/**
 * bcj-nodes: a BroadcastJob whose pod on each of the cluster's N nodes runs for a fixed time
 * (`--job-run-ms`, the simulated kubelet's `sim.kruise-ts.io/run-ms`), measured until the job is
 * Complete; the baseline is kube-controller-manager's DaemonSet controller placing the same pod on
 * every node, measured until its status counts every pod ready (a DaemonSet's pods never end). Both
 * pin each pod to its node by node affinity and let kube-scheduler bind it. The comparable figure is
 * when every node's pod ran, from a watch of the pods (measure/per-node-pods.ts); the job's
 * completion comes on top of it, at least the run time later.
 */
import { isNotFound } from '@kruise-ts/controller-runtime';

import { resourceOf } from '../measure/workloads.ts';
import type { Workload } from '../measure/workloads.ts';
import type { Scenario, ScenarioContext } from './scenario.ts';
import { perNodeManifest } from './manifests.ts';
import { WORKLOAD } from './workload-steps.ts';

/** The warm-up's workload: it selects no node, so it proves the contender works without making a pod. */
const WARMUP = 'warmup';
const NO_NODE = { 'kruise-ts.io/bench-warmup': 'no-such-node' };
const POLL_MS = 100;
const WARMUP_TIMEOUT_MS = 120_000;

function perNodeKind(context: ScenarioContext): 'BroadcastJob' | 'DaemonSet' {
  if (context.kind !== 'BroadcastJob' && context.kind !== 'DaemonSet') {
    throw new Error(`bcj-nodes drives BroadcastJobs or DaemonSets, not ${context.kind}`);
  }
  return context.kind;
}

/** Whether the contender has worked on the workload: a DaemonSet's status observed its generation, a BroadcastJob's has a start time. */
function handled(workload: Workload): boolean {
  if (workload.kind === 'DaemonSet') {
    return workload.status?.observedGeneration === workload.metadata?.generation;
  }
  return (workload.status as { startTime?: string } | undefined)?.startTime !== undefined;
}

async function pollUntil(description: string, probe: () => Promise<boolean>): Promise<void> {
  const deadline = performance.now() + WARMUP_TIMEOUT_MS;
  while (!(await probe())) {
    if (performance.now() > deadline) {
      throw new Error(`bcj-nodes: ${description} did not happen within ${String(WARMUP_TIMEOUT_MS / 1000)} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/**
 * The contender starts only as its cluster is ready, and kube-controller-manager has long been
 * running by then: a workload that selects no node, handled and then deleted, makes sure both have
 * their caches of the 1,000 nodes before the clock starts.
 */
async function warmUp(context: ScenarioContext): Promise<void> {
  const resource = resourceOf(context.kind);
  const key = { namespace: context.namespace, name: WARMUP };
  await context.client.create(
    resource,
    perNodeManifest({
      kind: perNodeKind(context),
      name: WARMUP,
      namespace: context.namespace,
      runMs: context.options.jobRunMs,
      nodeSelector: NO_NODE,
    }),
  );
  await pollUntil(`the contender handling the warm-up ${context.kind}`, async () =>
    handled(await context.client.get(resource, key)),
  );
  await context.client.delete(resource, key, { propagationPolicy: 'Background' });
  await pollUntil(`the warm-up ${context.kind}'s deletion`, () =>
    context.client.get(resource, key).then(
      () => false,
      (error: unknown) => {
        if (isNotFound(error)) {
          return true;
        }
        throw error;
      },
    ),
  );
}

export const bcjNodesScenario: Scenario = {
  name: 'bcj-nodes',
  family: 'broadcastjob',
  workloadCount: () => 1,
  preparedPods: () => 0,
  prepare: warmUp,
  async change(context) {
    const manifest = perNodeManifest({
      kind: perNodeKind(context),
      name: WORKLOAD,
      namespace: context.namespace,
      runMs: context.options.jobRunMs,
    });
    await context.client.create(resourceOf(context.kind), manifest);
    return { pods: context.options.pods, touched: [`${context.namespace}/${WORKLOAD}`] };
  },
  // The all-in-one process with the BroadcastJob controller on (its gate is off by default).
  contenderArgs: ['--feature-gates=BroadcastJob=true'],
  perNode: true,
};
