/**
 * OpenKruise's pod predicates for its workloads (CloneSet, Advanced StatefulSet): the lifecycle
 * state label and readiness that also waits for an in-place update to finish.
 */
import { IN_PLACE_UPDATE_READY, LIFECYCLE_STATE_LABEL, LifecycleState } from '@kruise-ts/api';
import type { Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

import { conditionStatus, isPodAvailable } from './pod-state.ts';
import type { AvailabilityOptions } from './pod-state.ts';

type ReadonlyPod = DeepReadonly<Pod>;

/** The pod's lifecycle state label, or '' when it has none. */
export function podLifecycleState(pod: ReadonlyPod): string {
  return pod.metadata?.labels?.[LIFECYCLE_STATE_LABEL] ?? '';
}

/** The pod waits for its preDelete hook. */
export function isPreparingDelete(pod: ReadonlyPod): boolean {
  return podLifecycleState(pod) === LifecycleState.PreparingDelete;
}

/**
 * OpenKruise's `IsPodUpdateReady`: Running, Ready for more than `minReadySeconds`, and not in the
 * middle of an in-place update (the InPlaceUpdateReady condition, when present, is True).
 */
export function isPodUpdateReady(pod: ReadonlyPod, options: AvailabilityOptions): boolean {
  if (pod.status?.phase !== 'Running' || !isPodAvailable(pod, options)) {
    return false;
  }
  const inPlace = conditionStatus(pod, IN_PLACE_UPDATE_READY);
  return inPlace === undefined || inPlace === 'True';
}

/**
 * Available as OpenKruise's workloads count it (`IsPodAvailable` of CloneSet, `isAvailable` of
 * Advanced StatefulSet): lifecycle state Normal (or none) and update-ready.
 */
export function isWorkloadPodAvailable(pod: ReadonlyPod, options: AvailabilityOptions): boolean {
  const state = podLifecycleState(pod);
  return (state === '' || state === LifecycleState.Normal) && isPodUpdateReady(pod, options);
}
