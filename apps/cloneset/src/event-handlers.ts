import type { CloneSet, PersistentVolumeClaim, Pod } from '@kruise-ts/api';
import { APPS_KRUISE_IO_GROUP, CLONESET_KIND } from '@kruise-ts/api';
import { controllerRef, isEmptyLabelSelector, matchesLabelSelector, requestKey } from '@kruise-ts/controller-runtime';
import type { DeepReadonly, Informer, KubeObject, Lister, ResourceVersionExpectations, ScaleExpectations, WorkQueue } from '@kruise-ts/controller-runtime';

/** What the event handlers need: where to enqueue and which expectations to check off. */
export interface HandlerDeps {
  readonly queue: WorkQueue<string>;
  readonly cloneSets: Lister<CloneSet>;
  readonly scaleExpectations: ScaleExpectations;
  readonly resourceVersionExpectations: ResourceVersionExpectations;
}

/** The CloneSet key of an object's controller reference, when it is a CloneSet (any served version). */
function ownerKey(object: DeepReadonly<KubeObject>): string | undefined {
  const ref = controllerRef(object);
  if (ref?.kind !== CLONESET_KIND || ref.apiVersion.split('/')[0] !== APPS_KRUISE_IO_GROUP) {
    return undefined;
  }
  return requestKey({ namespace: object.metadata?.namespace ?? '', name: ref.name });
}

/** CloneSets in the pod's namespace whose (non-empty) selector matches it: candidates to adopt an orphan. */
function matchingCloneSets(deps: HandlerDeps, pod: DeepReadonly<Pod>): string[] {
  return deps.cloneSets
    .list({ namespace: pod.metadata?.namespace ?? '' })
    .filter((cs) => !isEmptyLabelSelector(cs.spec.selector) && matchesLabelSelector(cs.spec.selector, pod.metadata?.labels))
    .map((cs) => requestKey({ namespace: cs.metadata.namespace ?? '', name: cs.metadata.name ?? '' }));
}

function enqueueOwnerOrCandidates(deps: HandlerDeps, pod: DeepReadonly<Pod>): void {
  const owner = ownerKey(pod);
  for (const key of owner === undefined ? matchingCloneSets(deps, pod) : [owner]) {
    deps.queue.add(key);
  }
}

/**
 * Pod events (OpenKruise's pod event handler): a created pod checks off its owner's create
 * expectation, a deleted one the delete expectation and its resourceVersion expectation; any change
 * enqueues the owner, and when the controller reference changed, the previous owner too. Orphans
 * enqueue the CloneSets whose selector matches them. No event is filtered out: filters are
 * optimisations with a history of lost events (kruise#2473), so the reconcile decides.
 */
export function watchPods(informer: Informer<Pod>, deps: HandlerDeps): void {
  const deleted = (pod: DeepReadonly<Pod>): void => {
    const owner = ownerKey(pod);
    deps.resourceVersionExpectations.delete(pod);
    if (owner !== undefined) {
      deps.scaleExpectations.observe(owner, 'delete', pod.metadata?.name ?? '');
    }
    enqueueOwnerOrCandidates(deps, pod);
  };
  informer.addEventHandler({
    onAdd: (pod) => {
      const owner = ownerKey(pod);
      if (owner !== undefined) {
        deps.scaleExpectations.observe(owner, 'create', pod.metadata?.name ?? '');
      }
      enqueueOwnerOrCandidates(deps, pod);
    },
    onUpdate: (oldPod, newPod) => {
      // A graceful delete first sets deletionTimestamp; the pod leaves the cache only when the kubelet
      // is done with it. The pod stopped counting at the first moment (as in OpenKruise and the
      // ReplicaSet controller), so that is when its deletion is observed and its replacement may come.
      const owner = ownerKey(newPod);
      if (owner !== undefined && newPod.metadata?.deletionTimestamp !== undefined && oldPod.metadata?.deletionTimestamp === undefined) {
        deps.scaleExpectations.observe(owner, 'delete', newPod.metadata.name ?? '');
      }
      const oldOwner = ownerKey(oldPod);
      if (oldOwner !== undefined && oldOwner !== ownerKey(newPod)) {
        deps.queue.add(oldOwner);
      }
      enqueueOwnerOrCandidates(deps, newPod);
    },
    onDelete: deleted,
  });
}

/** PVC events: check off create/delete expectations of PVCs and enqueue the owner. */
export function watchClaims(informer: Informer<PersistentVolumeClaim>, deps: HandlerDeps): void {
  const observe = (pvc: DeepReadonly<PersistentVolumeClaim>, action: 'create' | 'delete'): void => {
    const owner = ownerKey(pvc);
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
      const owner = ownerKey(pvc);
      if (owner !== undefined && pvc.metadata?.deletionTimestamp !== undefined) {
        deps.queue.add(owner);
      }
    },
    onDelete: (pvc) => {
      observe(pvc, 'delete');
    },
  });
}
