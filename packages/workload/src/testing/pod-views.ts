/** Reading pods the way a user (or kubectl) would judge them, independent of any controller's code: shared by the apps' integration tests. */
import type { Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

type ReadonlyPod = DeepReadonly<Pod>;

export function conditionOf(
  pod: ReadonlyPod,
  type: string,
): { status: string; lastTransitionTime?: string | undefined } | undefined {
  return pod.status?.conditions?.find((c) => c.type === type);
}

/** Ready, not terminating, lifecycle Normal (or none) and not in an in-place update. */
export function isAvailableNow(pod: ReadonlyPod): boolean {
  return (
    pod.metadata?.deletionTimestamp === undefined &&
    pod.status?.phase === 'Running' &&
    conditionOf(pod, 'Ready')?.status === 'True' &&
    isSettled(pod)
  );
}

/** Lifecycle state Normal (or none) and no in-place update under way. */
function isSettled(pod: ReadonlyPod): boolean {
  const state = pod.metadata?.labels?.['lifecycle.apps.kruise.io/state'];
  const inPlace = conditionOf(pod, 'InPlaceUpdateReady');
  return (state === undefined || state === 'Normal') && (inPlace === undefined || inPlace.status === 'True');
}

export function isActive(pod: ReadonlyPod): boolean {
  return (
    pod.metadata?.deletionTimestamp === undefined && pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed'
  );
}

export function revisionOf(pod: ReadonlyPod): string {
  return pod.metadata?.labels?.['controller-revision-hash'] ?? '';
}

/** The first container's image (one argument, so it can be passed to `map`). */
export function imageOf(pod: ReadonlyPod): string {
  return pod.spec?.containers[0]?.image ?? '';
}

/** The first container's restart count. */
export function restartsOf(pod: ReadonlyPod): number {
  return pod.status?.containerStatuses?.[0]?.restartCount ?? 0;
}

export const nameOf = (pod: ReadonlyPod): string => pod.metadata?.name ?? '';
export const uidOf = (object: { readonly metadata?: { readonly uid?: string | undefined } | undefined }): string =>
  object.metadata?.uid ?? '';

/**
 * What a timed-out wait shows of each pod: enough to tell where a rollout stopped (its revision,
 * images against the containers' statuses, conditions, lifecycle and in-place update state).
 */
export function podSummary(pod: ReadonlyPod): Record<string, unknown> {
  const metadata = pod.metadata ?? {};
  return {
    name: metadata.name,
    resourceVersion: metadata.resourceVersion,
    deleting: metadata.deletionTimestamp !== undefined,
    revision: revisionOf(pod),
    lifecycle: metadata.labels?.['lifecycle.apps.kruise.io/state'],
    inPlace: metadata.annotations?.['apps.kruise.io/inplace-update-state'],
    ...podSpecAndStatus(pod),
  };
}

function podSpecAndStatus(pod: ReadonlyPod): Record<string, unknown> {
  return {
    // A pod bound to a node no simulated kubelet serves (another test's deleted node) never moves:
    // the node says so in a wait's timeout message.
    node: pod.spec?.nodeName,
    images: pod.spec?.containers.map((container) => container.image),
    statuses: pod.status?.containerStatuses?.map((status) => [status.name, status.image, status.restartCount]),
    conditions: pod.status?.conditions?.map((condition) => `${condition.type}=${condition.status}`),
  };
}
