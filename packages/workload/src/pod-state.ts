/**
 * Pod state predicates shared by the workload controllers: Kubernetes' podutil and controller_utils
 * definitions (active, ready, available) plus OpenKruise's scheduled and running-and-ready.
 */
import type { Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

import { parseTimestamp } from './time.ts';

type ReadonlyPod = DeepReadonly<Pod>;

/** The pod condition type `Ready`. */
export const POD_READY_CONDITION = 'Ready';

/** Options of {@link isPodAvailable} and {@link podAvailableInMs}. */
export interface AvailabilityOptions {
  /** Seconds a pod must have been Ready to count as available; 0 means "as soon as Ready". */
  readonly minReadySeconds: number;
  /** The current time in ms since the epoch (`Date.now()`), injected so that decisions are testable. */
  readonly now: number;
}

/**
 * The status of the pod's first condition of `type` (`'True'`, `'False'`, `'Unknown'`, or whatever a
 * writer put there), undefined when the pod has no such condition.
 */
export function conditionStatus(pod: ReadonlyPod, type: string): string | undefined {
  return pod.status?.conditions?.find((condition) => condition.type === type)?.status;
}

/**
 * Whether the pod still counts: not Succeeded or Failed and not being deleted (Kubernetes'
 * `IsPodActive`). Inactive pods are neither counted nor deleted by the controllers.
 */
export function isPodActive(pod: ReadonlyPod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && !isBeingDeleted(pod);
}

/** Whether the pod has a node (`spec.nodeName` set), as OpenKruise's `HasPodScheduled` decides. */
export function isPodScheduled(pod: ReadonlyPod): boolean {
  return (pod.spec?.nodeName ?? '') !== '';
}

/** Whether the pod's Ready condition is True (Kubernetes' `IsPodReady`). */
export function isPodReady(pod: ReadonlyPod): boolean {
  return conditionStatus(pod, POD_READY_CONDITION) === 'True';
}

/**
 * Since when the pod has been Ready: the lastTransitionTime (ms) of its Ready condition while that
 * condition is True; undefined when the pod is not Ready or the time is missing (Go's zero time).
 */
export function podReadySince(pod: ReadonlyPod): number | undefined {
  const ready = pod.status?.conditions?.find((condition) => condition.type === POD_READY_CONDITION);
  return ready?.status === 'True' ? parseTimestamp(ready.lastTransitionTime) : undefined;
}

/**
 * Whether the pod is Running, Ready and not being deleted (OpenKruise's `IsRunningAndReady`; the
 * deletion check keeps terminating pods out of "ready" counts).
 */
export function isPodRunningAndReady(pod: ReadonlyPod): boolean {
  return pod.status?.phase === 'Running' && isPodReady(pod) && !isBeingDeleted(pod);
}

/**
 * Whether the pod is available: Ready, and Ready for more than `minReadySeconds` (Kubernetes'
 * `IsPodAvailable`, which compares strictly: readySince + minReadySeconds < now). With
 * minReadySeconds 0 a Ready pod is available at once; with a positive value a Ready pod whose
 * transition time is unknown never is.
 */
export function isPodAvailable(pod: ReadonlyPod, options: AvailabilityOptions): boolean {
  if (!isPodReady(pod)) {
    return false;
  }
  if (options.minReadySeconds <= 0) {
    return true;
  }
  const since = podReadySince(pod);
  return since !== undefined && since + options.minReadySeconds * 1000 < options.now;
}

/**
 * Milliseconds until a Ready pod becomes available by time alone, for `requeueAfter`: 0 when it
 * already is, undefined when it is not Ready (only a pod change can help then). Example: Ready since
 * 10:00:00, minReadySeconds 30, now 10:00:20 ⇒ 10,001 ms (availability needs strictly more than 30 s).
 */
export function podAvailableInMs(pod: ReadonlyPod, options: AvailabilityOptions): number | undefined {
  if (isPodAvailable(pod, options)) {
    return 0;
  }
  const since = podReadySince(pod);
  if (since === undefined) {
    return undefined;
  }
  return since + options.minReadySeconds * 1000 - options.now + 1;
}

/** Whether the pod carries a deletionTimestamp. */
export function isBeingDeleted(object: {
  readonly metadata?: { readonly deletionTimestamp?: string | undefined } | undefined;
}): boolean {
  const timestamp = object.metadata?.deletionTimestamp;
  return timestamp !== undefined && timestamp !== '';
}
