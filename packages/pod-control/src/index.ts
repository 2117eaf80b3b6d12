/**
 * @kruise-ts/pod-control: what a workload controller does to its pods, shared by CloneSet and
 * Advanced StatefulSet (BroadcastJob creates and deletes through it). Create them with their PVCs,
 * delete them through the preDelete hook, update them to a revision in place (or answer that they must
 * be recreated, which the workload's sync does by deleting them), refresh their in-place and lifecycle
 * state every reconcile, and give new pods their readiness-gate conditions.
 *
 * STOP: this file is the public API of @kruise-ts/pod-control. Add explicit named exports only (no `export *`).
 */
export type { ClaimControl, PodControl, PodControlContext, PodOwner, WallClock } from './context.ts';
export { PodEventReason } from './event-reasons.ts';
export { initializePodReadinessGates, initializeReadinessGates } from './readiness-gates.ts';
export type { ReadinessContext } from './readiness-gates.ts';
export { CreatePodsError, createPods } from './create-pods.ts';
export type { CreateContext, CreatePodsRequest } from './create-pods.ts';
export { deleteClaim, deletePod, deletePods } from './delete-pods.ts';
export type { DeleteContext, DeletePodsRequest } from './delete-pods.ts';
export { CHANGED, InPlaceDecisions, PodUpdatePolicy, RECREATE, updatePodInPlace, WAITING } from './update-pod.ts';
export type { InPlaceUpdateOutcome, PodUpdateOutcome, PodUpdatePlan, UpdatePodContext } from './update-pod.ts';
export { RefreshError, refreshPods, skipOrFail } from './refresh-pods.ts';
export type { RefreshContext, RefreshInput, RefreshResult, SkippedPod } from './refresh-pods.ts';
export { podControlContext, podControlDeps } from './reconcile-context.ts';
export type { PodControlDeps, PodControlDepsOptions } from './reconcile-context.ts';
