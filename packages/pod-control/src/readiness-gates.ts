import { IN_PLACE_UPDATE_READY, KRUISE_POD_READY } from '@kruise-ts/api';
import type { Pod } from '@kruise-ts/api';
import { isNotFound, keyOf } from '@kruise-ts/controller-runtime';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { mapWithConcurrency, metaTime, POD_WRITE_CONCURRENCY } from '@kruise-ts/workload';

import type { PodControlContext } from './context.ts';

/** What setting readiness-gate conditions needs. */
export type ReadinessContext = Pick<PodControlContext, 'pods' | 'clock' | 'resourceVersionExpectations'>;

const INITIAL_TRUE_GATES = [IN_PLACE_UPDATE_READY, KRUISE_POD_READY];

/** Readiness-gate conditions the pod declares but does not have yet. */
function missingGateConditions(pod: DeepReadonly<Pod>): string[] {
  // Runs for every pod on every reconcile: no intermediate collections.
  const gates = pod.spec?.readinessGates ?? [];
  const conditions = pod.status?.conditions ?? [];
  return INITIAL_TRUE_GATES.filter(
    (gate) =>
      gates.some((declared) => declared.conditionType === gate) &&
      !conditions.some((condition) => condition.type === gate),
  );
}

/**
 * Gives new pods their readiness-gate conditions (InPlaceUpdateReady and KruisePodReady, both True)
 * in one status write per pod. A pod with a declared gate and no condition is never Ready, so this
 * runs every reconcile for pods that need it, scaling or not. OpenKruise sets the two in separate
 * writes by two controllers; one patch does both here. Returns whether any pod was written.
 */
export async function initializeReadinessGates(
  ctx: ReadinessContext,
  pods: readonly DeepReadonly<Pod>[],
): Promise<boolean> {
  const needing = pods.filter(
    (pod) => missingGateConditions(pod).length > 0 && pod.metadata?.deletionTimestamp === undefined,
  );
  const written = await mapWithConcurrency(needing, POD_WRITE_CONCURRENCY, (pod) =>
    initializePodReadinessGates(ctx, pod),
  );
  return written.some((pod, index) => pod !== needing[index]);
}

/**
 * One pod's readiness-gate conditions, right after its creation (the create response is the pod):
 * waiting for the informer to deliver the new pod and for a reconcile to notice it would add that
 * round trip to every pod's way to Ready. Returns the pod as written, or the same object when
 * nothing was written.
 */
export async function initializePodReadinessGates(
  ctx: ReadinessContext,
  pod: DeepReadonly<Pod>,
): Promise<DeepReadonly<Pod>> {
  const missing = missingGateConditions(pod);
  if (missing.length === 0) {
    return pod;
  }
  const now = metaTime(ctx.clock.now());
  const updated = await ctx.pods
    .patchStatus(keyOf(pod), {
      type: 'strategic',
      body: { status: { conditions: missing.map((type) => ({ type, status: 'True', lastTransitionTime: now })) } },
    })
    .catch((error: unknown) => {
      // A pod deleted meanwhile needs no conditions.
      if (isNotFound(error)) {
        return undefined;
      }
      throw error;
    });
  if (updated === undefined) {
    return pod;
  }
  ctx.resourceVersionExpectations.expect(updated);
  return updated;
}
