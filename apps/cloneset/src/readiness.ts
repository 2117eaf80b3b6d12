import { IN_PLACE_UPDATE_READY, KRUISE_POD_READY } from '@kruise-ts/api';
import type { Pod } from '@kruise-ts/api';
import { isNotFound } from '@kruise-ts/controller-runtime';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { podResource } from '@kruise-ts/workload';

import { metaTime } from './status/conditions.ts';
import type { SyncContext } from './sync/sync-context.ts';

const INITIAL_TRUE_GATES = [IN_PLACE_UPDATE_READY, KRUISE_POD_READY];

/** Readiness-gate conditions the pod declares but does not have yet. */
function missingGateConditions(pod: DeepReadonly<Pod>): string[] {
  const declared = new Set((pod.spec?.readinessGates ?? []).map((gate) => gate.conditionType));
  const present = new Set((pod.status?.conditions ?? []).map((condition) => condition.type));
  return INITIAL_TRUE_GATES.filter((gate) => declared.has(gate) && !present.has(gate));
}

/**
 * Gives new pods their readiness-gate conditions (InPlaceUpdateReady and KruisePodReady, both True)
 * in one status write per pod. A pod with a declared gate and no condition is never Ready, so this
 * runs every reconcile for pods that need it, scaling or not. OpenKruise sets the two in separate
 * writes by two controllers; one patch does both here. Returns whether any pod was written.
 */
export async function initializeReadinessGates(ctx: SyncContext, pods: readonly DeepReadonly<Pod>[]): Promise<boolean> {
  let written = false;
  const now = metaTime(ctx.now());
  for (const pod of pods) {
    const missing = missingGateConditions(pod);
    if (missing.length === 0 || pod.metadata?.deletionTimestamp !== undefined) {
      continue;
    }
    const updated = await ctx.client
      .patchStatus(
        podResource,
        { namespace: pod.metadata?.namespace, name: pod.metadata?.name ?? '' },
        { type: 'strategic', body: { status: { conditions: missing.map((type) => ({ type, status: 'True', lastTransitionTime: now })) } } },
      )
      .catch((error: unknown) => {
        // A pod deleted meanwhile needs no conditions.
        if (isNotFound(error)) {
          return undefined;
        }
        throw error;
      });
    if (updated !== undefined) {
      ctx.resourceVersionExpectations.expect(updated);
      written = true;
    }
  }
  return written;
}
