/**
 * Reading a pod's lifecycle: its state label and whether a hook (labels and finalizers put there by
 * users' controllers) currently holds it. Mirrors OpenKruise's lifecycle_utils.go.
 */
import type { LifecycleHook, Pod } from '@kruise-ts/api';
import { LIFECYCLE_STATE_LABEL, LifecycleState } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { labelValue } from '@kruise-ts/workload';

type ReadonlyPod = DeepReadonly<Pod>;

/** A hook as read from a workload spec (possibly from a cache). */
export type Hook = DeepReadonly<LifecycleHook>;

const KNOWN_STATES: ReadonlySet<string> = new Set(Object.values(LifecycleState));

/** The raw value of the pod's `lifecycle.apps.kruise.io/state` label ('' when unset). */
export function rawLifecycleState(pod: ReadonlyPod): string {
  return labelValue(pod.metadata?.labels, LIFECYCLE_STATE_LABEL) ?? '';
}

/**
 * The pod's lifecycle state, or '' when the label is unset. A value that is not one of the six states
 * also reads as '' here; {@link isPodLifecycleNormal} and the transition decisions look at the raw
 * value and treat such a pod as OpenKruise does (not Normal, not updatable).
 */
export function lifecycleState(pod: ReadonlyPod): LifecycleState | '' {
  const raw = rawLifecycleState(pod);
  return KNOWN_STATES.has(raw) ? (raw as LifecycleState) : '';
}

/**
 * Whether the lifecycle lets the pod count as available: state unset or Normal (OpenKruise's
 * availability check; any other value, including an unrecognised one, does not).
 */
export function isPodLifecycleNormal(pod: ReadonlyPod): boolean {
  const raw = rawLifecycleState(pod);
  return raw === '' || raw === LifecycleState.Normal;
}

function hasFinalizer(pod: ReadonlyPod, finalizer: string): boolean {
  return (pod.metadata?.finalizers ?? []).includes(finalizer);
}

// Go's `pod.Labels[k] == v` reads a missing label as "": a handler label with an empty value
// therefore counts as present on pods without that label. Kept for compatibility.
function hasLabel(pod: ReadonlyPod, [key, value]: readonly [string, string]): boolean {
  return (labelValue(pod.metadata?.labels, key) ?? '') === value;
}

/**
 * Whether the hook holds the pod: any of its finalizers is on the pod, or any of its labels has the
 * given value. An undefined or empty hook holds nothing.
 */
export function isPodHooked(hook: Hook | undefined, pod: ReadonlyPod): boolean {
  if (hook === undefined) {
    return false;
  }
  return (
    (hook.finalizersHandler ?? []).some((finalizer) => hasFinalizer(pod, finalizer)) ||
    Object.entries(hook.labelsHandler ?? {}).some((entry) => hasLabel(pod, entry))
  );
}

/**
 * Whether every finalizer and label of the hook is on the pod. As in OpenKruise, an undefined hook
 * gives false while a defined hook without handlers gives true.
 */
export function isPodAllHooked(hook: Hook | undefined, pod: ReadonlyPod): boolean {
  if (hook === undefined) {
    return false;
  }
  return (
    (hook.finalizersHandler ?? []).every((finalizer) => hasFinalizer(pod, finalizer)) &&
    Object.entries(hook.labelsHandler ?? {}).every((entry) => hasLabel(pod, entry))
  );
}

/** Whether the hook asks to mark the pod not ready while it waits (false for an undefined hook). */
export function hookMarksPodNotReady(hook: Hook | undefined): boolean {
  return hook?.markPodNotReady === true;
}
