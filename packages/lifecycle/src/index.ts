/**
 * @kruise-ts/lifecycle: the `lifecycle.apps.kruise.io/state` machine of apps.kruise.io pods: hook
 * checks, transition decisions, the state patch, markPodNotReady through KruisePodReady and a writer.
 *
 * STOP: this file is the public API of @kruise-ts/lifecycle. Add explicit named exports only (no `export *`).
 */
export {
  hookMarksPodNotReady,
  isPodAllHooked,
  isPodHooked,
  isPodLifecycleNormal,
  lifecycleState,
  rawLifecycleState,
} from './hooks.ts';
export type { Hook } from './hooks.ts';
export { lifecycleStatePatch, lifecycleTimestamp } from './state-patch.ts';
export type { LifecycleStatePatchBody, LifecycleStatePatchOptions } from './state-patch.ts';
export {
  canCancelPreparingDelete,
  inPlaceUpdateStateDecision,
  preparingDeleteOutcome,
  preparingNormalOutcome,
  shouldPrepareDelete,
} from './transitions.ts';
export type {
  InPlaceUpdateStateDecision,
  InPlaceUpdateStep,
  LifecycleConfig,
  PreparingDeleteOutcome,
  PreparingNormalOutcome,
} from './transitions.ts';
export {
  hasKruisePodReadyGate,
  initialKruisePodReadyCondition,
  kruisePodReadyChangeFor,
  kruisePodReadyConditionUpdate,
  LIFECYCLE_USER_AGENT,
} from './kruise-pod-ready.ts';
export type {
  KruisePodReadyChange,
  KruisePodReadyKey,
  KruisePodReadyUpdateOptions,
  PodCondition,
} from './kruise-pod-ready.ts';
export { setLifecycleState } from './set-lifecycle-state.ts';
export type { LifecyclePodClient, SetLifecycleStateOptions } from './set-lifecycle-state.ts';
