import { CLONESET_INSTANCE_ID_LABEL, CloneSetEventReason, LifecycleState } from '@kruise-ts/api';
import type { Pod } from '@kruise-ts/api';
import { isNotFound, keyOf } from '@kruise-ts/controller-runtime';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { isPodHooked, setLifecycleState } from '@kruise-ts/lifecycle';
import { errorMessage, mapWithConcurrency, POD_WRITE_CONCURRENCY } from '@kruise-ts/workload';

import type { SyncContext, SyncState } from './sync-context.ts';

/**
 * Deletes pods the scale step chose (OpenKruise's `deletePods`). A pod still held by the preDelete
 * hook is moved to PreparingDelete instead (and marked not ready when the hook asks), to be deleted
 * once the hook is released. A deleted pod's PVCs go with it: they outlive only pods deleted by
 * someone else and in-place updates. Returns whether anything changed.
 */
export async function deletePods(ctx: SyncContext, state: SyncState, pods: readonly DeepReadonly<Pod>[]): Promise<boolean> {
  const changed = await mapWithConcurrency(pods, POD_WRITE_CONCURRENCY, async (pod) => {
    const preDelete = state.cs.spec.lifecycle?.preDelete;
    if (preDelete !== undefined && isPodHooked(preDelete, pod)) {
      return prepareDelete(ctx, pod, preDelete.markPodNotReady === true);
    }
    await deletePod(ctx, state, pod);
    await deleteClaimsOf(ctx, state, pod);
    return true;
  });
  return changed.some(Boolean);
}

async function prepareDelete(ctx: SyncContext, pod: DeepReadonly<Pod>, markPodNotReady: boolean): Promise<boolean> {
  const updated = await setLifecycleState({ client: ctx.pods, pod, state: LifecycleState.PreparingDelete, markPodNotReady, now: ctx.clock.now() });
  if (updated === pod) {
    return false;
  }
  ctx.resourceVersionExpectations.expect(updated);
  return true;
}

async function deletePod(ctx: SyncContext, state: SyncState, pod: DeepReadonly<Pod>): Promise<void> {
  const name = pod.metadata?.name ?? '';
  ctx.scaleExpectations.expect(state.key, 'delete', name);
  try {
    // The uid precondition keeps a stale cache from deleting a newer pod that reused the name.
    await ctx.pods.delete(keyOf(pod), { preconditions: { uid: pod.metadata?.uid ?? '' } });
  } catch (error) {
    ctx.scaleExpectations.observe(state.key, 'delete', name);
    if (isNotFound(error)) {
      return;
    }
    if (!ctx.signal.aborted) {
      ctx.recorder.warning(state.ref, CloneSetEventReason.FailedDelete, `failed to delete pod ${name}: ${errorMessage(error)}`);
    }
    throw error;
  }
  ctx.recorder.normal(state.ref, CloneSetEventReason.SuccessfulDelete, `succeed to delete pod ${name}`);
}

async function deleteClaimsOf(ctx: SyncContext, state: SyncState, pod: DeepReadonly<Pod>): Promise<void> {
  const instanceId = pod.metadata?.labels?.[CLONESET_INSTANCE_ID_LABEL];
  for (const pvc of state.pvcs.filter((claim) => instanceId !== undefined && claim.metadata?.labels?.[CLONESET_INSTANCE_ID_LABEL] === instanceId)) {
    const name = pvc.metadata?.name ?? '';
    ctx.scaleExpectations.expect(state.key, 'delete', name);
    try {
      await ctx.claims.delete(keyOf(pvc));
    } catch (error) {
      ctx.scaleExpectations.observe(state.key, 'delete', name);
      if (isNotFound(error)) {
        continue;
      }
      if (!ctx.signal.aborted) {
        ctx.recorder.warning(state.ref, CloneSetEventReason.FailedDelete, `failed to delete pvc ${name}: ${errorMessage(error)}`);
      }
      throw error;
    }
  }
}
