import type { Pod } from '@kruise-ts/api';
import { CloneSetUpdateStrategyType, LifecycleState } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { INPLACE_UPDATE_GRACE_ANNOTATION } from '@kruise-ts/inplace-update';
import { isPodAtRevision } from '@kruise-ts/revision';
import { limitUpdateCandidates, mapWithConcurrency, POD_WRITE_CONCURRENCY, sortUpdateCandidates } from '@kruise-ts/workload';

import { isPodAvailable, isPreparingDelete, podLifecycleState } from '../pod-predicates.ts';
import type { ExpectationDiffs } from './diffs.ts';
import { refreshPods } from './pod-refresh.ts';
import { revisionNameOf } from './sync-context.ts';
import type { SyncContext, SyncState } from './sync-context.ts';
import { updatePod } from './update-pod.ts';

type ReadonlyPod = DeepReadonly<Pod>;

/** What the update step did. `blocked` explains pods that cannot be updated as the strategy asks. */
export interface UpdateResult {
  readonly changed: boolean;
  readonly blocked: readonly string[];
}

const NOTHING: UpdateResult = { changed: false, blocked: [] };

/** Pods that may be moved to the target revision now, before ordering and limits. */
function updateCandidates(state: SyncState, diffs: ExpectationDiffs): ReadonlyPod[] {
  const updateRevision = revisionNameOf(state.updateRevision);
  const forward = diffs.updateNum > 0;
  return state.pods.filter((pod) => {
    if (isPodAtRevision(pod, updateRevision) === forward || isPreparingDelete(pod)) {
      return false;
    }
    // A pod still in its in-place grace period is being updated already, unless it finished (Updated).
    return podLifecycleState(pod) === LifecycleState.Updated || pod.metadata?.annotations?.[INPLACE_UPDATE_GRACE_ANNOTATION] === undefined;
  });
}

/** The state after the refresh (the pods it wrote as written), and whether it wrote. */
async function refreshed(ctx: SyncContext, snapshot: SyncState): Promise<{ state: SyncState; refreshedAny: UpdateResult }> {
  const result = await refreshPods(ctx, snapshot);
  if (result.written === 0) {
    return { state: snapshot, refreshedAny: NOTHING };
  }
  ctx.logger.info({ written: result.written }, 'Refreshed pods');
  return { state: { ...snapshot, pods: result.pods }, refreshedAny: { changed: true, blocked: [] } };
}

/**
 * The update step (OpenKruise's `Update`): refresh every pod first; then, unless paused, move
 * |updateNum| pods to the target revision (the update revision, or back to the current one with
 * CloneSetPartitionRollback) in update order (PreparingUpdate first, priority, scatter, then the
 * ActivePods order), within the maxUnavailable budget, in place where the strategy and the change
 * allow, else by recreating them.
 */
export async function update(ctx: SyncContext, snapshot: SyncState, diffs: ExpectationDiffs): Promise<UpdateResult> {
  // OpenKruise stops here when the refresh wrote anything and updates in the next reconcile. With a
  // thousand pods in flight some pod always finishes, so no reconcile would reach the update step
  // until the wave drained (rollouts stalled for tens of seconds at 5,000 pods). The refresh only
  // moves pods along, never makes one available that the kubelet has not, so the update goes on with
  // the pods as the API server returned them.
  const { state, refreshedAny } = await refreshed(ctx, snapshot);
  const strategy = state.cs.spec.updateStrategy;
  if (strategy.paused === true || strategy.type === CloneSetUpdateStrategyType.OnDelete || diffs.updateNum === 0) {
    return refreshedAny;
  }
  const target = diffs.updateNum > 0 ? state.updateRevision : state.currentRevision;
  const targetName = revisionNameOf(target);
  const availability = { minReadySeconds: state.cs.spec.minReadySeconds ?? 0, now: ctx.now() };
  const sorted = sortUpdateCandidates(updateCandidates(state, diffs), {
    priorityStrategy: state.cs.spec.updateStrategy.priorityStrategy,
    scatterStrategy: state.cs.spec.updateStrategy.scatterStrategy,
    allPods: state.pods,
    isPreparingUpdate: (pod) => podLifecycleState(pod) === LifecycleState.PreparingUpdate,
    now: ctx.now(),
  });
  const selected = limitUpdateCandidates(sorted, {
    updateCount: Math.abs(diffs.updateNum),
    updateMaxUnavailable: diffs.updateMaxUnavailable,
    allPods: state.pods,
    isAvailable: (pod) => isPodAvailable(pod, availability),
    isAtTargetRevision: (pod) => isPodAtRevision(pod, targetName),
  });
  if (selected.length > 0) {
    ctx.logger.info({ target: targetName, updateNum: diffs.updateNum, selected: selected.map((pod) => pod.metadata?.name) }, 'Updating pods');
  }
  const outcomes = await mapWithConcurrency(selected, POD_WRITE_CONCURRENCY, (pod) => updatePod(ctx, state, { pod, target }));
  return {
    changed: refreshedAny.changed || outcomes.some((outcome) => outcome.kind === 'changed'),
    blocked: outcomes.flatMap((outcome) => (outcome.kind === 'blocked' ? [outcome.reason] : [])),
  };
}
