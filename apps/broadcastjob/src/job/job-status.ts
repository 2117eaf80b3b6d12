/**
 * The status a reconcile writes (§C.3): the counts, the phase, the start and completion times, the
 * Complete or Failed condition once (OpenKruise's JobCondition: reason = type), and kruise-ts's
 * conditions that tell why the job does not progress instead of waiting: `NoEligibleNode` while no
 * node fits the template, `FailedCreatePod` while the API server refuses its template or its pod
 * creations (a quota, a webhook, an error), `FailedDeletePod` while it refuses deletions.
 */
import type { BroadcastJob, BroadcastJobCondition, BroadcastJobStatus } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { metaTime } from '@kruise-ts/workload';
import type { WorkloadCondition } from '@kruise-ts/workload';

/** The condition of a job no node fits. */
export const NO_ELIGIBLE_NODE = 'NoEligibleNode';

/**
 * The condition of a job whose template the API server refuses (reason {@link INVALID_TEMPLATE}).
 * Not OpenKruise's Failed: that finishes the job for good, and a fixed template could not revive it.
 * Like NoEligibleNode it is True while the problem lasts and gone once pods can be created; its name
 * is the Advanced StatefulSet's condition for a pod creation that fails.
 */
export const FAILED_CREATE_POD = 'FailedCreatePod';
/** The reason of the FailedCreatePod condition for a refused template (or a job that cannot be read). */
export const INVALID_TEMPLATE = 'InvalidTemplate';
/** The reason of the FailedCreatePod condition while creations fail (the message names the API server's answer). */
export const CREATE_ERROR = 'CreateError';
/** The condition of a job whose pod deletions fail (reason {@link DELETE_ERROR}). */
export const FAILED_DELETE_POD = 'FailedDeletePod';
export const DELETE_ERROR = 'DeleteError';

/** Why a condition is True: its reason and message. */
export interface WriteProblem {
  readonly reason: string;
  readonly message: string;
}

/** What goes into the status. */
export interface StatusUpdate {
  readonly counts: {
    readonly active: number;
    readonly succeeded: number;
    readonly failed: number;
    readonly desired: number;
  };
  readonly phase: string;
  readonly startTime: string;
  /** The job finished in this reconcile. */
  readonly finish?: { readonly type: 'Complete' | 'Failed'; readonly message: string };
  /** Why no node fits, when none does (nodes exist but the template fits none). */
  readonly noEligibleNode?: string;
  /** Why pods were not created (a template the API server refuses, or failed creations), when so. */
  readonly createProblem?: WriteProblem | undefined;
  /** Why pods were not deleted, when so. */
  readonly deleteProblem?: WriteProblem | undefined;
  readonly now: number;
}

function eligibilityConditions(
  current: readonly BroadcastJobCondition[],
  update: StatusUpdate,
): BroadcastJobCondition[] {
  const others = current.filter((condition) => condition.type !== NO_ELIGIBLE_NODE);
  if (update.noEligibleNode === undefined) {
    return others;
  }
  const previous = current.find((condition) => condition.type === NO_ELIGIBLE_NODE);
  const since =
    previous?.message === update.noEligibleNode
      ? (previous.lastTransitionTime ?? metaTime(update.now))
      : metaTime(update.now);
  return [
    ...others,
    {
      type: NO_ELIGIBLE_NODE,
      status: 'True',
      reason: 'NoNodeFits',
      message: update.noEligibleNode,
      lastProbeTime: metaTime(update.now),
      lastTransitionTime: since,
    },
  ];
}

/**
 * The condition of `type` True while `problem` lasts, gone once it does not. An unchanged condition
 * is kept as it is (no timestamp moves): a status write would reconcile the job again at once, past
 * the queue's backoff, and it would find the same.
 */
export function problemConditions<C extends WorkloadCondition>(
  current: readonly C[],
  input: { readonly type: string; readonly problem: WriteProblem | undefined; readonly now: number },
): (C | BroadcastJobCondition)[] {
  const others = current.filter((condition) => condition.type !== input.type);
  const { problem } = input;
  if (problem === undefined) {
    return others;
  }
  const previous = current.find((condition) => condition.type === input.type);
  if (previous?.status === 'True' && previous.reason === problem.reason && previous.message === problem.message) {
    return [...current];
  }
  const at = metaTime(input.now);
  return [
    ...others,
    {
      type: input.type,
      status: 'True',
      reason: problem.reason,
      message: problem.message,
      lastProbeTime: at,
      lastTransitionTime: at,
    },
  ];
}

/** The next status of the job. */
export function nextJobStatus(job: DeepReadonly<BroadcastJob>, update: StatusUpdate): BroadcastJobStatus {
  const current = structuredClone(job.status?.conditions ?? []) as BroadcastJobCondition[];
  const created = problemConditions(eligibilityConditions(current, update), {
    type: FAILED_CREATE_POD,
    problem: update.createProblem,
    now: update.now,
  });
  const conditions = problemConditions(created, {
    type: FAILED_DELETE_POD,
    problem: update.deleteProblem,
    now: update.now,
  });
  if (update.finish !== undefined) {
    const at = metaTime(update.now);
    conditions.push({
      type: update.finish.type,
      status: 'True',
      lastProbeTime: at,
      lastTransitionTime: at,
      reason: update.finish.type,
      message: update.finish.message,
    });
  }
  const completionTime = update.finish === undefined ? job.status?.completionTime : metaTime(update.now);
  return {
    ...update.counts,
    phase: update.phase,
    startTime: update.startTime,
    ...(completionTime === undefined ? {} : { completionTime }),
    ...(conditions.length === 0 ? {} : { conditions }),
  };
}
