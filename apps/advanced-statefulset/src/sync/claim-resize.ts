/**
 * Claims that follow their template's storage request during a rolling update (OpenKruise's
 * `volumeClaimUpdateStrategy: OnPodRollingUpdate` with gate StatefulSetAutoResizePVCGate,
 * `statefulset_resize_pvc.go`): a pod whose claims request less than the template is an update
 * target even at the update revision; its claims are expanded first, and the pod is updated only once
 * the expansion is completed (capacity reached, or only the file system left to grow). A pod whose
 * claims have not reached their requested capacity counts as unavailable.
 */
import type { FeatureGates } from '@kruise-ts/app-config';
import type { PersistentVolumeClaim, Pod, StatefulSet } from '@kruise-ts/api';
import { keyOf } from '@kruise-ts/controller-runtime';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import {
  claimName,
  claimNeedsExpansion,
  hasRequestedCapacity,
  isClaimExpansionCompleted,
  isClaimShapeCompatible,
} from '@kruise-ts/pvc-instance';
import { errorMessage, isBeingDeleted } from '@kruise-ts/workload';

import { podOrdinal } from '../ordinals.ts';
import type { SyncContext, SyncState } from './sync-context.ts';

type ReadonlyPod = DeepReadonly<Pod>;
type ReadonlyClaim = DeepReadonly<PersistentVolumeClaim>;

/** OpenKruise's annotation on a claim the controller expanded: the set's name. */
export const PVC_OWNED_BY_ASTS_ANNOTATION = 'apps.kruise.io/owned-by-asts';

/** One existing claim of a pod and its template. */
export interface PodClaim {
  readonly claim: ReadonlyClaim;
  readonly template: ReadonlyClaim;
}

/** Whether claims follow the template: the gate and `volumeClaimUpdateStrategy.type: OnPodRollingUpdate` (OnDelete by default). */
export function resizesClaims(gates: FeatureGates, set: DeepReadonly<StatefulSet>): boolean {
  return (
    gates.enabled('StatefulSetAutoResizePVCGate') &&
    set.spec.volumeClaimUpdateStrategy?.type === 'OnPodRollingUpdate' &&
    (set.spec.volumeClaimTemplates ?? []).length > 0
  );
}

/** The pod's claims that exist and are not being deleted (a missing claim is created by the scale step). */
export function podClaims(state: Pick<SyncState, 'set' | 'claims'>, pod: ReadonlyPod): PodClaim[] {
  const setName = state.set.metadata.name ?? '';
  const ordinal = podOrdinal(setName, pod.metadata?.name ?? '');
  if (ordinal === undefined) {
    return [];
  }
  return (state.set.spec.volumeClaimTemplates ?? []).flatMap((template) => {
    const claim = state.claims.get(claimName(template.metadata?.name ?? '', setName, String(ordinal)));
    return claim === undefined || isBeingDeleted(claim) ? [] : [{ claim, template }];
  });
}

/** Every claim has the template's shape and does not request less (OpenKruise's `IsClaimsCompatible`). */
export function claimsMatch(claims: readonly PodClaim[]): boolean {
  return claims.every(
    ({ claim, template }) => isClaimShapeCompatible(claim, template) && !claimNeedsExpansion(claim, template),
  );
}

/** Every claim has the template's shape and its requested capacity (OpenKruise's `IsOwnedPVCsReady`). */
export function claimsReady(claims: readonly PodClaim[]): boolean {
  return claims.every(({ claim, template }) => isClaimShapeCompatible(claim, template) && hasRequestedCapacity(claim));
}

/** Every expansion is as far as the controller waits for it (OpenKruise's `IsOwnedPVCsCompleted`). */
export function claimsCompleted(claims: readonly PodClaim[]): boolean {
  return claims.every(({ claim, template }) => isClaimExpansionCompleted(claim, template));
}

/** A claim that differs from its template in more than its size: it is never patched (OpenKruise waits for it to be deleted). */
export class ClaimNotExpandableError extends Error {
  constructor(claim: string) {
    super(`can not patch pvc ${claim}: contains diff other than spec resource, wait pvc to be deleted`);
    this.name = 'ClaimNotExpandableError';
  }
}

type ExpandContext = Pick<SyncContext, 'claims' | 'recorder'>;
type ExpandState = Pick<SyncState, 'set' | 'owner'>;

async function expandClaim(
  ctx: ExpandContext,
  state: ExpandState,
  input: { readonly podName: string; readonly entry: PodClaim },
): Promise<void> {
  const { claim, template } = input.entry;
  const setName = state.set.metadata.name ?? '';
  const name = claim.metadata?.name ?? '';
  if (!isClaimShapeCompatible(claim, template)) {
    ctx.recorder.warning(
      state.owner.ref,
      'FailedUpdatePVC',
      `failed to update pvc ${name}: contains diff other than spec resource, wait pvc to be deleted`,
    );
    throw new ClaimNotExpandableError(name);
  }
  const body = {
    metadata: { annotations: { [PVC_OWNED_BY_ASTS_ANNOTATION]: setName } },
    spec: { resources: structuredClone(template.spec?.resources ?? {}) },
  };
  try {
    await ctx.claims.patch(keyOf(claim), { type: 'merge', body });
  } catch (error) {
    ctx.recorder.warning(
      state.owner.ref,
      'FailedResize',
      `resize Claim ${name} for Pod ${input.podName} in StatefulSet ${setName} failed error: ${errorMessage(error)}`,
    );
    throw error;
  }
  ctx.recorder.normal(
    state.owner.ref,
    'SuccessfulResize',
    `resize Claim ${name} Pod ${input.podName} in StatefulSet ${setName} success`,
  );
}

/**
 * Raises the pod's claims to their template's resources, with OpenKruise's Events (SuccessfulResize,
 * FailedResize; FailedUpdatePVC for a claim that differs in more than size). Whether the storage
 * class allows expansion is the API server's check (admission refuses the patch, with its reason).
 */
export async function expandClaims(
  ctx: ExpandContext,
  state: ExpandState,
  input: { readonly pod: ReadonlyPod; readonly claims: readonly PodClaim[] },
): Promise<void> {
  const podName = input.pod.metadata?.name ?? '';
  for (const entry of input.claims.filter((candidate) => !claimsMatch([candidate]))) {
    await expandClaim(ctx, state, { podName, entry });
  }
}
