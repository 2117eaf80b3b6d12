/**
 * Which pods a rolling update touches this reconcile (OpenKruise's A.6.7–A.6.8), decided without
 * I/O: pods labelled for deletion (`apps.kruise.io/specified-delete`, partition ignored) and the
 * next pods in update order, while fewer than `maxUnavailable` pods are unavailable. The order is
 * strict: the first target that would exceed the budget ends the round.
 */
import { SPECIFIED_DELETE_LABEL } from '@kruise-ts/api';
import type { Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { isPodAtRevision } from '@kruise-ts/revision';
import { isBeingDeleted } from '@kruise-ts/workload';

import { availableInMs, isAvailable, isHealthy } from '../pod-health.ts';
import { podsToUpdate } from './update-order.ts';
import type { UpdateOrderStrategy } from './update-order.ts';

type ReadonlyPod = DeepReadonly<Pod>;

/** What the planner reads. */
export interface RollingUpdatePlanInput {
  readonly strategy: UpdateOrderStrategy;
  readonly replicas: number;
  /** `rollingUpdate.maxUnavailable` resolved (round down, at least 1). */
  readonly maxUnavailable: number;
  readonly updateRevision: string;
  readonly minReadySeconds: number;
  readonly now: number;
  /** Slot `i` is ordinal `start + i`; undefined for reserved or missing pods. */
  readonly slots: readonly (ReadonlyPod | undefined)[];
  /** Whether the pod's in-place update (if any) is complete. */
  readonly inPlaceCompleted: (pod: ReadonlyPod) => boolean;
  /**
   * With claims that follow the template (volumeClaimUpdateStrategy OnPodRollingUpdate): whether the
   * pod's claims match the template (else the pod is a target even at the update revision) and have
   * their requested capacity (else it is unavailable). Absent: claims play no part.
   */
  readonly claims?: { readonly matched: (pod: ReadonlyPod) => boolean; readonly ready: (pod: ReadonlyPod) => boolean };
}

/** The decision. */
export interface RollingUpdatePlan {
  /** Pods labelled specified-delete to delete now (through the preDelete hook). */
  readonly specifiedDeletes: readonly ReadonlyPod[];
  /** Pods to move to the update revision now, in order (in place, or by recreation). */
  readonly updates: readonly ReadonlyPod[];
  /** Pods unavailable after this round's decisions. */
  readonly unavailable: number;
  readonly requeueMs?: number;
}

function isSpecifiedDelete(pod: ReadonlyPod): boolean {
  return Object.hasOwn(pod.metadata?.labels ?? {}, SPECIFIED_DELETE_LABEL);
}

/** Unhealthy, in-place update incomplete, not yet available by minReadySeconds, or claims short of their capacity. */
function isUnavailable(input: RollingUpdatePlanInput, pod: ReadonlyPod): boolean {
  const options = { minReadySeconds: input.minReadySeconds, now: input.now };
  return (
    !isHealthy(pod) || !input.inPlaceCompleted(pod) || !isAvailable(pod, options) || input.claims?.ready(pod) === false
  );
}

/** The pods counted unavailable before anything happens, and the shortest minReadySeconds wait. */
function unavailablePods(input: RollingUpdatePlanInput): {
  readonly pods: Set<ReadonlyPod>;
  readonly requeueMs?: number;
} {
  const options = { minReadySeconds: input.minReadySeconds, now: input.now };
  const pods = new Set<ReadonlyPod>();
  let requeueMs: number | undefined;
  for (const pod of input.slots) {
    if (pod === undefined) {
      continue;
    }
    if (isUnavailable(input, pod)) {
      pods.add(pod);
      const wait = availableInMs(pod, options);
      if (wait !== undefined && wait > 0) {
        requeueMs = Math.min(requeueMs ?? wait, wait);
      }
    }
  }
  return { pods, ...(requeueMs === undefined ? {} : { requeueMs }) };
}

/** Pods labelled for deletion, highest ordinal first, while the budget allows (partition ignored). */
function specifiedDeletes(input: RollingUpdatePlanInput, unavailable: Set<ReadonlyPod>): ReadonlyPod[] {
  const chosen: ReadonlyPod[] = [];
  for (const pod of [...input.slots].reverse()) {
    if (pod === undefined || !isSpecifiedDelete(pod) || isBeingDeleted(pod)) {
      continue;
    }
    // Skip (not stop): a later pod that is unavailable anyway may still go.
    if (unavailable.size >= input.maxUnavailable && !unavailable.has(pod)) {
      continue;
    }
    chosen.push(pod);
    unavailable.add(pod);
  }
  return chosen;
}

/** The next pods in update order while the budget allows; the first that would exceed it ends the round. */
function podsToMove(
  input: RollingUpdatePlanInput,
  unavailable: Set<ReadonlyPod>,
  deleting: readonly ReadonlyPod[],
): ReadonlyPod[] {
  const chosen: ReadonlyPod[] = [];
  const targets = podsToUpdate({
    strategy: input.strategy,
    replicas: input.replicas,
    updateRevision: input.updateRevision,
    slots: input.slots,
  }).flatMap((index) => input.slots[index] ?? []);
  const done = (target: ReadonlyPod): boolean =>
    isPodAtRevision(target, input.updateRevision) && input.claims?.matched(target) !== false;
  for (const pod of targets.filter((target) => !done(target))) {
    if (unavailable.size >= input.maxUnavailable && !unavailable.has(pod)) {
      break;
    }
    if (!deleting.includes(pod) && !isBeingDeleted(pod)) {
      chosen.push(pod);
    }
    unavailable.add(pod);
  }
  return chosen;
}

/** The rolling update's decision of one reconcile. */
export function planRollingUpdate(input: RollingUpdatePlanInput): RollingUpdatePlan {
  const counted = unavailablePods(input);
  const unavailable = counted.pods;
  const deletes = specifiedDeletes(input, unavailable);
  const updates = podsToMove(input, unavailable, deletes);
  return {
    specifiedDeletes: deletes,
    updates,
    unavailable: unavailable.size,
    ...(counted.requeueMs === undefined ? {} : { requeueMs: counted.requeueMs }),
  };
}
