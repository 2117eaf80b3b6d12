import { LifecycleState } from '@kruise-ts/api';
import { preparingNormalOutcome, setLifecycleState } from '@kruise-ts/lifecycle';

import { podLifecycleState } from '../pod-predicates.ts';
import type { SyncContext, SyncState } from './sync-context.ts';

/**
 * Moves pods out of PreparingNormal once they may count as available: when scheduled, or with a
 * preNormal hook once all its labels and finalizers are on the pod (OpenKruise's refreshPodState for
 * new pods). Returns whether a pod changed.
 */
export async function refreshLifecycles(ctx: SyncContext, state: SyncState): Promise<boolean> {
  let modified = false;
  for (const pod of state.pods) {
    if (podLifecycleState(pod) !== LifecycleState.PreparingNormal || preparingNormalOutcome(pod, state.cs.spec.lifecycle) !== LifecycleState.Normal) {
      continue;
    }
    const updated = await setLifecycleState({ client: ctx.client, pod, state: LifecycleState.Normal, markPodNotReady: false, now: ctx.now() });
    if (updated !== pod) {
      ctx.resourceVersionExpectations.expect(updated);
      modified = true;
    }
  }
  return modified;
}
