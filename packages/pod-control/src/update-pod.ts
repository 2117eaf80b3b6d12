/**
 * Updating one pod to the update revision in place (OpenKruise's `updatePod` of CloneSet and
 * `inPlaceUpdatePod` of Advanced StatefulSet): when the policy and the change allow it, through
 * PreparingUpdate while the inPlaceUpdate hook holds the pod. Otherwise it answers that the pod must be
 * recreated, and the workload's sync deletes it (its own way: CloneSet deletes the pod's PVCs too and
 * records its own Events), except under InPlaceOnly, which reports why instead.
 */
import {
  LIFECYCLE_STATE_LABEL,
  LIFECYCLE_TIMESTAMP_ANNOTATION,
  LifecycleState,
  PodUpdatePolicyType,
} from '@kruise-ts/api';
import type { ControllerRevision, Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import {
  calculateInPlaceUpdateSpec,
  hasInPlaceUpdateReadinessGate,
  podCanApplyInPlace,
  startInPlaceUpdate,
  updateRestartsContainers,
} from '@kruise-ts/inplace-update';
import type { InPlaceDecision, UpdateSpec } from '@kruise-ts/inplace-update';
import { inPlaceUpdateStateDecision, lifecycleTimestamp, setLifecycleState } from '@kruise-ts/lifecycle';
import { isPodAtRevision } from '@kruise-ts/revision';
import { errorMessage } from '@kruise-ts/workload';

import type { PodControlContext, PodOwner } from './context.ts';
import { PodEventReason } from './event-reasons.ts';

type ReadonlyPod = DeepReadonly<Pod>;
type ReadonlyRevision = DeepReadonly<ControllerRevision>;

/** How pods move to a new revision: StatefulSet's `podUpdatePolicy` values, which CloneSet's update types share. */
export const PodUpdatePolicy = PodUpdatePolicyType;
/** A pod update policy. */
export type PodUpdatePolicy = PodUpdatePolicyType;

/** What happened to one pod chosen for an update. */
export type PodUpdateOutcome =
  { readonly kind: 'changed' } | { readonly kind: 'waiting' } | { readonly kind: 'blocked'; readonly reason: string };

/** The pod was written (or deleted). */
export const CHANGED: PodUpdateOutcome = { kind: 'changed' };
/** The pod waits (a hook holds it, or nothing could be done this round). */
export const WAITING: PodUpdateOutcome = { kind: 'waiting' };

/** The pod cannot be updated in place: the workload recreates it (deletes it, and its scale step creates the new one). */
export const RECREATE = { kind: 'recreate' } as const;

/** What {@link updatePodInPlace} did, or that the pod must be recreated. */
export type InPlaceUpdateOutcome = PodUpdateOutcome | typeof RECREATE;

/** In-place decisions per (from, to) revision pair: computed once per reconcile, not once per pod. */
export class InPlaceDecisions {
  readonly #byPair = new Map<string, InPlaceDecision>();

  /** The decision for the pair, computed by `decide` only the first time. */
  get(from: string, to: string, decide: () => InPlaceDecision): InPlaceDecision {
    const key = `${from}→${to}`;
    const known = this.#byPair.get(key);
    if (known !== undefined) {
      return known;
    }
    const decision = decide();
    this.#byPair.set(key, decision);
    return decision;
  }
}

/** How one workload updates its pods during one reconcile. */
export interface PodUpdatePlan {
  readonly owner: PodOwner;
  readonly policy: PodUpdatePolicy;
  /** `inPlaceUpdateStrategy.gracePeriodSeconds`. */
  readonly gracePeriodSeconds: number;
  /** Every revision of the workload (to find the one the pod is at). */
  readonly revisions: readonly ReadonlyRevision[];
  /** The labels that say a pod is at a revision (the workload's revision label convention). */
  readonly revisionLabels: (revision: string) => Record<string, string>;
  /** Strip the pod's managedFields in the in-place spec patch (CloneSet's `--cloneset-strip-pod-managed-fields`). */
  readonly stripManagedFields: boolean;
  /** A changed volumeClaimTemplates hash forbids in-place (CloneSet's RecreatePodWhenChangeVCTInCloneSetGate). */
  readonly recreateOnVolumeClaimTemplatesChange: boolean;
  readonly decisions: InPlaceDecisions;
}

/** What updating needs. */
export type UpdatePodContext = Pick<
  PodControlContext,
  'signal' | 'pods' | 'recorder' | 'clock' | 'gates' | 'resourceVersionExpectations' | 'requeue'
>;

function revisionName(revision: ReadonlyRevision): string {
  return revision.metadata?.name ?? '';
}

function inPlaceDecision(
  ctx: UpdatePodContext,
  plan: PodUpdatePlan,
  revisions: { from: ReadonlyRevision | undefined; to: ReadonlyRevision },
): InPlaceDecision {
  const { from, to } = revisions;
  if (from === undefined) {
    return { kind: 'recreate', reason: 'the revision the pod was created from no longer exists' };
  }
  return plan.decisions.get(revisionName(from), revisionName(to), () =>
    calculateInPlaceUpdateSpec({
      oldRevision: from,
      newRevision: to,
      gracePeriodSeconds: plan.gracePeriodSeconds,
      inPlaceOnly: plan.policy === PodUpdatePolicy.InPlaceOnly,
      gates: {
        verticalScaling: ctx.gates.enabled('InPlaceWorkloadVerticalScaling'),
        envFromMetadata: ctx.gates.enabled('InPlaceUpdateEnvFromMetadata'),
        recreateOnVolumeClaimTemplatesChange: plan.recreateOnVolumeClaimTemplatesChange,
      },
    }),
  );
}

/**
 * Updates the pod to `target` in place, or returns {@link RECREATE}: always under ReCreate, and when
 * the change cannot be made in place. Under InPlaceIfPossible a pod without the `InPlaceUpdateReady`
 * gate is recreated when the update would restart a container (nothing could take it out of Service
 * endpoints first); InPlaceOnly, which must not recreate, updates such a pod in place as OpenKruise
 * does, and reports (a Warning, `blocked`) a change that cannot be made in place.
 */
export async function updatePodInPlace(
  ctx: UpdatePodContext,
  plan: PodUpdatePlan,
  input: { pod: ReadonlyPod; target: ReadonlyRevision },
): Promise<InPlaceUpdateOutcome> {
  const { pod, target } = input;
  const { owner } = plan;
  if (plan.policy === PodUpdatePolicy.ReCreate) {
    return RECREATE;
  }
  const inPlace = inPlacePlan(ctx, plan, input);
  if (inPlace.kind === 'in-place') {
    return writeInPlaceUpdate(ctx, owner, { plan, pod, target, spec: inPlace.spec });
  }
  if (plan.policy === PodUpdatePolicy.InPlaceOnly) {
    const message = `find Pod ${pod.metadata?.name ?? ''} update strategy is InPlaceOnly but can not update in-place: ${inPlace.reason}`;
    ctx.recorder.warning(owner.ref, PodEventReason.FailedUpdatePodInPlace, message);
    return { kind: 'blocked', reason: message };
  }
  return RECREATE;
}

/** Whether the pod may be updated in place, and if not, why. */
function inPlacePlan(
  ctx: UpdatePodContext,
  plan: PodUpdatePlan,
  input: { pod: ReadonlyPod; target: ReadonlyRevision },
): { kind: 'in-place'; spec: UpdateSpec } | { kind: 'recreate'; reason: string } {
  const { pod, target } = input;
  const from = plan.revisions.find((revision) => isPodAtRevision(pod, revisionName(revision)));
  const decision = inPlaceDecision(ctx, plan, { from, to: target });
  if (decision.kind !== 'in-place') {
    return { kind: 'recreate', reason: decision.reason };
  }
  const applicable = podCanApplyInPlace(pod, decision.spec);
  if (!applicable.ok) {
    return { kind: 'recreate', reason: applicable.reason };
  }
  const unguarded =
    !hasInPlaceUpdateReadinessGate(pod) &&
    updateRestartsContainers(pod, decision.spec, ctx.gates.enabled('InPlaceWorkloadVerticalScaling'));
  if (unguarded && plan.policy === PodUpdatePolicy.InPlaceIfPossible) {
    return {
      kind: 'recreate',
      reason:
        'the pod has no InPlaceUpdateReady readiness gate to leave Service endpoints before its containers restart',
    };
  }
  return { kind: 'in-place', spec: decision.spec };
}

/** The lifecycle side of an in-place update (the inPlaceUpdate hook): undefined when the update may go ahead now. */
async function lifecycleBeforeUpdate(
  ctx: UpdatePodContext,
  owner: PodOwner,
  input: { pod: ReadonlyPod; revision: string },
): Promise<PodUpdateOutcome | undefined> {
  const { pod } = input;
  const lifecycle = inPlaceUpdateStateDecision(pod, owner.lifecycle, { step: 'update' });
  switch (lifecycle.action) {
    case 'updateInPlace':
      return undefined;
    case 'none':
    case 'wait':
      return WAITING;
    case 'refuse':
      ctx.recorder.warning(
        owner.ref,
        PodEventReason.FailedUpdatePodInPlace,
        `failed to update pod ${pod.metadata?.name ?? ''} in-place(revision ${input.revision}): ${lifecycle.reason}`,
      );
      return WAITING;
    case 'setState': {
      const written = await setLifecycleState({
        client: ctx.pods,
        pod,
        state: lifecycle.state,
        markPodNotReady: lifecycle.markPodNotReady,
        now: ctx.clock.now(),
        reapplyHook: lifecycle.reapplyHook,
      });
      if (written === pod) {
        return WAITING;
      }
      ctx.resourceVersionExpectations.expect(written);
      return CHANGED;
    }
  }
}

/** The inPlaceUpdate hook first, then the in-place update's writes, with their Events. */
async function writeInPlaceUpdate(
  ctx: UpdatePodContext,
  owner: PodOwner,
  input: { plan: PodUpdatePlan; pod: ReadonlyPod; target: ReadonlyRevision; spec: UpdateSpec },
): Promise<PodUpdateOutcome> {
  const { plan, pod, spec } = input;
  const name = pod.metadata?.name ?? '';
  const revision = revisionName(input.target);
  const held = await lifecycleBeforeUpdate(ctx, owner, { pod, revision });
  if (held !== undefined) {
    return held;
  }
  const now = ctx.clock.now();
  try {
    const started = await startInPlaceUpdate({
      client: ctx.pods,
      pod,
      spec,
      now,
      labels: { ...plan.revisionLabels(revision), [LIFECYCLE_STATE_LABEL]: LifecycleState.Updating },
      annotations: { [LIFECYCLE_TIMESTAMP_ANNOTATION]: lifecycleTimestamp(now) },
      verticalScaling: ctx.gates.enabled('InPlaceWorkloadVerticalScaling'),
      stripManagedFields: plan.stripManagedFields,
    });
    ctx.resourceVersionExpectations.expect(started.pod);
    if (started.delayMs !== undefined) {
      ctx.requeue.push(started.delayMs, 'in-place update grace period');
    }
  } catch (error) {
    if (!ctx.signal.aborted) {
      ctx.recorder.warning(
        owner.ref,
        PodEventReason.FailedUpdatePodInPlace,
        `failed to update pod ${name} in-place(revision ${revision}): ${errorMessage(error)}`,
      );
    }
    throw error;
  }
  ctx.recorder.normal(
    owner.ref,
    PodEventReason.SuccessfulUpdatePodInPlace,
    `successfully update pod ${name} in-place(revision ${revision})`,
  );
  return CHANGED;
}
