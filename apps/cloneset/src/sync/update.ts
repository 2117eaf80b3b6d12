import type { Pod } from '@kruise-ts/api';
import { CloneSetUpdateStrategyType, LifecycleState } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { INPLACE_UPDATE_GRACE_ANNOTATION } from '@kruise-ts/inplace-update';
import { refreshPods, skipOrFail, updatePodInPlace } from '@kruise-ts/pod-control';
import type { PodUpdateOutcome, RefreshInput, SkippedPod } from '@kruise-ts/pod-control';
import { isPodAtRevision } from '@kruise-ts/revision';
import {
  isPreparingDelete,
  isWorkloadPodAvailable,
  limitUpdateCandidates,
  POD_WRITE_CONCURRENCY,
  podLifecycleState,
  settleWithConcurrency,
  sortUpdateCandidates,
} from '@kruise-ts/workload';

import type { PodDiffs } from './diffs.ts';
import { podUpdatePlan } from './pod-update-plan.ts';
import { recreatePod } from './recreate-pod.ts';
import { revisionNameOf } from './sync-context.ts';
import type { SyncContext, SyncState } from './sync-context.ts';

type ReadonlyPod = DeepReadonly<Pod>;

/**
 * What the update step did. `blocked` explains pods that cannot be updated as the strategy asks;
 * `skipped` names pods whose in-place update annotations cannot be read, left alone so that the
 * other pods are updated.
 */
export interface UpdateResult {
  readonly changed: boolean;
  readonly blocked: readonly string[];
  readonly skipped: readonly SkippedPod[];
}

/** Thrown when writes of the update step failed, after every selected pod was tried; `result` has the rest. */
export class UpdateError extends Error {
  readonly result: UpdateResult;

  constructor(cause: unknown, result: UpdateResult) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = 'UpdateError';
    this.result = result;
  }
}

/** Pods that may be moved to the target revision now, before ordering and limits. */
function updateCandidates(state: SyncState, input: { diffs: PodDiffs; skipped: ReadonlySet<string> }): ReadonlyPod[] {
  const updateRevision = revisionNameOf(state.updateRevision);
  const forward = input.diffs.updateNum > 0;
  return state.pods.filter((pod) => {
    if (
      isPodAtRevision(pod, updateRevision) === forward ||
      isPreparingDelete(pod) ||
      input.skipped.has(pod.metadata?.name ?? '')
    ) {
      return false;
    }
    // A pod still in its in-place grace period is being updated already, unless it finished (Updated).
    return (
      podLifecycleState(pod) === LifecycleState.Updated ||
      pod.metadata?.annotations?.[INPLACE_UPDATE_GRACE_ANNOTATION] === undefined
    );
  });
}

/** The pods the update moves now, in update order and within the maxUnavailable budget. */
function selectPods(
  ctx: SyncContext,
  state: SyncState,
  input: { diffs: PodDiffs; skipped: ReadonlySet<string>; targetName: string },
): ReadonlyPod[] {
  const { diffs } = input;
  const now = ctx.clock.now();
  const availability = { minReadySeconds: state.cs.spec.minReadySeconds ?? 0, now };
  const sorted = sortUpdateCandidates(updateCandidates(state, input), {
    priorityStrategy: state.cs.spec.updateStrategy.priorityStrategy,
    scatterStrategy: state.cs.spec.updateStrategy.scatterStrategy,
    allPods: state.pods,
    isPreparingUpdate: (pod) => podLifecycleState(pod) === LifecycleState.PreparingUpdate,
    now,
  });
  return limitUpdateCandidates(sorted, {
    updateCount: Math.abs(diffs.updateNum),
    updateMaxUnavailable: diffs.updateMaxUnavailable,
    allPods: state.pods,
    isAvailable: (pod) => isWorkloadPodAvailable(pod, availability),
    isAtTargetRevision: (pod) => isPodAtRevision(pod, input.targetName),
  });
}

/** Folds the selected pods' outcomes into the result; the first write failure, if any, is thrown after. */
function collectOutcomes(
  selected: readonly ReadonlyPod[],
  outcomes: readonly PromiseSettledResult<PodUpdateOutcome>[],
  base: UpdateResult,
): UpdateResult {
  let changed = base.changed;
  const blocked: string[] = [];
  const skipped = [...base.skipped];
  let failure: { readonly error: unknown } | undefined;
  for (const [index, outcome] of outcomes.entries()) {
    if (outcome.status === 'rejected') {
      const pod = selected[index]?.metadata?.name ?? '';
      failure ??= skipOrFail(outcome.reason, { pod, skipped });
      continue;
    }
    changed ||= outcome.value.kind === 'changed';
    if (outcome.value.kind === 'blocked') {
      blocked.push(outcome.value.reason);
    }
  }
  const result: UpdateResult = { changed, blocked, skipped };
  if (failure !== undefined) {
    throw new UpdateError(failure.error, result);
  }
  return result;
}

/**
 * What the refresh of every pod (OpenKruise's `refreshPodState`, pod-control's refresh) works on; it
 * also gives pods without `pod-template-hash` the label, as a Deployment's pods have it.
 */
export function refreshInputOf(state: SyncState): RefreshInput {
  return {
    owner: state.owner,
    pods: state.pods,
    updateRevision: revisionNameOf(state.updateRevision),
    podTemplateHashLabel: true,
  };
}

/**
 * The update step (OpenKruise's `Update`): refresh every pod first; then, unless paused, move
 * |updateNum| pods to the target revision (the update revision, or back to the current one with
 * CloneSetPartitionRollback) in update order (PreparingUpdate first, priority, scatter, then the
 * ActivePods order), within the maxUnavailable budget, in place where the strategy and the change
 * allow, else by recreating them. Every selected pod is tried; a failed write is thrown afterwards
 * (as an UpdateError) so that the reconcile reports it and retries with the queue's backoff.
 */
export async function update(ctx: SyncContext, snapshot: SyncState, diffs: PodDiffs): Promise<UpdateResult> {
  // OpenKruise stops here when the refresh wrote anything and updates in the next reconcile. With a
  // thousand pods in flight some pod always finishes, so no reconcile would reach the update step
  // until the wave drained (rollouts stalled for tens of seconds at 5,000 pods). The refresh only
  // moves pods along, never makes one available that the kubelet has not, so the update goes on with
  // the pods as the API server returned them.
  const refreshed = await refreshPods(ctx, refreshInputOf(snapshot));
  if (refreshed.written > 0) {
    ctx.logger.info({ written: refreshed.written }, 'Refreshed pods');
  }
  const state: SyncState = refreshed.written === 0 ? snapshot : { ...snapshot, pods: refreshed.pods };
  const base: UpdateResult = { changed: refreshed.written > 0, blocked: [], skipped: refreshed.skipped };
  const strategy = state.cs.spec.updateStrategy;
  if (strategy.paused === true || strategy.type === CloneSetUpdateStrategyType.OnDelete || diffs.updateNum === 0) {
    return base;
  }
  const target = diffs.updateNum > 0 ? state.updateRevision : state.currentRevision;
  const targetName = revisionNameOf(target);
  const skipped = new Set(refreshed.skipped.map((pod) => pod.name));
  const selected = selectPods(ctx, state, { diffs, skipped, targetName });
  if (selected.length > 0) {
    ctx.logger.info(
      { target: targetName, updateNum: diffs.updateNum, selected: selected.map((pod) => pod.metadata?.name) },
      'Updating pods',
    );
  }
  const plan = podUpdatePlan(ctx, state);
  // A pod that cannot be updated in place is recreated here, by the sync: deleted with its PVCs.
  const outcomes = await settleWithConcurrency(selected, POD_WRITE_CONCURRENCY, async (pod) => {
    const outcome = await updatePodInPlace(ctx, plan, { pod, target });
    return outcome.kind === 'recreate' ? recreatePod(ctx, state, { pod, target }) : outcome;
  });
  return collectOutcomes(selected, outcomes, base);
}
