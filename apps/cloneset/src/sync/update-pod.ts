import { CloneSetEventReason, CloneSetUpdateStrategyType, LIFECYCLE_STATE_LABEL, LIFECYCLE_TIMESTAMP_ANNOTATION, LifecycleState } from '@kruise-ts/api';
import type { ControllerRevision, Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { calculateInPlaceUpdateSpec, hasInPlaceUpdateReadinessGate, podCanApplyInPlace, startInPlaceUpdate, updateRestartsContainers } from '@kruise-ts/inplace-update';
import type { InPlaceDecision, UpdateSpec } from '@kruise-ts/inplace-update';
import { inPlaceUpdateStateDecision, lifecycleTimestamp, setLifecycleState } from '@kruise-ts/lifecycle';
import { isPodAtRevision, revisionLabels } from '@kruise-ts/revision';
import { errorMessage } from '@kruise-ts/workload';

import { deletePods } from './delete-pods.ts';
import { revisionNameOf } from './sync-context.ts';
import type { SyncContext, SyncState } from './sync-context.ts';

type ReadonlyPod = DeepReadonly<Pod>;
type ReadonlyRevision = DeepReadonly<ControllerRevision>;

/** What happened to one selected pod. */
export type PodUpdateOutcome = { readonly kind: 'changed' } | { readonly kind: 'waiting' } | { readonly kind: 'blocked'; readonly reason: string };

const CHANGED: PodUpdateOutcome = { kind: 'changed' };
const WAITING: PodUpdateOutcome = { kind: 'waiting' };

/** In-place decisions per (from, to) revision pair, computed once per reconcile. */
const decisionsByState = new WeakMap<SyncState, Map<string, InPlaceDecision>>();

function inPlaceDecision(ctx: SyncContext, state: SyncState, revisions: { from: ReadonlyRevision | undefined; to: ReadonlyRevision }): InPlaceDecision {
  const { from, to } = revisions;
  if (from === undefined) {
    return { kind: 'recreate', reason: 'the revision the pod was created from no longer exists' };
  }
  const key = `${revisionNameOf(from)}→${revisionNameOf(to)}`;
  const cache = decisionsByState.get(state) ?? new Map<string, InPlaceDecision>();
  decisionsByState.set(state, cache);
  const known = cache.get(key);
  if (known !== undefined) {
    return known;
  }
  const decision = calculateInPlaceUpdateSpec({
    oldRevision: from,
    newRevision: to,
    gracePeriodSeconds: state.cs.spec.updateStrategy.inPlaceUpdateStrategy?.gracePeriodSeconds ?? 0,
    inPlaceOnly: state.cs.spec.updateStrategy.type === CloneSetUpdateStrategyType.InPlaceOnly,
    gates: {
      verticalScaling: ctx.gates.enabled('InPlaceWorkloadVerticalScaling'),
      envFromMetadata: ctx.gates.enabled('InPlaceUpdateEnvFromMetadata'),
      recreateOnVolumeClaimTemplatesChange: ctx.gates.enabled('RecreatePodWhenChangeVCTInCloneSetGate'),
    },
  });
  cache.set(key, decision);
  return decision;
}

/**
 * OpenKruise's `updatePod`: with InPlaceIfPossible or InPlaceOnly, update the pod in place when the
 * change allows it (going through PreparingUpdate while the inPlaceUpdate hook holds the pod);
 * otherwise recreate it, except under InPlaceOnly, which never recreates and reports why instead.
 *
 * Unlike OpenKruise, InPlaceIfPossible also recreates a pod without the `InPlaceUpdateReady` gate
 * (adopted, or made by a ReCreate CloneSet with `--cloneset-recreate-without-readiness-gates`) when
 * the update would restart a container: nothing could take that pod out of Service endpoints first.
 * InPlaceOnly, which must not recreate, updates such a pod in place as OpenKruise does.
 */
export async function updatePod(ctx: SyncContext, state: SyncState, input: { pod: ReadonlyPod; target: ReadonlyRevision }): Promise<PodUpdateOutcome> {
  const { pod, target } = input;
  const type = state.cs.spec.updateStrategy.type;
  if (type === CloneSetUpdateStrategyType.ReCreate) {
    return recreate(ctx, state, input);
  }
  const plan = inPlacePlan(ctx, state, input);
  if (plan.kind === 'in-place') {
    return updateInPlace(ctx, state, { pod, target, spec: plan.spec });
  }
  const reason = plan.reason;
  if (type === CloneSetUpdateStrategyType.InPlaceOnly) {
    const message = `find Pod ${pod.metadata?.name ?? ''} update strategy is InPlaceOnly but can not update in-place: ${reason}`;
    ctx.recorder.warning(state.ref, CloneSetEventReason.FailedUpdatePodInPlace, message);
    return { kind: 'blocked', reason: message };
  }
  return recreate(ctx, state, input);
}

/** Whether the pod may be updated in place (an in-place strategy), and if not, why. */
function inPlacePlan(ctx: SyncContext, state: SyncState, input: { pod: ReadonlyPod; target: ReadonlyRevision }): { kind: 'in-place'; spec: UpdateSpec } | { kind: 'recreate'; reason: string } {
  const { pod, target } = input;
  const from = state.revisions.find((revision) => isPodAtRevision(pod, revisionNameOf(revision)));
  const decision = inPlaceDecision(ctx, state, { from, to: target });
  if (decision.kind !== 'in-place') {
    return { kind: 'recreate', reason: decision.reason };
  }
  const applicable = podCanApplyInPlace(pod, decision.spec);
  if (!applicable.ok) {
    return { kind: 'recreate', reason: applicable.reason };
  }
  const unguarded = !hasInPlaceUpdateReadinessGate(pod) && updateRestartsContainers(pod, decision.spec, ctx.gates.enabled('InPlaceWorkloadVerticalScaling'));
  if (unguarded && state.cs.spec.updateStrategy.type === CloneSetUpdateStrategyType.InPlaceIfPossible) {
    return { kind: 'recreate', reason: 'the pod has no InPlaceUpdateReady readiness gate to leave Service endpoints before its containers restart' };
  }
  return { kind: 'in-place', spec: decision.spec };
}

/**
 * The lifecycle side of an in-place update (the inPlaceUpdate hook): undefined when the update may
 * go ahead now, else what happened instead.
 */
async function lifecycleBeforeUpdate(ctx: SyncContext, state: SyncState, input: { pod: ReadonlyPod; revision: string }): Promise<PodUpdateOutcome | undefined> {
  const { pod } = input;
  const lifecycle = inPlaceUpdateStateDecision(pod, state.cs.spec.lifecycle, { step: 'update' });
  switch (lifecycle.action) {
    case 'updateInPlace':
      return undefined;
    case 'none':
    case 'wait':
      return WAITING;
    case 'refuse':
      ctx.recorder.warning(state.ref, CloneSetEventReason.FailedUpdatePodInPlace, `failed to update pod ${pod.metadata?.name ?? ''} in-place(revision ${input.revision}): ${lifecycle.reason}`);
      return WAITING;
    case 'setState': {
      const written = await setLifecycleState({ client: ctx.pods, pod, state: lifecycle.state, markPodNotReady: lifecycle.markPodNotReady, now: ctx.clock.now(), reapplyHook: lifecycle.reapplyHook });
      if (written === pod) {
        return WAITING;
      }
      ctx.resourceVersionExpectations.expect(written);
      return CHANGED;
    }
  }
}

async function updateInPlace(ctx: SyncContext, state: SyncState, input: { pod: ReadonlyPod; target: ReadonlyRevision; spec: UpdateSpec }): Promise<PodUpdateOutcome> {
  const { pod, target, spec } = input;
  const name = pod.metadata?.name ?? '';
  const revision = revisionNameOf(target);
  const held = await lifecycleBeforeUpdate(ctx, state, { pod, revision });
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
      labels: { ...revisionLabels(revision, { shortHash: ctx.gates.enabled('CloneSetShortHash') }), [LIFECYCLE_STATE_LABEL]: LifecycleState.Updating },
      annotations: { [LIFECYCLE_TIMESTAMP_ANNOTATION]: lifecycleTimestamp(now) },
      verticalScaling: ctx.gates.enabled('InPlaceWorkloadVerticalScaling'),
      stripManagedFields: ctx.options.stripPodManagedFields,
    });
    ctx.resourceVersionExpectations.expect(started.pod);
    if (started.delayMs !== undefined) {
      ctx.requeue.push(started.delayMs, 'in-place update grace period');
    }
  } catch (error) {
    if (!ctx.signal.aborted) {
      ctx.recorder.warning(state.ref, CloneSetEventReason.FailedUpdatePodInPlace, `failed to update pod ${name} in-place(revision ${revision}): ${errorMessage(error)}`);
    }
    throw error;
  }
  ctx.recorder.normal(state.ref, CloneSetEventReason.SuccessfulUpdatePodInPlace, `successfully update pod ${name} in-place(revision ${revision})`);
  return CHANGED;
}

/**
 * Recreates the pod: deletes it (through PreparingDelete when the preDelete hook holds it, with its
 * PVCs), and the scale step creates the replacement at the update revision. OpenKruise first labels
 * the pod `apps.kruise.io/specified-delete` and deletes it in the next reconcile; the update budget
 * (limitUpdateCandidates) already bounds what the scale step's delete budget would, so we delete at
 * once: one write and one reconcile less per recreated pod.
 */
async function recreate(ctx: SyncContext, state: SyncState, input: { pod: ReadonlyPod; target: ReadonlyRevision }): Promise<PodUpdateOutcome> {
  const name = input.pod.metadata?.name ?? '';
  const revision = revisionNameOf(input.target);
  try {
    if (!(await deletePods(ctx, state, [input.pod]))) {
      return WAITING;
    }
  } catch (error) {
    if (!ctx.signal.aborted) {
      ctx.recorder.warning(state.ref, CloneSetEventReason.FailedUpdatePodReCreate, `failed to delete pod ${name} for update(revision ${revision}): ${errorMessage(error)}`);
    }
    throw error;
  }
  ctx.recorder.normal(state.ref, CloneSetEventReason.SuccessfulUpdatePodReCreate, `successfully delete pod ${name} for update(revision ${revision})`);
  return CHANGED;
}
