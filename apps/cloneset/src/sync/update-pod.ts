import { CloneSetEventReason } from '@kruise-ts/api';
import type { ControllerRevision, Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { CHANGED, InPlaceDecisions, updatePodToRevision, WAITING } from '@kruise-ts/pod-control';
import type { PodUpdateOutcome, PodUpdatePlan } from '@kruise-ts/pod-control';
import { revisionLabels } from '@kruise-ts/revision';
import { errorMessage } from '@kruise-ts/workload';

import { deletePods } from './delete-pods.ts';
import { revisionNameOf } from './sync-context.ts';
import type { SyncContext, SyncState } from './sync-context.ts';

export type { PodUpdateOutcome } from '@kruise-ts/pod-control';

type ReadonlyPod = DeepReadonly<Pod>;
type ReadonlyRevision = DeepReadonly<ControllerRevision>;

/** The update plan of one reconcile (its in-place decisions are computed once per revision pair). */
const plans = new WeakMap<SyncState, PodUpdatePlan>();

function updatePlan(ctx: SyncContext, state: SyncState): PodUpdatePlan {
  const known = plans.get(state);
  if (known !== undefined) {
    return known;
  }
  const strategy = state.cs.spec.updateStrategy;
  const shortHash = ctx.gates.enabled('CloneSetShortHash');
  const plan: PodUpdatePlan = {
    owner: state.owner,
    // CloneSet's update types are the pod update policies by name; OnDelete never reaches an update.
    policy: strategy.type === 'OnDelete' ? 'ReCreate' : strategy.type,
    gracePeriodSeconds: strategy.inPlaceUpdateStrategy?.gracePeriodSeconds ?? 0,
    revisions: state.revisions,
    revisionLabels: (revision) => revisionLabels(revision, { shortHash }),
    stripManagedFields: ctx.options.stripPodManagedFields,
    recreateOnVolumeClaimTemplatesChange: ctx.gates.enabled('RecreatePodWhenChangeVCTInCloneSetGate'),
    decisions: new InPlaceDecisions(),
    recreate: (pod, target) => recreate(ctx, state, { pod, target }),
  };
  plans.set(state, plan);
  return plan;
}

/**
 * OpenKruise's `updatePod` (the pod-control package's update): with InPlaceIfPossible or
 * InPlaceOnly, in place when the change allows it; otherwise recreated, except under InPlaceOnly.
 */
export function updatePod(
  ctx: SyncContext,
  state: SyncState,
  input: { pod: ReadonlyPod; target: ReadonlyRevision },
): Promise<PodUpdateOutcome> {
  return updatePodToRevision(ctx, updatePlan(ctx, state), input);
}

/**
 * Recreates the pod: deletes it (through PreparingDelete when the preDelete hook holds it, with its
 * PVCs), and the scale step creates the replacement at the update revision. OpenKruise first labels
 * the pod `apps.kruise.io/specified-delete` and deletes it in the next reconcile; the update budget
 * (limitUpdateCandidates) already bounds what the scale step's delete budget would, so we delete at
 * once: one write and one reconcile less per recreated pod.
 */
async function recreate(
  ctx: SyncContext,
  state: SyncState,
  input: { pod: ReadonlyPod; target: ReadonlyRevision },
): Promise<PodUpdateOutcome> {
  const name = input.pod.metadata?.name ?? '';
  const revision = revisionNameOf(input.target);
  try {
    if (!(await deletePods(ctx, state, [input.pod]))) {
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
