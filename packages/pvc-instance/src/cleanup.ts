/**
 * Cleanup of claims when a workload disables PVC reuse (OpenKruise's `cleanupPVCs`): claims of active
 * pods stay; claims of inactive (terminating, failed, succeeded) pods are handed to those pods, so the
 * garbage collector removes them with the pod; all others are deleted.
 */
import type { OwnerReference, PersistentVolumeClaim, Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

import { instanceIdOf } from './instance-id.ts';

type ReadonlyClaim = DeepReadonly<PersistentVolumeClaim>;
type ReadonlyPod = DeepReadonly<Pod>;

/** Options of {@link planPvcCleanup}. */
export interface PlanPvcCleanupOptions {
  /** The owner's claims (not being deleted). */
  readonly pvcs: readonly ReadonlyClaim[];
  readonly activePods: readonly ReadonlyPod[];
  readonly inactivePods: readonly ReadonlyPod[];
}

/** What {@link planPvcCleanup} decided. */
export interface PvcCleanupPlan {
  /** Claims of active pods: the only ones the rest of the reconcile should see. */
  readonly keep: readonly ReadonlyClaim[];
  /** Claims of inactive pods: replace the owner's reference by a controller reference to `pod`. */
  readonly handOver: readonly { readonly pvc: ReadonlyClaim; readonly pod: ReadonlyPod }[];
  /** Claims of no pod at all: delete. */
  readonly remove: readonly ReadonlyClaim[];
}

/** Options of {@link handOverOwnerReferences}. */
export interface HandOverOptions {
  readonly pvc: ReadonlyClaim;
  /** The uid of the workload whose reference is removed. */
  readonly ownerUid: string;
  readonly pod: ReadonlyPod;
}

/**
 * Sorts claims by the instance id they carry: an active pod's ⇒ keep; an inactive pod's ⇒ hand
 * over; otherwise (including claims without an id) ⇒ remove. When an id belongs to both an active
 * and an inactive pod, the active one wins.
 */
export function planPvcCleanup(options: PlanPvcCleanupOptions): PvcCleanupPlan {
  const active = new Set(options.activePods.flatMap((pod) => instanceIdOf(pod) ?? []));
  const inactive = new Map(
    options.inactivePods.flatMap((pod) => (instanceIdOf(pod) === undefined ? [] : [[instanceIdOf(pod), pod] as const])),
  );
  const keep: ReadonlyClaim[] = [];
  const handOver: { pvc: ReadonlyClaim; pod: ReadonlyPod }[] = [];
  const remove: ReadonlyClaim[] = [];
  for (const pvc of options.pvcs) {
    const id = instanceIdOf(pvc);
    const pod = id === undefined ? undefined : inactive.get(id);
    if (id !== undefined && active.has(id)) {
      keep.push(pvc);
    } else if (pod === undefined) {
      remove.push(pvc);
    } else {
      handOver.push({ pvc, pod });
    }
  }
  return { keep, handOver, remove };
}

/** A controller reference to a pod (apiVersion v1, kind Pod, controller and blockOwnerDeletion true). */
export function podControllerRef(pod: ReadonlyPod): OwnerReference {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    name: pod.metadata?.name ?? '',
    uid: pod.metadata?.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

/**
 * The claim's ownerReferences after a hand-over: the workload's reference removed and a controller
 * reference to the pod added (unless the pod is already an owner), other references kept.
 */
export function handOverOwnerReferences(options: HandOverOptions): OwnerReference[] {
  const podUid = options.pod.metadata?.uid ?? '';
  const kept = (options.pvc.metadata?.ownerReferences ?? [])
    .filter((ref) => ref.uid !== options.ownerUid)
    .map((ref) => ({ ...ref }));
  return kept.some((ref) => ref.uid === podUid) ? kept : [...kept, podControllerRef(options.pod)];
}
