import { CloneSetEventReason } from '@kruise-ts/api';
import type { Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { allocateInstanceIds } from '@kruise-ts/pvc-instance';
import { choosePodsToDelete, isPodUpdateReady, isPreparingDelete } from '@kruise-ts/workload';

import { isSpecifiedDelete } from '../pod-predicates.ts';
import { buildPods, createPods } from './create-pods.ts';
import { deletePodsAndClaims } from './delete-pods.ts';
import { podDeletionOrder } from './deletion-order.ts';
import { diffsOf, isUpdatedFor } from './diffs.ts';
import type { PodDiffs } from './diffs.ts';
import { managePreparingDelete } from './prepare-delete.ts';
import type { SyncContext, SyncState } from './sync-context.ts';

type ReadonlyPod = DeepReadonly<Pod>;

interface PlannedDeletions {
  readonly specified: readonly ReadonlyPod[];
  readonly inPreDelete: readonly ReadonlyPod[];
  /** Distinct pods in either list. */
  readonly numToDelete: number;
}

function plannedDeletions(state: SyncState): PlannedDeletions {
  const specified = state.pods.filter((pod) => isSpecifiedDelete(state.cs, pod));
  const inPreDelete = state.pods.filter(isPreparingDelete);
  const names = new Set([...specified, ...inPreDelete].map((pod) => pod.metadata?.name));
  return { specified, inPreDelete, numToDelete: names.size };
}

/** Ready pods may only be deleted while the budget lasts; pods that are not ready always may. */
function withinDeleteBudget(
  ctx: Pick<SyncContext, 'clock'>,
  pods: readonly ReadonlyPod[],
  budget: { remaining: number },
): ReadonlyPod[] {
  return pods.filter((pod) => {
    if (!isPodUpdateReady(pod, { minReadySeconds: 0, now: ctx.clock.now() })) {
      return true;
    }
    if (budget.remaining > 0) {
      budget.remaining--;
      return true;
    }
    return false;
  });
}

/**
 * What the scale step did, and the numbers the update step goes on with when it did nothing. A step
 * that only created pods says which (as the API server returned them).
 */
export type ScaleResult =
  | { readonly changed: true; readonly created?: readonly ReadonlyPod[] }
  | { readonly changed: false; readonly diffs: PodDiffs };

/**
 * The scale step (OpenKruise's `Scale`): cancel PreparingDelete when replicas grew; create what is
 * missing (at most scaleStrategy.maxUnavailable at a time); delete PreparingDelete pods whose hook is
 * released; delete specified pods within the maxUnavailable budget; scale in by the deletion order.
 * Each phase that changes something ends the step, so the next reconcile sees its effect first.
 */
export async function scale(ctx: SyncContext, state: SyncState): Promise<ScaleResult> {
  const planned = plannedDeletions(state);
  if (await managePreparingDelete(ctx, state, planned)) {
    return { changed: true };
  }
  const diffs = diffsOf(ctx, state, 'scale');
  if (diffs.scaleUpNum > diffs.scaleUpLimit) {
    ctx.recorder.warning(
      state.ref,
      CloneSetEventReason.ScaleUpLimited,
      `scaleUp is limited because of scaleStrategy.maxUnavailable, limit: ${String(diffs.scaleUpLimit)}`,
    );
  }
  if (diffs.scaleUpNum > 0) {
    const created = await scaleOut(ctx, state, diffs);
    return created.length > 0 ? { changed: true, created } : { changed: false, diffs: updateDiffs(ctx, state, diffs) };
  }
  return (await scaleIn(ctx, state, { diffs, planned }))
    ? { changed: true }
    : { changed: false, diffs: updateDiffs(ctx, state, diffs) };
}

/** The update step's diffs: the scale step's unless PreparingUpdateAsUpdate made them differ. */
function updateDiffs(ctx: SyncContext, state: SyncState, scaleDiffs: PodDiffs): PodDiffs {
  return ctx.gates.enabled('PreparingUpdateAsUpdate') ? diffsOf(ctx, state, 'update') : scaleDiffs;
}

async function scaleOut(ctx: SyncContext, state: SyncState, diffs: PodDiffs): Promise<readonly ReadonlyPod[]> {
  if (diffs.scaleUpLimit <= 0) {
    return [];
  }
  const instanceIds = allocateInstanceIds({ count: diffs.scaleUpLimit, activePods: state.pods, pvcs: state.pvcs });
  ctx.logger.info(
    { creations: diffs.scaleUpLimit, currentRevisionCreations: diffs.scaleUpNumOldRevision },
    'Scaling out',
  );
  return createPods(
    ctx,
    state,
    buildPods(ctx, state, {
      expectedCreations: diffs.scaleUpLimit,
      expectedCurrentCreations: diffs.scaleUpNumOldRevision,
      instanceIds,
    }),
  );
}

async function scaleIn(
  ctx: SyncContext,
  state: SyncState,
  input: { diffs: PodDiffs; planned: PlannedDeletions },
): Promise<boolean> {
  const { diffs, planned } = input;
  if (planned.inPreDelete.length > 0 && (await deletePodsAndClaims(ctx, state, planned.inPreDelete))) {
    return true;
  }
  const budget = { remaining: diffs.deleteReadyLimit };
  const preDeleting = new Set(planned.inPreDelete.map((pod) => pod.metadata?.name));
  const specified = planned.specified.filter((pod) => !preDeleting.has(pod.metadata?.name));
  if (specified.length > 0 && (await deletePodsAndClaims(ctx, state, withinDeleteBudget(ctx, specified, budget)))) {
    return true;
  }
  if (diffs.scaleDownNum <= 0 || planned.numToDelete > 0) {
    // Pods already marked for deletion go first; scale-in waits until they are gone.
    return false;
  }
  const isUpdated = isUpdatedFor(ctx, state, 'scale');
  const chosen = choosePodsToDelete({
    total: diffs.scaleDownNum,
    oldRevisionCount: diffs.scaleDownNumOldRevision,
    notUpdated: state.pods.filter((pod) => !isUpdated(pod)),
    updated: state.pods.filter(isUpdated),
    compare: podDeletionOrder(ctx, state),
  });
  ctx.logger.info({ scaleDown: diffs.scaleDownNum, chosen: chosen.map((pod) => pod.metadata?.name) }, 'Scaling in');
  return deletePodsAndClaims(ctx, state, withinDeleteBudget(ctx, chosen, budget));
}
