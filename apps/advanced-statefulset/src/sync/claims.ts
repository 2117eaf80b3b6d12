/**
 * The set's per-ordinal PVCs (`<template>-<set>-<ordinal>`): created before their pod, and owned as
 * `persistentVolumeClaimRetentionPolicy` says (gate StatefulSetAutoDeletePVC), so that the garbage
 * collector removes them with the set or with a scaled-in pod, and never otherwise.
 */
import type { OwnerReference, PersistentVolumeClaim, Pod } from '@kruise-ts/api';
import { keyOf } from '@kruise-ts/controller-runtime';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import {
  claimName,
  hasStalePodReference,
  newClaims,
  retentionOwnerReferences,
  wantedClaimOwners,
} from '@kruise-ts/pvc-instance';
import type { WantedClaimOwners } from '@kruise-ts/pvc-instance';
import { isBeingDeleted } from '@kruise-ts/workload';

import { inRange, podName, podOrdinal } from '../ordinals.ts';
import type { SyncContext, SyncState } from './sync-context.ts';

type ReadonlyPod = DeepReadonly<Pod>;

function templateNames(state: SyncState): string[] {
  return (state.set.spec.volumeClaimTemplates ?? []).map((template) => template.metadata?.name ?? '');
}

function claimNamesOf(state: SyncState, ordinal: number): string[] {
  const setName = state.set.metadata.name ?? '';
  return templateNames(state).map((template) => claimName(template, setName, String(ordinal)));
}

function setReference(state: SyncState): OwnerReference {
  return {
    apiVersion: state.set.apiVersion,
    kind: state.set.kind,
    name: state.set.metadata.name ?? '',
    uid: state.set.metadata.uid ?? '',
  };
}

function podReference(pod: ReadonlyPod | undefined): OwnerReference | undefined {
  return pod?.metadata?.uid === undefined
    ? undefined
    : { apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name ?? '', uid: pod.metadata.uid };
}

/** The owners the ordinal's claims should have (none without the gate: Retain/Retain). */
function wanted(ctx: Pick<SyncContext, 'gates'>, state: SyncState, ordinal: number): WantedClaimOwners {
  if (!ctx.gates.enabled('StatefulSetAutoDeletePVC')) {
    return { set: false, pod: false };
  }
  return wantedClaimOwners(state.set.spec.persistentVolumeClaimRetentionPolicy, inRange(state.range, ordinal));
}

/** Thrown when a pod's claim is being deleted: the pod must wait for it to be gone (upstream's "is to be deleted"). */
export class ClaimBeingDeletedError extends Error {
  constructor(claim: string) {
    super(`pvc ${claim} is to be deleted: its pod waits until it is gone`);
    this.name = 'ClaimBeingDeletedError';
  }
}

/** The claims of a new pod that do not exist yet, owned as the retention policy says (the pod has no uid yet). */
function refuseClaimsBeingDeleted(state: SyncState, ordinal: number): void {
  const deleting = claimNamesOf(state, ordinal).find((name) => {
    const existing = state.claims.get(name);
    return existing !== undefined && isBeingDeleted(existing);
  });
  if (deleting !== undefined) {
    throw new ClaimBeingDeletedError(deleting);
  }
}

export function claimsToCreate(ctx: Pick<SyncContext, 'gates'>, state: SyncState, pod: Pod): PersistentVolumeClaim[] {
  const ordinal = podOrdinal(state.owner.name, pod.metadata?.name ?? '') ?? -1;
  refuseClaimsBeingDeleted(state, ordinal);
  return newClaims({
    owner: { name: state.owner.name, namespace: state.source.namespace },
    volumeClaimTemplates: state.set.spec.volumeClaimTemplates ?? [],
    identity: { kind: 'ordinal', ordinal },
    selectorLabels: state.set.spec.selector.matchLabels,
    ownerReferences: wanted(ctx, state, ordinal).set ? [setReference(state)] : [],
  }).filter((claim) => !state.claims.has(claim.metadata?.name ?? ''));
}

/** Ordinals without a pod whose claims still name an older pod of that name (upstream's PodClaimIsStale). */
export function staleClaimOrdinals(ctx: Pick<SyncContext, 'gates'>, state: SyncState): Set<number> {
  const stale = new Set<number>();
  if (!ctx.gates.enabled('StatefulSetAutoDeletePVC')) {
    return stale;
  }
  const setName = state.set.metadata.name ?? '';
  for (const { ordinal } of state.replicas.filter((slot) => slot.pod === undefined)) {
    const claims = claimNamesOf(state, ordinal).flatMap((name) => state.claims.get(name) ?? []);
    if (claims.some((claim) => hasStalePodReference(claim, { name: podName(setName, ordinal), uid: undefined }))) {
      stale.add(ordinal);
    }
  }
  return stale;
}

/**
 * Makes an existing pod's claims right: missing ones created (a pod whose claim was deleted by hand),
 * owner references as the retention policy says. Returns whether anything was written.
 */
export async function reconcileClaims(
  ctx: SyncContext,
  state: SyncState,
  input: { readonly ordinal: number; readonly pod: ReadonlyPod },
): Promise<boolean> {
  const owners = {
    set: setReference(state),
    podName: podName(state.set.metadata.name ?? '', input.ordinal),
    pod: podReference(input.pod),
  };
  const want = wanted(ctx, state, input.ordinal);
  let written = false;
  for (const name of claimNamesOf(state, input.ordinal)) {
    const claim = state.claims.get(name);
    if (claim === undefined || isBeingDeleted(claim)) {
      continue;
    }
    const references = retentionOwnerReferences(claim, { owners, wanted: want });
    if (references !== undefined) {
      await ctx.claims.patch(keyOf(claim), {
        type: 'json',
        body: [
          { op: 'test', path: '/metadata/uid', value: claim.metadata?.uid },
          { op: 'replace', path: '/metadata/ownerReferences', value: references },
        ],
      });
      written = true;
    }
  }
  return written;
}

/** Creates the claims an existing in-range pod lacks (they were deleted by hand): the pod keeps running, the next one mounts them. */
export async function createMissingClaims(ctx: SyncContext, state: SyncState, pod: ReadonlyPod): Promise<boolean> {
  const missing = claimsToCreate(ctx, state, pod as Pod);
  for (const claim of missing) {
    await ctx.claims.create(claim);
  }
  return missing.length > 0;
}
