/**
 * A BroadcastJob's pod creations and deletions, through `@kruise-ts/pod-control` as CloneSet's and
 * Advanced StatefulSet's: slow-start batches of creations and at most 64 writes in flight, scale
 * expectations recorded first (keyed by node: a pod is named by the API server, `generateName`, and
 * a node must never get a second pod while the cache lags) and rolled back for writes that failed,
 * OpenKruise's Events (SuccessfulCreate, FailedCreate, SuccessfulDelete, FailedDelete). A failure is
 * thrown after that bookkeeping, for the reconcile to report it and retry with the queue's backoff.
 */
import type { BroadcastJob, Pod } from '@kruise-ts/api';
import { objectReference, requestKey } from '@kruise-ts/controller-runtime';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { createPods, deletePods } from '@kruise-ts/pod-control';
import type { CreateContext, DeleteContext, PodOwner } from '@kruise-ts/pod-control';

import { broadcastJobResource } from '../broadcastjob-resource.ts';
import { newJobPod } from './job-pod.ts';
import type { PodBinding } from './job-pod.ts';

/** What the writes use: pod-control's contexts, and how a pod names its node. */
export interface PodWriteContext extends CreateContext, DeleteContext {
  readonly nodeOf: (pod: DeepReadonly<Pod>) => string | undefined;
  readonly binding: PodBinding;
}

/** The job as pod-control's owner (no lifecycle hooks: a job's pods are deleted at once). */
export function jobOwner(job: DeepReadonly<BroadcastJob>): PodOwner {
  const name = job.metadata.name ?? '';
  return {
    key: requestKey({ namespace: job.metadata.namespace ?? '', name }),
    ref: objectReference(broadcastJobResource, job),
    name,
    lifecycle: undefined,
  };
}

/** The expectation name of a job pod: its node (a pod with none: its name). */
function expectationName(ctx: Pick<PodWriteContext, 'nodeOf'>): (pod: DeepReadonly<Pod>) => string {
  return (pod) => ctx.nodeOf(pod) ?? pod.metadata?.name ?? '';
}

/** Creates a pod on each node; returns how many were created, or throws pod-control's CreatePodsError. */
export async function createJobPods(
  ctx: PodWriteContext,
  job: DeepReadonly<BroadcastJob>,
  nodes: readonly string[],
): Promise<number> {
  const pods = nodes.map((node) => newJobPod(job, node, ctx.binding));
  const created = await createPods(ctx, jobOwner(job), {
    pods,
    claimsFor: () => [],
    expectationName: expectationName(ctx),
  });
  return created.length;
}

/** Deletes the pods (uid preconditions; a pod already gone is fine); throws the first failure after all were tried. */
export async function deleteJobPods(
  ctx: PodWriteContext,
  job: DeepReadonly<BroadcastJob>,
  pods: readonly DeepReadonly<Pod>[],
): Promise<void> {
  if (pods.length === 0) {
    return;
  }
  await deletePods(ctx, jobOwner(job), { pods, expectationName: expectationName(ctx) });
}
