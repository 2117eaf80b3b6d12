/**
 * The rolling update step: carries out {@link planRollingUpdate} with the pod-control package. Pods
 * labelled for deletion go through the preDelete hook; the others move to the update revision in
 * place (podUpdatePolicy InPlaceIfPossible or InPlaceOnly, through the inPlaceUpdate hook) or are
 * deleted and created again by the next scale step at the update revision.
 */
import { CONTROLLER_REVISION_HASH_LABEL, parseIntOrPercent, scaledValueFromIntOrPercent } from '@kruise-ts/api';
import type { Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { isInPlaceUpdateCompleted } from '@kruise-ts/inplace-update';
import { CHANGED, deletePods, InPlaceDecisions, updatePodInPlace, WAITING } from '@kruise-ts/pod-control';
import type { PodUpdateOutcome, PodUpdatePlan } from '@kruise-ts/pod-control';
import { isPodAtRevision } from '@kruise-ts/revision';
import { POD_WRITE_CONCURRENCY, settleWithConcurrency } from '@kruise-ts/workload';

import { claimsCompleted, claimsMatch, claimsReady, expandClaims, podClaims, resizesClaims } from './claim-resize.ts';
import { planRollingUpdate } from './rolling-update-plan.ts';
import { revisionNameOf, rollingUpdateOf, slotsOf } from './sync-context.ts';
import type { SyncContext, SyncState } from './sync-context.ts';

/** `rollingUpdate.maxUnavailable` resolved against replicas (rounded down, at least 1). */
export function updateBudget(state: SyncState): number {
  const value = rollingUpdateOf(state.set).maxUnavailable;
  if (parseIntOrPercent(value) === undefined) {
    return 1;
  }
  return Math.max(1, scaledValueFromIntOrPercent({ value, total: state.set.spec.replicas, roundUp: false }));
}

/** What the update step did. */
export interface UpdateResult {
  readonly changed: boolean;
  /** InPlaceOnly met a change that needs a new pod: why (for the FailedUpdatePod condition). */
  readonly blocked?: string;
}

function updatePlan(ctx: SyncContext, state: SyncState): PodUpdatePlan {
  const rolling = rollingUpdateOf(state.set);
  return {
    owner: state.owner,
    policy: rolling.podUpdatePolicy,
    gracePeriodSeconds: rolling.gracePeriodSeconds,
    revisions: state.revisions,
    revisionLabels: (revision) => ({ [CONTROLLER_REVISION_HASH_LABEL]: revision }),
    stripManagedFields: ctx.options.stripPodManagedFields,
    recreateOnVolumeClaimTemplatesChange: false,
    decisions: new InPlaceDecisions(),
  };
}

/** A pod that cannot be updated in place is deleted; the next scale step creates it at the update revision. */
async function recreatePod(ctx: SyncContext, state: SyncState, pod: DeepReadonly<Pod>): Promise<PodUpdateOutcome> {
  return (await deletePods(ctx, state.owner, { pods: [pod] })) ? CHANGED : WAITING;
}

/**
 * A target whose claims follow the template: its claims are expanded first (this round ends there
 * for it: the cache shows the claims as they were), and the pod is updated once the expansion is
 * completed; a pod already at the update revision needs nothing more (OpenKruise: the claims only).
 */
async function updateWithClaims(
  ctx: SyncContext,
  state: SyncState,
  input: { readonly pod: DeepReadonly<Pod>; readonly update: (pod: DeepReadonly<Pod>) => Promise<PodUpdateOutcome> },
): Promise<PodUpdateOutcome> {
  const { pod } = input;
  const claims = podClaims(state, pod);
  if (!claimsMatch(claims)) {
    await expandClaims(ctx, state, { pod, claims });
    return CHANGED;
  }
  if (!claimsCompleted(claims) || isPodAtRevision(pod, revisionNameOf(state.updateRevision))) {
    return WAITING;
  }
  return input.update(pod);
}

/** The rolling update of one reconcile (not called for OnDelete or while paused). */
export async function rollingUpdate(ctx: SyncContext, state: SyncState): Promise<UpdateResult> {
  const rolling = rollingUpdateOf(state.set);
  const verticalScaling = ctx.gates.enabled('InPlaceWorkloadVerticalScaling');
  const resizing = resizesClaims(ctx.gates, state.set);
  const plan = planRollingUpdate({
    strategy: { partition: rolling.partition, unorderedUpdate: rolling.unorderedUpdate },
    replicas: state.set.spec.replicas,
    maxUnavailable: updateBudget(state),
    updateRevision: revisionNameOf(state.updateRevision),
    minReadySeconds: rolling.minReadySeconds,
    now: ctx.clock.now(),
    slots: slotsOf(state),
    inPlaceCompleted: (pod) => isInPlaceUpdateCompleted(pod, { verticalScaling }),
    ...(resizing
      ? {
          claims: {
            matched: (pod) => claimsMatch(podClaims(state, pod)),
            ready: (pod) => claimsReady(podClaims(state, pod)),
          },
        }
      : {}),
  });
  if (plan.requeueMs !== undefined) {
    ctx.requeue.push(plan.requeueMs, 'minReadySeconds');
  }
  let changed =
    plan.specifiedDeletes.length > 0 && (await deletePods(ctx, state.owner, { pods: plan.specifiedDeletes }));
  const podPlan = updatePlan(ctx, state);
  // The plan chose the pods in update order within the budget; their writes need no order among
  // themselves (OpenKruise writes them one after another: 200 pods took seconds per reconcile).
  const update = async (pod: DeepReadonly<Pod>): Promise<PodUpdateOutcome> => {
    const outcome = await updatePodInPlace(ctx, podPlan, { pod, target: state.updateRevision });
    return outcome.kind === 'recreate' ? recreatePod(ctx, state, pod) : outcome;
  };
  const outcomes = await settleWithConcurrency(plan.updates, POD_WRITE_CONCURRENCY, (pod) =>
    resizing ? updateWithClaims(ctx, state, { pod, update }) : update(pod),
  );
  let blocked: string | undefined;
  for (const outcome of outcomes) {
    if (outcome.status === 'rejected') {
      throw outcome.reason;
    }
    changed = changed || outcome.value.kind === 'changed';
    blocked ??= outcome.value.kind === 'blocked' ? outcome.value.reason : undefined;
  }
  return { changed, ...(blocked === undefined ? {} : { blocked }) };
}
