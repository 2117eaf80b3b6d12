/**
 * The scale step: carries out {@link planScale} with the pod-control package (creations with their
 * claims, deletions through the preDelete hook), fixes the identity labels and claims of the pods it
 * checked, and re-owns the claims of condemned pods as the retention policy says.
 */
import { CONTROLLER_REVISION_HASH_LABEL, StatefulSetEventReason } from '@kruise-ts/api';
import type { Pod } from '@kruise-ts/api';
import { keyOf } from '@kruise-ts/controller-runtime';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { createPods, deletePods } from '@kruise-ts/pod-control';
import { parseIntOrPercent, scaledValueFromIntOrPercent } from '@kruise-ts/api';

import { isCreated } from '../pod-health.ts';
import {
  claimsToCreate,
  ClaimBeingDeletedError,
  createMissingClaims,
  reconcileClaims,
  staleClaimOrdinals,
} from './claims.ts';
import { claimCollidingPod, collidingPodName } from './name-collision.ts';
import { planScale } from './scale-plan.ts';
import type { ScalePlan } from './scale-plan.ts';
import { identityMatches, identityPatch, newStatefulPod } from './stateful-pod.ts';
import { revisionNameOf, rollingUpdateOf, slotsOf } from './sync-context.ts';
import type { SyncContext, SyncState } from './sync-context.ts';
import { isCurrentRevisionNeeded } from './update-order.ts';

/** `scaleStrategy.maxUnavailable` resolved against replicas (rounded down, at least 1); undefined when unset. */
export function scaleBudget(state: SyncState): number | undefined {
  const value = state.set.spec.scaleStrategy?.maxUnavailable;
  if (value === undefined || parseIntOrPercent(value) === undefined) {
    return undefined;
  }
  return Math.max(1, scaledValueFromIntOrPercent({ value, total: state.set.spec.replicas, roundUp: false }));
}

/** Whether a new pod at slot `index` gets the current revision, with `slots` as filled so far. */
function currentRevisionNeeded(
  state: SyncState,
  input: { readonly index: number; readonly slots: readonly (DeepReadonly<Pod> | undefined)[] },
): boolean {
  const rolling = rollingUpdateOf(state.set);
  return isCurrentRevisionNeeded({
    onDelete: state.set.spec.updateStrategy.type === 'OnDelete',
    strategy: { partition: rolling.partition, unorderedUpdate: rolling.unorderedUpdate },
    updateRevision: revisionNameOf(state.updateRevision),
    index: input.index,
    slots: input.slots,
  });
}

/**
 * The new pods of the planned ordinals, each at the revision OpenKruise's isCurrentRevisionNeeded
 * gives it. As upstream, which fills every missing ordinal in ascending order before it scales, a
 * missing ordinal below counts at the revision it would get: a pod missing below (Parallel, a
 * deleted pod) must not move a higher one to the current revision.
 */
function newPods(ctx: SyncContext, state: SyncState, ordinals: readonly number[]): Pod[] {
  const slots = slotsOf(state);
  const planned = new Set(ordinals);
  const last = Math.max(...ordinals);
  const pods: Pod[] = [];
  for (const { ordinal } of state.replicas.filter((slot) => slot.pod === undefined && slot.ordinal <= last)) {
    const index = ordinal - state.range.start;
    const current = currentRevisionNeeded(state, { index, slots });
    const revision = revisionNameOf(current ? state.currentRevision : state.updateRevision);
    if (!planned.has(ordinal)) {
      // Only its revision label counts for the ordinals above.
      slots[index] = { metadata: { labels: { [CONTROLLER_REVISION_HASH_LABEL]: revision } } };
      continue;
    }
    const pod = newStatefulPod(state.source, {
      ordinal,
      template: current ? state.currentTemplate : state.updateTemplate,
      revision,
      now: ctx.clock.now(),
    });
    slots[index] = pod;
    pods.push(pod);
  }
  return pods;
}

/** What the scale step did. */
export interface ScaleResult {
  /** Something was written: the update waits for the next reconcile. */
  readonly changed: boolean;
  /** Nothing else may happen this round. */
  readonly stop: boolean;
}

async function fixCheckedPods(ctx: SyncContext, state: SyncState, plan: ScalePlan): Promise<boolean> {
  let changed = false;
  for (const { ordinal, pod } of plan.checked) {
    if (!identityMatches(state.source, pod, ordinal)) {
      ctx.resourceVersionExpectations.expect(
        await ctx.pods.patch(keyOf(pod), { type: 'merge', body: identityPatch(state.source, ordinal) }),
      );
      changed = true;
    }
    if (!isCreated(pod) || pod.status?.phase === 'Pending') {
      changed = (await createMissingClaims(ctx, state, pod).catch(skipClaimBeingDeleted)) || changed;
    }
    changed = (await reconcileClaims(ctx, state, { ordinal, pod })) || changed;
  }
  return changed;
}

function skipClaimBeingDeleted(error: unknown): boolean {
  if (error instanceof ClaimBeingDeletedError) {
    return false;
  }
  throw error;
}

async function reownCondemnedClaims(ctx: SyncContext, state: SyncState): Promise<boolean> {
  let changed = false;
  for (const entry of state.condemned) {
    changed = (await reconcileClaims(ctx, state, entry)) || changed;
  }
  return changed;
}

/** The scale step of one reconcile. */
export async function scale(ctx: SyncContext, state: SyncState): Promise<ScaleResult> {
  const plan = planScale({
    monotonic: state.set.spec.podManagementPolicy !== 'Parallel',
    budget: scaleBudget(state),
    minReadySeconds: rollingUpdateOf(state.set).minReadySeconds,
    now: ctx.clock.now(),
    replicas: state.replicas,
    condemned: state.condemned,
    staleClaims: staleClaimOrdinals(ctx, state),
  });
  if (plan.requeueMs !== undefined) {
    ctx.requeue.push(plan.requeueMs, 'minReadySeconds');
  }
  if (plan.waitingFor !== undefined) {
    ctx.logger.debug({ waitingFor: plan.waitingFor }, 'Scaling waits');
  }
  let changed = await recreateFinished(ctx, state, plan.deleteFinished);
  if (plan.create.length > 0) {
    await createPlanned(ctx, state, newPods(ctx, state, plan.create));
    changed = true;
  }
  changed = (await fixCheckedPods(ctx, state, plan)) || changed;
  changed = (await reownCondemnedClaims(ctx, state)) || changed;
  if (plan.deleteCondemned.length > 0) {
    changed = (await deletePods(ctx, state.owner, { pods: plan.deleteCondemned })) || changed;
  }
  return { changed, stop: plan.stop };
}

/**
 * Creates the planned pods. A name that is taken by a pod the cache does not show (its labels were
 * removed) is claimed from a fresh read before the failure goes on to the queue's backoff.
 */
async function createPlanned(ctx: SyncContext, state: SyncState, pods: readonly Pod[]): Promise<void> {
  try {
    await createPods(ctx, state.owner, { pods, claimsFor: (pod) => claimsToCreate(ctx, state, pod) });
  } catch (error) {
    const name = collidingPodName(error);
    if (name !== undefined && pods.some((pod) => pod.metadata?.name === name)) {
      // The creation's failure is what the status reports; a failed claim is retried with it.
      const outcome = await claimCollidingPod(ctx, state, name).catch((claimError: unknown) => {
        ctx.logger.warn({ err: claimError, pod: name }, 'Could not claim the pod that took the name');
        return 'failed';
      });
      ctx.logger.debug({ pod: name, outcome }, 'A pod of that name exists outside the cache');
    }
    throw error;
  }
}

async function recreateFinished(
  ctx: SyncContext,
  state: SyncState,
  pods: readonly DeepReadonly<Pod>[],
): Promise<boolean> {
  for (const pod of pods) {
    ctx.recorder.warning(
      state.owner.ref,
      StatefulSetEventReason.RecreatingFailedPod,
      `StatefulSet ${state.key} is recreating failed Pod ${pod.metadata?.name ?? ''}`,
    );
  }
  return pods.length > 0 && (await deletePods(ctx, state.owner, { pods }));
}
