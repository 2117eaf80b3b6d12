/**
 * The status a reconcile writes (§C.3): the counts, the phase, the start and completion times, the
 * Complete or Failed condition once (OpenKruise's JobCondition: reason = type), and kruise-ts's
 * conditions that tell why the job does not progress instead of waiting: `NoEligibleNode` while no
 * node fits the template, `FailedCreatePod` while the API server refuses it.
 */
import type { BroadcastJob, BroadcastJobCondition, BroadcastJobStatus } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { metaTime } from '@kruise-ts/workload';

/** The condition of a job no node fits. */
export const NO_ELIGIBLE_NODE = 'NoEligibleNode';

/**
 * The condition of a job whose template the API server refuses (reason {@link INVALID_TEMPLATE}).
 * Not OpenKruise's Failed: that finishes the job for good, and a fixed template could not revive it.
 * Like NoEligibleNode it is True while the problem lasts and gone once pods can be created; its name
 * is the Advanced StatefulSet's condition for a pod creation that fails.
 */
export const FAILED_CREATE_POD = 'FailedCreatePod';
/** The reason of the FailedCreatePod condition for a refused template. */
export const INVALID_TEMPLATE = 'InvalidTemplate';

/** What goes into the status. */
export interface StatusUpdate {
  readonly counts: { readonly active: number; readonly succeeded: number; readonly failed: number; readonly desired: number };
  readonly phase: string;
  readonly startTime: string;
  /** The job finished in this reconcile. */
  readonly finish?: { readonly type: 'Complete' | 'Failed'; readonly message: string };
  /** Why no node fits, when none does (nodes exist but the template fits none). */
  readonly noEligibleNode?: string;
  /** Why no pod is created from the template (the API server refuses it), when so. */
  readonly invalidTemplate?: string | undefined;
  readonly now: number;
}

function eligibilityConditions(current: readonly BroadcastJobCondition[], update: StatusUpdate): BroadcastJobCondition[] {
  const others = current.filter((condition) => condition.type !== NO_ELIGIBLE_NODE);
  if (update.noEligibleNode === undefined) return others;
  const previous = current.find((condition) => condition.type === NO_ELIGIBLE_NODE);
  const since = previous?.message === update.noEligibleNode ? (previous.lastTransitionTime ?? metaTime(update.now)) : metaTime(update.now);
  return [...others, { type: NO_ELIGIBLE_NODE, status: 'True', reason: 'NoNodeFits', message: update.noEligibleNode, lastProbeTime: metaTime(update.now), lastTransitionTime: since }];
}

/** The unchanged condition is kept as it is (no timestamp moves): a status write would reconcile the job again, and it would find the same. */
function templateConditions(current: BroadcastJobCondition[], update: StatusUpdate): BroadcastJobCondition[] {
  const others = current.filter((condition) => condition.type !== FAILED_CREATE_POD);
  if (update.invalidTemplate === undefined) return others;
  const previous = current.find((condition) => condition.type === FAILED_CREATE_POD);
  if (previous?.status === 'True' && previous.reason === INVALID_TEMPLATE && previous.message === update.invalidTemplate) return current;
  const at = metaTime(update.now);
  return [...others, { type: FAILED_CREATE_POD, status: 'True', reason: INVALID_TEMPLATE, message: update.invalidTemplate, lastProbeTime: at, lastTransitionTime: at }];
}

/** The next status of the job. */
export function nextJobStatus(job: DeepReadonly<BroadcastJob>, update: StatusUpdate): BroadcastJobStatus {
  const current = structuredClone(job.status?.conditions ?? []) as BroadcastJobCondition[];
  const conditions = templateConditions(eligibilityConditions(current, update), update);
  if (update.finish !== undefined) {
    const at = metaTime(update.now);
    conditions.push({ type: update.finish.type, status: 'True', lastProbeTime: at, lastTransitionTime: at, reason: update.finish.type, message: update.finish.message });
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
