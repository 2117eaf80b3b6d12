import { CloneSetEventReason } from '@kruise-ts/api';
import type { ControllerRevision, Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { CHANGED, WAITING } from '@kruise-ts/pod-control';
import type { PodUpdateOutcome } from '@kruise-ts/pod-control';
import { errorMessage } from '@kruise-ts/workload';

import { deletePodsAndClaims } from './delete-pods.ts';
import { revisionNameOf } from './sync-context.ts';
import type { SyncContext, SyncState } from './sync-context.ts';

/**
 * Recreates a pod the update step cannot update in place: deletes it (through PreparingDelete when the
 * preDelete hook holds it, with its PVCs), and the scale step creates the replacement at the update
 * revision. OpenKruise first labels the pod `apps.kruise.io/specified-delete` and deletes it in the
 * next reconcile; the update budget (limitUpdateCandidates) already bounds what the scale step's
 * delete budget would, so we delete at once: one write and one reconcile less per recreated pod.
 */
export async function recreatePod(
  ctx: SyncContext,
  state: SyncState,
  input: { pod: DeepReadonly<Pod>; target: DeepReadonly<ControllerRevision> },
): Promise<PodUpdateOutcome> {
  const name = input.pod.metadata?.name ?? '';
  const revision = revisionNameOf(input.target);
  try {
    if (!(await deletePodsAndClaims(ctx, state, [input.pod]))) {
      return WAITING;
    }
  } catch (error) {
    if (!ctx.signal.aborted) {
      ctx.recorder.warning(
        state.ref,
        CloneSetEventReason.FailedUpdatePodReCreate,
        `failed to delete pod ${name} for update(revision ${revision}): ${errorMessage(error)}`,
      );
    }
    throw error;
  }
  ctx.recorder.normal(
    state.ref,
    CloneSetEventReason.SuccessfulUpdatePodReCreate,
    `successfully delete pod ${name} for update(revision ${revision})`,
  );
  return CHANGED;
}
