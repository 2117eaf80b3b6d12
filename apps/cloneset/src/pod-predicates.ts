import { IN_PLACE_UPDATE_READY, LIFECYCLE_STATE_LABEL, LifecycleState, SPECIFIED_DELETE_LABEL } from '@kruise-ts/api';
import type { CloneSet, Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

type ReadonlyPod = DeepReadonly<Pod>;

function condition(pod: ReadonlyPod, type: string): DeepReadonly<NonNullable<NonNullable<Pod['status']>['conditions']>[number]> | undefined {
  return pod.status?.conditions?.find((c) => c.type === type);
}

/** The pod's lifecycle state label, or '' when it has none. */
export function podLifecycleState(pod: ReadonlyPod): string {
  return pod.metadata?.labels?.[LIFECYCLE_STATE_LABEL] ?? '';
}

/**
 * OpenKruise's `IsPodUpdateReady`: Running, Ready for at least `minReadySeconds`, and not in the
 * middle of an in-place update (the InPlaceUpdateReady condition, when present, is True).
 */
export function isPodUpdateReady(pod: ReadonlyPod, options: { minReadySeconds: number; now: number }): boolean {
  if (pod.status?.phase !== 'Running') {
    return false;
  }
  const ready = condition(pod, 'Ready');
  if (ready?.status !== 'True') {
    return false;
  }
  if (options.minReadySeconds > 0) {
    const since = ready.lastTransitionTime === undefined ? Number.NaN : Date.parse(ready.lastTransitionTime);
    if (!(since + options.minReadySeconds * 1000 < options.now)) {
      return false;
    }
  }
  const inPlace = condition(pod, IN_PLACE_UPDATE_READY);
  return inPlace === undefined || inPlace.status === 'True';
}

/** OpenKruise's `IsPodAvailable` for CloneSet: lifecycle state Normal (or none) and update-ready. */
export function isPodAvailable(pod: ReadonlyPod, options: { minReadySeconds: number; now: number }): boolean {
  const state = podLifecycleState(pod);
  return (state === '' || state === LifecycleState.Normal) && isPodUpdateReady(pod, options);
}

/** The pod carries the specified-delete label (any value) or is named in `scaleStrategy.podsToDelete`. */
export function isSpecifiedDelete(cs: DeepReadonly<CloneSet>, pod: ReadonlyPod): boolean {
  const labels = pod.metadata?.labels ?? {};
  if (Object.hasOwn(labels, SPECIFIED_DELETE_LABEL)) {
    return true;
  }
  return cs.spec.scaleStrategy?.podsToDelete?.includes(pod.metadata?.name ?? '') ?? false;
}

/** The pod waits for its preDelete hook. */
export function isPreparingDelete(pod: ReadonlyPod): boolean {
  return podLifecycleState(pod) === LifecycleState.PreparingDelete;
}
