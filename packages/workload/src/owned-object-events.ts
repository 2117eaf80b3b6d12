/**
 * Event handlers of a workload controller's pods and PVCs, the same for every workload kind: check
 * off scale expectations and enqueue the owner (or, for an orphan pod, every owner whose selector
 * matches it, a candidate to adopt it).
 */
import type { LabelSelector, PersistentVolumeClaim, Pod } from '@kruise-ts/api';
import { controllerRef, isEmptyLabelSelector, matchesLabelSelector, requestKey } from '@kruise-ts/controller-runtime';
import type { DeepReadonly, Informer, KubeObject, Lister, WorkQueue } from '@kruise-ts/controller-runtime';

import type { ResourceVersionExpectations } from './expectations/resource-version-expectations.ts';
import type { ScaleExpectations } from './expectations/scale-expectations.ts';

/** A workload that owns pods: all the handlers read of it. */
export interface SelectingOwner {
  readonly metadata: { readonly name?: string | undefined; readonly namespace?: string | undefined };
  readonly spec: { readonly selector: LabelSelector };
}

/** What the handlers need: the owner kind, where to enqueue, and which expectations to check off. */
export interface OwnedObjectHandlerDeps {
  /** The owner's API group and kind (any served version matches). */
  readonly owner: { readonly group: string; readonly kind: string };
  readonly queue: WorkQueue<string>;
  readonly owners: Lister<SelectingOwner>;
  readonly scaleExpectations: ScaleExpectations;
  readonly resourceVersionExpectations: ResourceVersionExpectations;
}

/** The owner key of an object's controller reference, when it is of the owner kind. */
export function ownerKeyOf(
  owner: OwnedObjectHandlerDeps['owner'],
  object: DeepReadonly<KubeObject>,
): string | undefined {
  const ref = controllerRef(object);
  if (ref?.kind !== owner.kind || ref.apiVersion.split('/')[0] !== owner.group) {
    return undefined;
  }
  return requestKey({ namespace: object.metadata?.namespace ?? '', name: ref.name });
}

/** Owners in the object's namespace whose (non-empty) selector matches it: candidates to adopt an orphan. */
function matchingOwners(owners: Lister<SelectingOwner>, object: DeepReadonly<KubeObject>): string[] {
  return owners
    .list({ namespace: object.metadata?.namespace ?? '' })
    .filter(
      (owner) =>
        !isEmptyLabelSelector(owner.spec.selector) &&
        matchesLabelSelector(owner.spec.selector, object.metadata?.labels),
    )
    .map((owner) => requestKey({ namespace: owner.metadata.namespace ?? '', name: owner.metadata.name ?? '' }));
}

/**
 * The key of the one owner whose selector matches an orphan, or undefined for none or several: the
 * workload a sharded app labels the orphan for (the bucket labeller's `orphanOwner`), so that the
 * replica holding it sees the orphan and adopts it. Several candidates race for it unsharded too;
 * sharded, it is left alone.
 */
export function soleSelectingOwner(
  owners: Lister<SelectingOwner>,
): (object: DeepReadonly<KubeObject>) => string | undefined {
  return (object) => {
    const candidates = matchingOwners(owners, object);
    return candidates.length === 1 ? candidates[0] : undefined;
  };
}

function enqueueOwnerOrCandidates(deps: OwnedObjectHandlerDeps, pod: DeepReadonly<Pod>): void {
  const owner = ownerKeyOf(deps.owner, pod);
  for (const key of owner === undefined ? matchingOwners(deps.owners, pod) : [owner]) {
    deps.queue.add(key);
  }
}

/**
 * Pod events (OpenKruise's pod event handler): a created pod checks off its owner's create
 * expectation, a changed one its resourceVersion expectation once at the version we wrote, a deleted
 * one the delete expectation and its resourceVersion expectation; any change
 * enqueues the owner, and when the controller reference changed, the previous owner too. Orphans
 * enqueue the owners whose selector matches them. No event is filtered out: filters are
 * optimisations with a history of lost events (kruise#2473), so the reconcile decides.
 */
export function watchOwnedPods(informer: Informer<Pod>, deps: OwnedObjectHandlerDeps): void {
  informer.addEventHandler({
    onAdd: (pod) => {
      const owner = ownerKeyOf(deps.owner, pod);
      if (owner !== undefined) {
        deps.scaleExpectations.observe(owner, 'create', pod.metadata?.name ?? '');
      }
      enqueueOwnerOrCandidates(deps, pod);
    },
    onUpdate: (oldPod, newPod) => {
      // Settled as soon as the cache shows our write, not at the next check: what the expectation
      // gauges show is then what really waits.
      deps.resourceVersionExpectations.observe(newPod);
      // A graceful delete first sets deletionTimestamp; the pod leaves the cache only when the kubelet
      // is done with it. The pod stopped counting at the first moment (as in OpenKruise and the
      // ReplicaSet controller), so that is when its deletion is observed and its replacement may come.
      const owner = ownerKeyOf(deps.owner, newPod);
      if (
        owner !== undefined &&
        newPod.metadata?.deletionTimestamp !== undefined &&
        oldPod.metadata?.deletionTimestamp === undefined
      ) {
        deps.scaleExpectations.observe(owner, 'delete', newPod.metadata.name ?? '');
      }
      const oldOwner = ownerKeyOf(deps.owner, oldPod);
      if (oldOwner !== undefined && oldOwner !== ownerKeyOf(deps.owner, newPod)) {
        deps.queue.add(oldOwner);
      }
      enqueueOwnerOrCandidates(deps, newPod);
    },
    onDelete: (pod) => {
      const owner = ownerKeyOf(deps.owner, pod);
      deps.resourceVersionExpectations.delete(pod);
      if (owner !== undefined) {
        deps.scaleExpectations.observe(owner, 'delete', pod.metadata?.name ?? '');
      }
      enqueueOwnerOrCandidates(deps, pod);
    },
  });
}

/**
 * PVC events: check off create/delete expectations of PVCs and enqueue the owner. `ownerOf` finds
 * the owner of a PVC that has no controller reference of the owner kind (Advanced StatefulSet's
 * claims are owned by the set, by a pod, or by nothing, as the retention policy says).
 */
export function watchOwnedClaims(
  informer: Informer<PersistentVolumeClaim>,
  deps: OwnedObjectHandlerDeps,
  ownerOf?: (pvc: DeepReadonly<PersistentVolumeClaim>) => string | undefined,
): void {
  const keyOf = (pvc: DeepReadonly<PersistentVolumeClaim>): string | undefined =>
    ownerKeyOf(deps.owner, pvc) ?? ownerOf?.(pvc);
  const observe = (pvc: DeepReadonly<PersistentVolumeClaim>, action: 'create' | 'delete'): void => {
    const owner = keyOf(pvc);
    if (owner !== undefined) {
      deps.scaleExpectations.observe(owner, action, pvc.metadata?.name ?? '');
      deps.queue.add(owner);
    }
  };
  informer.addEventHandler({
    onAdd: (pvc) => {
      observe(pvc, 'create');
    },
    onUpdate: (_old, pvc) => {
      const owner = keyOf(pvc);
      if (owner !== undefined && pvc.metadata?.deletionTimestamp !== undefined) {
        deps.queue.add(owner);
      }
    },
    onDelete: (pvc) => {
      observe(pvc, 'delete');
    },
  });
}
