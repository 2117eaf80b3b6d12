import type { CloneSet, ControllerRevision, PersistentVolumeClaim, Pod } from '@kruise-ts/api';
import { CONTROLLER_UID_INDEX, controllerRef, isNotFound, keyOf, matchesLabelSelector, NO_CONTROLLER, objectReference } from '@kruise-ts/controller-runtime';
import type { DeepReadonly, Lister } from '@kruise-ts/controller-runtime';
import { templateFromRevision } from '@kruise-ts/revision';
import { claimObjects, isBeingDeleted, isPodActive, isSameLiveOwner, newControllerRef } from '@kruise-ts/workload';
import type { ClaimOwner } from '@kruise-ts/workload';

import { cloneSetKey, cloneSetResource } from './cloneset-resource.ts';
import { cleanupClaims } from './pvc-cleanup.ts';
import { activeRevisions } from './revisions.ts';
import type { ActiveRevisions } from './revisions.ts';
import { resolveStrategy } from './strategy-values.ts';
import type { SyncContext, SyncState } from './sync/sync-context.ts';

/** The caches the read phase takes its objects from. */
export interface ReadCaches {
  readonly pods: Lister<Pod>;
  readonly pvcs: Lister<PersistentVolumeClaim>;
  readonly revisions: Lister<ControllerRevision>;
}

/** The state of one CloneSet, or why the reconcile must wait. */
export type ReadResult =
  | { readonly kind: 'ready'; readonly state: SyncState; readonly revisions: ActiveRevisions; readonly inactivePods: readonly DeepReadonly<Pod>[] }
  | { readonly kind: 'waiting'; readonly reason: string };

function owner(cs: DeepReadonly<CloneSet>): ClaimOwner {
  return { uid: cs.metadata.uid ?? '', name: cs.metadata.name ?? '', namespace: cs.metadata.namespace ?? '', apiVersion: cs.apiVersion, kind: cs.kind, deleting: isBeingDeleted(cs) };
}

/**
 * Confirms from a fresh read (not the cache) that the CloneSet still exists with the same uid and is
 * not being deleted, before anything is adopted (a re-created CloneSet must not adopt for its predecessor).
 */
function canAdopt(ctx: Pick<SyncContext, 'cloneSets'>, cs: DeepReadonly<CloneSet>): () => Promise<boolean> {
  return async () => {
    const fresh = await ctx.cloneSets.get(keyOf(cs)).catch((error: unknown) => {
      if (isNotFound(error)) {
        return undefined;
      }
      throw error;
    });
    return fresh !== undefined && isSameLiveOwner(fresh, cs.metadata.uid ?? '');
  };
}

/**
 * The pods to claim: those already owned (by the uid index) and orphans whose labels match the
 * selector (the pod cache holds only pods with a CloneSet instance id, so orphans here are pods a
 * CloneSet made, for example before its owner was deleted with orphaning).
 */
function candidatePods(caches: ReadCaches, cs: DeepReadonly<CloneSet>): DeepReadonly<Pod>[] {
  const owned = caches.pods.byIndex(CONTROLLER_UID_INDEX, cs.metadata.uid ?? '');
  const namespace = cs.metadata.namespace ?? '';
  const orphans = caches.pods
    .byIndex(CONTROLLER_UID_INDEX, NO_CONTROLLER)
    .filter((pod) => pod.metadata?.namespace === namespace && matchesLabelSelector(cs.spec.selector, pod.metadata.labels));
  return [...owned, ...orphans];
}

function claim(ctx: Pick<SyncContext, 'pods' | 'cloneSets'>, cs: DeepReadonly<CloneSet>, pods: readonly DeepReadonly<Pod>[]): Promise<DeepReadonly<Pod>[]> {
  return claimObjects({
    owner: owner(cs),
    selector: cs.spec.selector,
    objects: pods,
    kind: 'pod',
    patch: (pod, patch) => ctx.pods.patch(keyOf(pod), patch),
    canAdopt: canAdopt(ctx, cs),
  });
}

/** The first object whose cached copy is older than what this controller last wrote, if any. */
function staleObject(ctx: Pick<SyncContext, 'resourceVersionExpectations'>, objects: readonly DeepReadonly<{ metadata?: { uid?: string; resourceVersion?: string; name?: string } }>[]): string | undefined {
  return objects.find((object) => !ctx.resourceVersionExpectations.isSatisfied(object as { metadata?: { uid?: string; resourceVersion?: string } }))?.metadata?.name;
}

/**
 * Reads everything one reconcile needs, OpenKruise's `doReconcile` steps 4–8: the current and update
 * revisions (first: a template that cannot be decoded stops the reconcile before any other write),
 * owned PVCs (cleaned up first when reuse is disabled), claimed active pods, and checks that the
 * cache has caught up with our own last writes to them.
 */
export async function readState(ctx: SyncContext, caches: ReadCaches, cs: DeepReadonly<CloneSet>): Promise<ReadResult> {
  const revisions = await activeRevisions({ store: ctx.revisions, revisions: caches.revisions, cs, owner: owner(cs), canAdopt: canAdopt(ctx, cs) });
  const candidates = candidatePods(caches, cs);
  const active = candidates.filter(isPodActive);
  const inactive = candidates.filter((pod) => !isPodActive(pod) && controllerRef(pod)?.uid === cs.metadata.uid);
  const key = cloneSetKey(cs);
  const ref = objectReference(cloneSetResource, cs);
  let pvcs: readonly DeepReadonly<PersistentVolumeClaim>[] = caches.pvcs.byIndex(CONTROLLER_UID_INDEX, cs.metadata.uid ?? '').filter((pvc) => !isBeingDeleted(pvc));
  if (cs.spec.scaleStrategy?.disablePVCReuse === true) {
    pvcs = await cleanupClaims(ctx, { key, ref, ownerUid: cs.metadata.uid ?? '', pvcs, activePods: active, inactivePods: inactive });
  }
  const pods = await claim(ctx, cs, active);
  const stale = staleObject(ctx, [revisions.updateRevision, ...pods]);
  if (stale !== undefined) {
    return { kind: 'waiting', reason: `the cache has not caught up with our last write to ${stale}` };
  }
  const state: SyncState = {
    cs,
    key,
    ref,
    controllerRef: newControllerRef(owner(cs)),
    strategy: resolveStrategy(cs),
    pods,
    pvcs,
    currentRevision: revisions.currentRevision,
    updateRevision: revisions.updateRevision,
    revisions: revisions.revisions,
    currentTemplate: templateFromRevision(revisions.currentRevision),
    updateTemplate: templateFromRevision(revisions.updateRevision),
  };
  return { kind: 'ready', state, revisions, inactivePods: inactive };
}
