/**
 * Advanced StatefulSet's pod health (OpenKruise's `isHealthy`, `isRunningAndAvailable`, `isCreated`,
 * `isFailed`): availability also waits for the lifecycle state to be Normal.
 */
import { LifecycleState } from '@kruise-ts/api';
import type { Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { isBeingDeleted, isPodAvailable, isPodReady, podAvailableInMs, podLifecycleState } from '@kruise-ts/workload';

type ReadonlyPod = DeepReadonly<Pod>;

function isLifecycleNormal(pod: ReadonlyPod): boolean {
  const state = podLifecycleState(pod);
  return state === '' || state === LifecycleState.Normal;
}

/** The pod has a phase (the kubelet or the scheduler has seen it). */
export function isCreated(pod: ReadonlyPod): boolean {
  return (pod.status?.phase ?? '') !== '';
}

/** The pod finished (Failed or Succeeded): it is deleted and created again. */
export function isFinished(pod: ReadonlyPod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Failed' || phase === 'Succeeded';
}

/** Running, Ready, lifecycle Normal (or none), not being deleted. */
export function isHealthy(pod: ReadonlyPod): boolean {
  return isLifecycleNormal(pod) && pod.status?.phase === 'Running' && isPodReady(pod) && !isBeingDeleted(pod);
}

/** Healthy and Ready for more than minReadySeconds. */
export function isAvailable(
  pod: ReadonlyPod,
  options: { readonly minReadySeconds: number; readonly now: number },
): boolean {
  return isLifecycleNormal(pod) && pod.status?.phase === 'Running' && isPodAvailable(pod, options);
}

/** Milliseconds until a Ready pod turns available by time alone; undefined when only a pod change can help. */
export function availableInMs(
  pod: ReadonlyPod,
  options: { readonly minReadySeconds: number; readonly now: number },
): number | undefined {
  return isLifecycleNormal(pod) && pod.status?.phase === 'Running' ? podAvailableInMs(pod, options) : undefined;
}
