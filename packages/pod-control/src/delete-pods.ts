/**
 * Deleting a workload's pods and PVCs: scale expectations recorded first, a uid precondition (a stale
 * cache must never delete a newer object that reused the name), and an Event either way; a pod still
 * held by the preDelete hook moves to PreparingDelete instead.
 */
import { LifecycleState } from '@kruise-ts/api';
import type { PersistentVolumeClaim, Pod } from '@kruise-ts/api';
import { isNotFound, keyOf } from '@kruise-ts/controller-runtime';
import type { DeepReadonly, ObjectKeyRef } from '@kruise-ts/controller-runtime';
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
  const deleted = await deleteExpected(ctx, owner, {
    kind: 'pod',
    object: target.pod,
    expectationName: target.expectationName,
    remove: (key, options) => ctx.pods.delete(key, options),
  });
  if (deleted) {
    const name = target.pod.metadata?.name ?? '';
    ctx.recorder.normal(owner.ref, PodEventReason.SuccessfulDelete, `succeed to delete pod ${name}`);
  }
}

/** Deletes one PVC, with expectations, the uid precondition and a Warning on failure; a PVC already gone is fine. */
export async function deleteClaim(
  ctx: Pick<DeleteContext, 'signal' | 'claims' | 'recorder' | 'scaleExpectations'>,
  owner: PodOwner,
  pvc: DeepReadonly<PersistentVolumeClaim>,
): Promise<void> {
  await deleteExpected(ctx, owner, {
    kind: 'pvc',
    object: pvc,
    expectationName: pvc.metadata?.name ?? '',
    remove: (key, options) => ctx.claims.delete(key, options),
  });
}

interface ExpectedDelete {
  /** The word OpenKruise's FailedDelete Event uses. */
  readonly kind: 'pod' | 'pvc';
  readonly object: DeepReadonly<Pod | PersistentVolumeClaim>;
  readonly expectationName: string;
  readonly remove: (
    key: ObjectKeyRef,
    options: { readonly preconditions: { readonly uid: string } },
  ) => Promise<unknown>;
}

/**
 * The delete expected before it is sent (its watch event may come before the answer), observed again
 * when it failed, so that a failure never leaves the owner waiting; false when it was gone already.
 */
async function deleteExpected(
  ctx: Pick<DeleteContext, 'signal' | 'recorder' | 'scaleExpectations'>,
  owner: PodOwner,
  target: ExpectedDelete,
): Promise<boolean> {
  const { object, expectationName } = target;
  ctx.scaleExpectations.expect(owner.key, 'delete', expectationName);
  try {
    await target.remove(keyOf(object), { preconditions: { uid: object.metadata?.uid ?? '' } });
    return true;
  } catch (error) {
    ctx.scaleExpectations.observe(owner.key, 'delete', expectationName);
    if (isNotFound(error)) {
      return false;
    }
    if (!ctx.signal.aborted) {
      const name = object.metadata?.name ?? '';
      const message = `failed to delete ${target.kind} ${name}: ${errorMessage(error)}`;
      ctx.recorder.warning(owner.ref, PodEventReason.FailedDelete, message);
    }
    throw error;
  }
}
