import { LifecycleState } from '@kruise-ts/api';
import type { Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { canCancelPreparingDelete, setLifecycleState } from '@kruise-ts/lifecycle';

import { isSpecifiedDelete } from '../pod-predicates.ts';
import type { SyncContext, SyncState } from './sync-context.ts';

/**
 * When replicas grew while pods wait in PreparingDelete, bring as many back as needed to
 * PreparingNormal instead of creating new pods (OpenKruise's `managePreparingDelete`). Never for
 * specified-delete pods, and never when a hook marks pods not ready: a pod that has started draining
 * is not brought back. Returns whether a pod changed.
 */
export async function managePreparingDelete(
  ctx: SyncContext,
  state: SyncState,
  planned: { readonly inPreDelete: readonly DeepReadonly<Pod>[]; readonly numToDelete: number },
): Promise<boolean> {
  if (!canCancelPreparingDelete(state.cs.spec.lifecycle)) {
    return false;
  }
  let diff = state.cs.spec.replicas - state.pods.length + planned.numToDelete;
  let modified = false;
  for (const pod of planned.inPreDelete) {
    if (diff <= 0) {
      break;
    }
    if (isSpecifiedDelete(state.cs, pod)) {
      continue;
    }
    const updated = await setLifecycleState({
      client: ctx.pods,
      pod,
      state: LifecycleState.PreparingNormal,
      markPodNotReady: false,
      now: ctx.clock.now(),
    });
    if (updated !== pod) {
      modified = true;
      ctx.resourceVersionExpectations.expect(updated);
    }
    diff--;
  }
  return modified;
}
