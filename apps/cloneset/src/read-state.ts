import type { CloneSet, PersistentVolumeClaim, Pod } from '@kruise-ts/api';
import { CONTROLLER_UID_INDEX, controllerRef, keyOf, objectReference } from '@kruise-ts/controller-runtime';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { templateFromRevision } from '@kruise-ts/revision';
import {
  claimCandidates,
  claimObjects,
  claimOwnerOf,
  freshOwnerCheck,
  isBeingDeleted,
  isPodActive,
  newControllerRef,
  staleObject,
} from '@kruise-ts/workload';
import type { WorkloadReadCaches } from '@kruise-ts/workload';

import { cloneSetKey, cloneSetResource } from './cloneset-resource.ts';
import { cleanupClaims } from './pvc-cleanup.ts';
import { activeRevisions } from './revisions.ts';
import type { ActiveRevisions } from './revisions.ts';
import { resolveStrategy } from './strategy-values.ts';
import type { SyncContext, SyncState } from './sync/sync-context.ts';

/** The caches the read phase takes its objects from. */
export type ReadCaches = WorkloadReadCaches;

/** The state of one CloneSet, or why the reconcile must wait. */
export type ReadResult =
  | {
      readonly kind: 'ready';
      readonly state: SyncState;
      readonly revisions: ActiveRevisions;
      readonly inactivePods: readonly DeepReadonly<Pod>[];
    }
  | { readonly kind: 'waiting'; readonly reason: string };

function claim(
  ctx: Pick<SyncContext, 'pods'>,
  input: { cs: DeepReadonly<CloneSet>; canAdopt: () => Promise<boolean> },
  pods: readonly DeepReadonly<Pod>[],
): Promise<DeepReadonly<Pod>[]> {
  const { cs } = input;
  return claimObjects({
    owner: claimOwnerOf(cs),
    selector: cs.spec.selector,
    objects: pods,
    kind: 'pod',
    patch: (pod, patch) => ctx.pods.patch(keyOf(pod), patch),
    canAdopt: input.canAdopt,
  });
}

/**
 * Reads everything one reconcile needs, OpenKruise's `doReconcile` steps 4–8: the current and update
 * revisions (first: a template that cannot be decoded stops the reconcile before any other write),
 * owned PVCs (cleaned up first when reuse is disabled), claimed active pods, and checks that the
 * cache has caught up with our own last writes to them.
 */
export async function readState(ctx: SyncContext, caches: ReadCaches, cs: DeepReadonly<CloneSet>): Promise<ReadResult> {
  const owner = claimOwnerOf(cs);
  // The pod cache holds only pods with a CloneSet instance id, so orphans here are pods a CloneSet
  // made, for example before its owner was deleted with orphaning.
  const canAdopt = freshOwnerCheck(() => ctx.cloneSets.get(keyOf(cs)), owner.uid);
  const revisions = await activeRevisions({ store: ctx.revisions, revisions: caches.revisions, cs, owner, canAdopt });
  const candidates = claimCandidates(caches.pods, owner, cs.spec.selector);
  const active = candidates.filter(isPodActive);
  const inactive = candidates.filter((pod) => !isPodActive(pod) && controllerRef(pod)?.uid === cs.metadata.uid);
  const key = cloneSetKey(cs);
  const ref = objectReference(cloneSetResource, cs);
  const podOwner = { key, ref, name: cs.metadata.name ?? '', lifecycle: cs.spec.lifecycle };
  let pvcs: readonly DeepReadonly<PersistentVolumeClaim>[] = caches.pvcs
    .byIndex(CONTROLLER_UID_INDEX, cs.metadata.uid ?? '')
    .filter((pvc) => !isBeingDeleted(pvc));
  if (cs.spec.scaleStrategy?.disablePVCReuse === true) {
    pvcs = await cleanupClaims(ctx, {
      owner: podOwner,
      ownerUid: cs.metadata.uid ?? '',
      pvcs,
      activePods: active,
      inactivePods: inactive,
    });
  }
  const pods = await claim(ctx, { cs, canAdopt }, active);
  const stale = staleObject(ctx.resourceVersionExpectations, [revisions.updateRevision, ...pods]);
  if (stale !== undefined) {
    return { kind: 'waiting', reason: `the cache has not caught up with our last write to ${stale}` };
  }
  const state: SyncState = {
    cs,
    key,
    ref,
    controllerRef: newControllerRef(owner),
    owner: podOwner,
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
