/**
 * Deleting a workload's pods and PVCs: scale expectations recorded first, a uid precondition (a stale
 * cache must never delete a newer object that reused the name), and an Event either way; a pod still
 * held by the preDelete hook moves to PreparingDelete instead.
 */
import { LifecycleState } from '@kruise-ts/api';
import type { PersistentVolumeClaim, Pod } from '@kruise-ts/api';
import { isNotFound, keyOf } from '@kruise-ts/controller-runtime';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { isPodHooked, setLifecycleState } from '@kruise-ts/lifecycle';
import { errorMessage, mapWithConcurrency, POD_WRITE_CONCURRENCY } from '@kruise-ts/workload';

import type { PodControlContext, PodOwner } from './context.ts';
import { PodEventReason } from './event-reasons.ts';

/** What deleting needs. */
export type DeleteContext = Pick<
  PodControlContext,
  'signal' | 'pods' | 'claims' | 'recorder' | 'clock' | 'scaleExpectations' | 'resourceVersionExpectations'
>;

/** What {@link deletePods} deletes. */
export interface DeletePodsRequest {
  readonly pods: readonly DeepReadonly<Pod>[];
  /** Runs after each pod was deleted (not after a move to PreparingDelete): CloneSet deletes the pod's PVCs. */
  readonly afterDelete?: (pod: DeepReadonly<Pod>) => Promise<void>;
  /** The name the owner's scale expectations track a pod under; its name when absent (BroadcastJob: its node). */
  readonly expectationName?: (pod: DeepReadonly<Pod>) => string;
}

/**
 * Deletes the pods (OpenKruise's `deletePods` of CloneSet, `deletePod` of Advanced StatefulSet). A
 * pod still held by the preDelete hook is moved to PreparingDelete instead (and marked not ready when
 * the hook asks), to be deleted once the user releases the hook. Returns whether anything changed.
 */
export async function deletePods(ctx: DeleteContext, owner: PodOwner, request: DeletePodsRequest): Promise<boolean> {
  const changed = await mapWithConcurrency(request.pods, POD_WRITE_CONCURRENCY, async (pod) => {
    const preDelete = owner.lifecycle?.preDelete;
    if (preDelete !== undefined && isPodHooked(preDelete, pod)) {
      return prepareDelete(ctx, pod, preDelete.markPodNotReady === true);
    }
    await deletePodAs(ctx, owner, { pod, expectationName: request.expectationName?.(pod) ?? pod.metadata?.name ?? '' });
    await request.afterDelete?.(pod);
    return true;
  });
  return changed.some(Boolean);
}

async function prepareDelete(ctx: DeleteContext, pod: DeepReadonly<Pod>, markPodNotReady: boolean): Promise<boolean> {
  const updated = await setLifecycleState({
    client: ctx.pods,
    pod,
    state: LifecycleState.PreparingDelete,
    markPodNotReady,
    now: ctx.clock.now(),
  });
  if (updated === pod) {
    return false;
  }
  ctx.resourceVersionExpectations.expect(updated);
  return true;
}

/** Deletes one pod now (no hook), with expectations, the uid precondition and Events; a pod already gone is fine. */
export function deletePod(
  ctx: Pick<DeleteContext, 'signal' | 'pods' | 'recorder' | 'scaleExpectations'>,
  owner: PodOwner,
  pod: DeepReadonly<Pod>,
): Promise<void> {
  return deletePodAs(ctx, owner, { pod, expectationName: pod.metadata?.name ?? '' });
}

/** {@link deletePod} with the delete expectation under `expectationName`. */
async function deletePodAs(
  ctx: Pick<DeleteContext, 'signal' | 'pods' | 'recorder' | 'scaleExpectations'>,
  owner: PodOwner,
  target: { readonly pod: DeepReadonly<Pod>; readonly expectationName: string },
): Promise<void> {
  const { pod, expectationName } = target;
  const name = pod.metadata?.name ?? '';
  ctx.scaleExpectations.expect(owner.key, 'delete', expectationName);
  try {
    await ctx.pods.delete(keyOf(pod), { preconditions: { uid: pod.metadata?.uid ?? '' } });
  } catch (error) {
    ctx.scaleExpectations.observe(owner.key, 'delete', expectationName);
    if (isNotFound(error)) {
      return;
    }
    if (!ctx.signal.aborted) {
      ctx.recorder.warning(
        owner.ref,
        PodEventReason.FailedDelete,
        `failed to delete pod ${name}: ${errorMessage(error)}`,
      );
    }
    throw error;
  }
  ctx.recorder.normal(owner.ref, PodEventReason.SuccessfulDelete, `succeed to delete pod ${name}`);
}

/** Deletes one PVC, with expectations, the uid precondition and a Warning on failure; a PVC already gone is fine. */
export async function deleteClaim(
  ctx: Pick<DeleteContext, 'signal' | 'claims' | 'recorder' | 'scaleExpectations'>,
  owner: PodOwner,
  pvc: DeepReadonly<PersistentVolumeClaim>,
): Promise<void> {
  const name = pvc.metadata?.name ?? '';
  ctx.scaleExpectations.expect(owner.key, 'delete', name);
  try {
    await ctx.claims.delete(keyOf(pvc), { preconditions: { uid: pvc.metadata?.uid ?? '' } });
  } catch (error) {
    ctx.scaleExpectations.observe(owner.key, 'delete', name);
    if (isNotFound(error)) {
      return;
    }
    if (!ctx.signal.aborted) {
      ctx.recorder.warning(
        owner.ref,
        PodEventReason.FailedDelete,
        `failed to delete pvc ${name}: ${errorMessage(error)}`,
      );
    }
    throw error;
  }
}
