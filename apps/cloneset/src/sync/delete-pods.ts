import { CLONESET_INSTANCE_ID_LABEL } from '@kruise-ts/api';
import type { Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { deleteClaim, deletePods } from '@kruise-ts/pod-control';

import type { SyncContext, SyncState } from './sync-context.ts';

/**
 * Deletes pods the scale and update steps chose, through the preDelete hook (the pod-control
 * package's `deletePods`), and a deleted pod's PVCs with it: they outlive only pods deleted by
 * someone else and in-place updates. Returns whether anything changed.
 */
export function deletePodsAndClaims(
  ctx: SyncContext,
  state: SyncState,
  pods: readonly DeepReadonly<Pod>[],
): Promise<boolean> {
  return deletePods(ctx, state.owner, { pods, afterDelete: (pod) => deleteClaimsOf(ctx, state, pod) });
}

async function deleteClaimsOf(ctx: SyncContext, state: SyncState, pod: DeepReadonly<Pod>): Promise<void> {
  const instanceId = pod.metadata?.labels?.[CLONESET_INSTANCE_ID_LABEL];
  for (const pvc of state.pvcs.filter(
    (claim) => instanceId !== undefined && claim.metadata?.labels?.[CLONESET_INSTANCE_ID_LABEL] === instanceId,
  )) {
    await deleteClaim(ctx, state.owner, pvc);
  }
}
