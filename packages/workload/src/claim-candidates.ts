/**
 * The objects a workload claims and the checks around claiming, the same for pods and revisions of
 * every workload kind: owned ones (by the controller-uid index) plus orphans matching the selector,
 * the fresh owner check before adopting, and whether the cache has caught up with our own writes.
 */
import { CONTROLLER_UID_INDEX, isNotFound, matchesLabelSelector, NO_CONTROLLER } from '@kruise-ts/controller-runtime';
import type { ControllerRevision, PersistentVolumeClaim, Pod } from '@kruise-ts/api';
import type { DeepReadonly, KubeObject, LabelSelector, Lister } from '@kruise-ts/controller-runtime';

import type { ResourceVersionExpectations } from './expectations/resource-version-expectations.ts';
import { isSameLiveOwner } from './claim.ts';
import type { ClaimOwner } from './claim.ts';
import { isBeingDeleted } from './pod-state.ts';

/** The caches a replicated workload (CloneSet, Advanced StatefulSet) reads its pods, claims and revisions from. */
export interface WorkloadReadCaches {
  readonly pods: Lister<Pod>;
  readonly pvcs: Lister<PersistentVolumeClaim>;
  readonly revisions: Lister<ControllerRevision>;
}

/** A workload object as it claims: its identity and whether it is being deleted. */
export function claimOwnerOf(object: {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: {
    readonly uid?: string | undefined;
    readonly name?: string | undefined;
    readonly namespace?: string | undefined;
    readonly deletionTimestamp?: string | undefined;
  };
}): ClaimOwner {
  const { metadata } = object;
  return {
    uid: metadata.uid ?? '',
    name: metadata.name ?? '',
    namespace: metadata.namespace ?? '',
    apiVersion: object.apiVersion,
    kind: object.kind,
    deleting: isBeingDeleted(object),
  };
}

/** Objects the owner controls plus orphans in its namespace whose labels match its selector. */
export function claimCandidates<T extends KubeObject>(
  cache: Lister<T>,
  owner: Pick<ClaimOwner, 'uid' | 'namespace'>,
  selector: DeepReadonly<LabelSelector>,
): DeepReadonly<T>[] {
  const owned = cache.byIndex(CONTROLLER_UID_INDEX, owner.uid);
  const orphans = cache
    .byIndex(CONTROLLER_UID_INDEX, NO_CONTROLLER)
    .filter(
      (object) =>
        object.metadata?.namespace === owner.namespace && matchesLabelSelector(selector, object.metadata.labels),
    );
  return [...owned, ...orphans];
}

/**
 * Confirms from a fresh read (not the cache) that the owner still exists with the same uid and is
 * not being deleted, before anything is adopted (a re-created owner must not adopt for its predecessor).
 */
export function freshOwnerCheck(read: () => Promise<DeepReadonly<KubeObject>>, uid: string): () => Promise<boolean> {
  return async () => {
    const fresh = await read().catch((error: unknown) => {
      if (isNotFound(error)) {
        return undefined;
      }
      throw error;
    });
    return fresh !== undefined && isSameLiveOwner(fresh, uid);
  };
}

/** The name of the first object whose cached copy is older than what this controller last wrote, if any. */
export function staleObject(
  expectations: ResourceVersionExpectations,
  objects: readonly DeepReadonly<KubeObject>[],
): string | undefined {
  return objects.find((object) => !expectations.isSatisfied(object))?.metadata?.name;
}
