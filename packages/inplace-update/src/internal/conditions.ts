/**
 * The `InPlaceUpdateReady` readiness gate: False (reason StartInPlaceUpdate) while a pod is updated in
 * place, so that it leaves Service endpoints before its containers restart, and True again once the
 * update is done.
 *
 * `Ready` belongs to the kubelet. At the start it is set False in the same write (OpenKruise's
 * SetPodReadyCondition), so the pod leaves endpoints without waiting for the kubelet, with a message
 * the kubelet would not write: the kubelet re-syncs a pod whose Ready message differs from its own,
 * so its cached status turns False too (with the kubelet's exact message it would not, and its
 * periodic status reconcile could republish a stale True during a grace period). At the end only the
 * gate is written and the kubelet sets Ready True: a controller that sets Ready True leaves the
 * kubelet's cache at False, which the kubelet republishes within ten seconds (a Ready flap,
 * sgl-project/rbg#460).
 */
import type { Pod } from '@kruise-ts/api';
import { IN_PLACE_UPDATE_READY } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { controllerReadyFalse } from '@kruise-ts/workload';

import { timestampOf } from './go-encoding.ts';

type ReadonlyPod = DeepReadonly<Pod>;

/** A pod status condition. */
export type PodCondition = NonNullable<NonNullable<Pod['status']>['conditions']>[number];

/** The reason of InPlaceUpdateReady while the update runs. */
export const START_IN_PLACE_UPDATE_REASON = 'StartInPlaceUpdate';

/** Whether the pod has the InPlaceUpdateReady readiness gate; only such pods are taken out of service. */
export function hasInPlaceUpdateReadinessGate(pod: ReadonlyPod): boolean {
  return (pod.spec?.readinessGates ?? []).some((gate) => gate.conditionType === IN_PLACE_UPDATE_READY);
}

function conditionOf(
  conditions: readonly DeepReadonly<PodCondition>[],
  type: string,
): DeepReadonly<PodCondition> | undefined {
  return conditions.find((condition) => condition.type === type);
}

/** Ready False to write with `changed`, when it takes the pod out of service (see the file header). */
function readyFalse(pod: ReadonlyPod, changed: PodCondition, now: number): PodCondition | undefined {
  const conditions = [
    ...(pod.status?.conditions ?? []).filter((condition) => condition.type !== changed.type),
    changed,
  ];
  return controllerReadyFalse({
    readinessGates: pod.spec?.readinessGates ?? [],
    conditions,
    lastTransitionTime: timestampOf(now),
  });
}

/**
 * The conditions that take a pod out of service before its update: InPlaceUpdateReady False with
 * reason StartInPlaceUpdate (unless already False) and Ready False when ContainersReady is True. Empty
 * without the readiness gate or when nothing changes.
 */
export function startConditions(pod: ReadonlyPod, now: number): PodCondition[] {
  const current = conditionOf(pod.status?.conditions ?? [], IN_PLACE_UPDATE_READY);
  if (!hasInPlaceUpdateReadinessGate(pod) || current?.status === 'False') {
    return [];
  }
  const gate: PodCondition = {
    type: IN_PLACE_UPDATE_READY,
    status: 'False',
    reason: START_IN_PLACE_UPDATE_REASON,
    lastTransitionTime: timestampOf(now),
  };
  const ready = readyFalse(pod, gate, now);
  return ready === undefined ? [gate] : [gate, ready];
}

function isPlainTrue(condition: DeepReadonly<PodCondition> | undefined): boolean {
  return condition?.status === 'True' && (condition.reason ?? '') === '' && (condition.message ?? '') === '';
}

/**
 * The pod conditions that finish an in-place update: InPlaceUpdateReady True without reason and
 * message (unless it already is exactly that); the kubelet then sets Ready. Empty without the
 * readiness gate or when nothing changes. Pure.
 */
export function completionConditions(pod: ReadonlyPod, now: number): PodCondition[] {
  const current = conditionOf(pod.status?.conditions ?? [], IN_PLACE_UPDATE_READY);
  if (!hasInPlaceUpdateReadinessGate(pod) || isPlainTrue(current)) {
    return [];
  }
  // A True condition keeps its transition time; only reason and message go.
  const since = current?.status === 'True' ? current.lastTransitionTime : undefined;
  return [{ type: IN_PLACE_UPDATE_READY, status: 'True', lastTransitionTime: since ?? timestampOf(now) }];
}

/** A condition as a strategic-merge patch element: fields it does not have are deleted (`null`). */
export function conditionPatch(condition: PodCondition): Record<string, string | null> {
  return {
    type: condition.type,
    status: condition.status,
    reason: condition.reason ?? null,
    message: condition.message ?? null,
    lastTransitionTime: condition.lastTransitionTime ?? null,
  };
}
