/**
 * Lifecycle transition decisions of a CloneSet-style workload (OpenKruise's cloneset_scale.go,
 * cloneset_update.go `refreshPodState`/`updatePod`), as pure functions of the pod and the workload's
 * `spec.lifecycle`. They decide; `setLifecycleState` writes.
 *
 *   (created) → PreparingNormal → Normal ⇄ PreparingUpdate → Updating → Updated → Normal
 *   any state → PreparingDelete → (deleted), or back to PreparingNormal when replicas grew
 */
import type { Lifecycle, Pod } from '@kruise-ts/api';
import { LifecycleState } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { isPodScheduled } from '@kruise-ts/workload';

import { hookMarksPodNotReady, isPodAllHooked, isPodHooked, rawLifecycleState } from './hooks.ts';
import type { Hook } from './hooks.ts';

type ReadonlyPod = DeepReadonly<Pod>;

/** A workload's `spec.lifecycle` as read from a cache. */
export type LifecycleConfig = DeepReadonly<Lifecycle> | undefined;

/** What happens to a PreparingNormal pod. */
export type PreparingNormalOutcome = 'Normal' | 'stay';

/** What happens to a PreparingDelete pod. */
export type PreparingDeleteOutcome = 'delete' | 'wait';

/** Where the in-place update decision is asked. */
export type InPlaceUpdateStep =
  /** The per-pod refresh that runs before any update; the caller says where the pod stands. */
  | { readonly step: 'refresh'; readonly atUpdateRevision: boolean; readonly updateCompleted: boolean }
  /** The pod was selected for an in-place update to the update revision. */
  | { readonly step: 'update' };

/** The decision of {@link inPlaceUpdateStateDecision}. */
export type InPlaceUpdateStateDecision =
  /** No lifecycle change (refresh), or nothing to do for this pod now (update). */
  | { readonly action: 'none' }
  /** Move the pod to `state` (with `setLifecycleState`), then stop handling it this reconcile. */
  | {
      readonly action: 'setState';
      readonly state: LifecycleState;
      readonly markPodNotReady: boolean;
      readonly reapplyHook?: Hook | undefined;
    }
  /** Update: the inPlaceUpdate hook still holds the pod; leave it for now. */
  | { readonly action: 'wait' }
  /** Update: go ahead; the in-place update patch also sets the state to Updating. */
  | { readonly action: 'updateInPlace' }
  /** Update: the pod's state does not allow an in-place update (PreparingDelete, unknown values). */
  | { readonly action: 'refuse'; readonly reason: string };

const NONE: InPlaceUpdateStateDecision = { action: 'none' };

/**
 * A PreparingNormal pod becomes Normal once scheduled when there is no preNormal hook (moving it
 * earlier can trigger an old kube-scheduler bug, kruise#1485), or once every preNormal handler is on
 * the pod when there is one (scheduled or not, as upstream). Pods in other states stay.
 */
export function preparingNormalOutcome(pod: ReadonlyPod, lifecycle: LifecycleConfig): PreparingNormalOutcome {
  if (rawLifecycleState(pod) !== LifecycleState.PreparingNormal) {
    return 'stay';
  }
  const preNormal = lifecycle?.preNormal;
  const ready = preNormal === undefined ? isPodScheduled(pod) : isPodAllHooked(preNormal, pod);
  return ready ? 'Normal' : 'stay';
}

/**
 * Whether deleting the pod must go through PreparingDelete: a preDelete hook is configured and holds
 * the pod. The transition marks the pod not ready when `preDelete.markPodNotReady` is set.
 */
export function shouldPrepareDelete(pod: ReadonlyPod, lifecycle: LifecycleConfig): boolean {
  return isPodHooked(lifecycle?.preDelete, pod);
}

/** A PreparingDelete pod is deleted once the preDelete hook no longer holds it; until then it waits. */
export function preparingDeleteOutcome(pod: ReadonlyPod, lifecycle: LifecycleConfig): PreparingDeleteOutcome {
  return shouldPrepareDelete(pod, lifecycle) ? 'wait' : 'delete';
}

/**
 * Whether PreparingDelete pods may go back to PreparingNormal when replicas grow: not when preDelete
 * or inPlaceUpdate marks pods not ready ("no regret once marked not ready").
 */
export function canCancelPreparingDelete(lifecycle: LifecycleConfig): boolean {
  return !hookMarksPodNotReady(lifecycle?.preDelete) && !hookMarksPodNotReady(lifecycle?.inPlaceUpdate);
}

/**
 * The state after an in-place update completed (or turned out unnecessary): Updated while a
 * lifecycle is configured and the inPlaceUpdate handlers are not all back on the pod, else Normal.
 * With a lifecycle but no inPlaceUpdate hook this is Updated (then Normal on the next refresh), as
 * upstream.
 */
function stateAfterUpdate(pod: ReadonlyPod, lifecycle: LifecycleConfig): LifecycleState {
  return lifecycle !== undefined && !isPodAllHooked(lifecycle.inPlaceUpdate, pod)
    ? LifecycleState.Updated
    : LifecycleState.Normal;
}

function setState(state: LifecycleState, markPodNotReady: boolean, reapplyHook?: Hook): InPlaceUpdateStateDecision {
  return reapplyHook === undefined
    ? { action: 'setState', state, markPodNotReady }
    : { action: 'setState', state, markPodNotReady, reapplyHook };
}

interface DecisionInput {
  readonly pod: ReadonlyPod;
  readonly lifecycle: LifecycleConfig;
}

interface RefreshInput extends DecisionInput {
  readonly step: Extract<InPlaceUpdateStep, { step: 'refresh' }>;
  /** inPlaceUpdate.markPodNotReady: every refresh transition uses it, as upstream. */
  readonly mark: boolean;
}

/** Refresh transitions by current state; states without an entry do not move. */
const REFRESH_BY_STATE: Readonly<Record<string, (input: RefreshInput) => InPlaceUpdateStateDecision>> = {
  [LifecycleState.PreparingNormal]: ({ pod, lifecycle, mark }) =>
    preparingNormalOutcome(pod, lifecycle) === 'Normal' ? setState(LifecycleState.Normal, mark) : NONE,
  // Rolled back while waiting in PreparingUpdate: already at the update revision (kruise#1156).
  [LifecycleState.PreparingUpdate]: ({ pod, lifecycle, step, mark }) =>
    step.atUpdateRevision ? setState(stateAfterUpdate(pod, lifecycle), mark) : NONE,
  [LifecycleState.Updating]: ({ pod, lifecycle, step, mark }) =>
    step.updateCompleted ? setState(stateAfterUpdate(pod, lifecycle), mark) : NONE,
  [LifecycleState.Updated]: ({ pod, lifecycle, mark }) =>
    lifecycle?.inPlaceUpdate === undefined || isPodAllHooked(lifecycle.inPlaceUpdate, pod)
      ? setState(LifecycleState.Normal, mark)
      : NONE,
};

function hookedOrUpdate({ pod, lifecycle }: DecisionInput): InPlaceUpdateStateDecision {
  const hook = lifecycle?.inPlaceUpdate;
  return isPodHooked(hook, pod)
    ? setState(LifecycleState.PreparingUpdate, hookMarksPodNotReady(hook))
    : { action: 'updateInPlace' };
}

/** Update decisions by current state; states without an entry are refused. */
const UPDATE_BY_STATE: Readonly<Record<string, (input: DecisionInput) => InPlaceUpdateStateDecision>> = {
  '': hookedOrUpdate,
  [LifecycleState.PreparingNormal]: hookedOrUpdate,
  [LifecycleState.Normal]: hookedOrUpdate,
  // Another in-place update after the last one: put the hook back and wait for it to be released.
  [LifecycleState.Updated]: ({ lifecycle }) => {
    const hook = lifecycle?.inPlaceUpdate;
    return hook === undefined
      ? { action: 'wait' }
      : setState(LifecycleState.PreparingUpdate, hookMarksPodNotReady(hook), hook);
  },
  [LifecycleState.PreparingUpdate]: ({ pod, lifecycle }) =>
    isPodHooked(lifecycle?.inPlaceUpdate, pod) ? { action: 'wait' } : { action: 'updateInPlace' },
  [LifecycleState.Updating]: () => ({ action: 'updateInPlace' }),
};

function refreshDecision(input: RefreshInput): InPlaceUpdateStateDecision {
  const state = rawLifecycleState(input.pod);
  const decide = Object.hasOwn(REFRESH_BY_STATE, state) ? REFRESH_BY_STATE[state] : undefined;
  return decide === undefined ? NONE : decide(input);
}

function updateDecision(input: DecisionInput): InPlaceUpdateStateDecision {
  const state = rawLifecycleState(input.pod);
  const decide = Object.hasOwn(UPDATE_BY_STATE, state) ? UPDATE_BY_STATE[state] : undefined;
  return decide === undefined
    ? {
        action: 'refuse',
        reason: `not allowed to update pod ${input.pod.metadata?.name ?? ''} in place in lifecycle state ${state}`,
      }
    : decide(input);
}

/**
 * The lifecycle side of in-place updates. Refresh (every pod, before updating): PreparingNormal →
 * Normal (see {@link preparingNormalOutcome}); PreparingUpdate at the update revision and Updating
 * once complete → Updated (hook handlers not all back) or Normal; Updated → Normal once the handlers
 * are back or no hook is configured; all with `inPlaceUpdate.markPodNotReady`. Update (selected
 * pod): ''/PreparingNormal/Normal → PreparingUpdate when the inPlaceUpdate hook holds the pod, else
 * update; Updated → PreparingUpdate with the hook re-applied; PreparingUpdate waits while hooked,
 * then updates; Updating updates again; PreparingDelete and unknown states are refused.
 */
export function inPlaceUpdateStateDecision(
  pod: ReadonlyPod,
  lifecycle: LifecycleConfig,
  step: InPlaceUpdateStep,
): InPlaceUpdateStateDecision {
  return step.step === 'refresh'
    ? refreshDecision({ pod, lifecycle, step, mark: hookMarksPodNotReady(lifecycle?.inPlaceUpdate) })
    : updateDecision({ pod, lifecycle });
}
