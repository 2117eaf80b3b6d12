import { CloneSetEventReason } from '@kruise-ts/api';
import type { PersistentVolumeClaim, Pod } from '@kruise-ts/api';
import { keyOf } from '@kruise-ts/controller-runtime';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { deleteClaim } from '@kruise-ts/pod-control';
import type { PodOwner } from '@kruise-ts/pod-control';
import { handOverOwnerReferences, planPvcCleanup } from '@kruise-ts/pvc-instance';
import { errorMessage } from '@kruise-ts/workload';

import type { SyncContext } from './sync/sync-context.ts';

/** What the PVC cleanup writes with. */
type PvcCleanupContext = Pick<SyncContext, 'claims' | 'recorder' | 'scaleExpectations' | 'signal'>;

export interface PvcCleanupInput {
  readonly owner: PodOwner;
  readonly ownerUid: string;
  readonly pvcs: readonly DeepReadonly<PersistentVolumeClaim>[];
  readonly activePods: readonly DeepReadonly<Pod>[];
  readonly inactivePods: readonly DeepReadonly<Pod>[];
}

/**
 * With `scaleStrategy.disablePVCReuse`, PVCs never wait for a replacement pod (OpenKruise's
 * `cleanupPVCs`): a finished pod's PVCs are handed to that pod, so they are collected with it, and
 * PVCs of no pod at all are deleted. Returns the PVCs of active pods, the only ones the rest of the
 * reconcile may use.
 */
export async function cleanupClaims(
  ctx: PvcCleanupContext,
  input: PvcCleanupInput,
): Promise<readonly DeepReadonly<PersistentVolumeClaim>[]> {
  const plan = planPvcCleanup({ pvcs: input.pvcs, activePods: input.activePods, inactivePods: input.inactivePods });
  for (const { pvc, pod } of plan.handOver) {
    const ownerReferences = handOverOwnerReferences({ pvc, ownerUid: input.ownerUid, pod });
    try {
      await ctx.claims.patch(keyOf(pvc), {
        type: 'json',
        body: [
          { op: 'test', path: '/metadata/uid', value: pvc.metadata?.uid },
          { op: 'replace', path: '/metadata/ownerReferences', value: ownerReferences },
        ],
      });
    } catch (error) {
      if (!ctx.signal.aborted) {
        ctx.recorder.warning(
          input.owner.ref,
          CloneSetEventReason.FailedUpdate,
          `failed to update PVC ${pvc.metadata?.name ?? ''}: ${errorMessage(error)}`,
        );
      }
      throw error;
    }
  }
  for (const pvc of plan.remove) {
    await deleteClaim(ctx, input.owner, pvc);
  }
  return plan.keep;
}
