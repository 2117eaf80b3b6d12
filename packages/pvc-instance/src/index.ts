/**
 * @kruise-ts/pvc-instance: instance ids shared by a pod and its PVCs, the PVCs built from
 * volumeClaimTemplates, their reuse across pod replacements and their cleanup when reuse is disabled.
 *
 * STOP: this file is the public API of @kruise-ts/pvc-instance. Add explicit named exports only (no `export *`).
 */
export {
  allocateInstanceIds,
  INSTANCE_ID_ALPHABET,
  INSTANCE_ID_LENGTH,
  instanceIdOf,
  randomInstanceId,
} from './instance-id.ts';
export type { AllocateInstanceIdsOptions, Labelled } from './instance-id.ts';
export {
  attachClaimVolumes,
  claimName,
  identitySuffix,
  newClaims,
  newClaimsForInstance,
  pvcsOfInstance,
} from './claims.ts';
export type {
  AttachClaimVolumesOptions,
  ClaimIdentity,
  NewClaimsForIdentityOptions,
  NewClaimsOptions,
} from './claims.ts';
export { handOverOwnerReferences, planPvcCleanup, podControllerRef } from './cleanup.ts';
export type { HandOverOptions, PlanPvcCleanupOptions, PvcCleanupPlan } from './cleanup.ts';
export { hasStalePodReference, retentionOwnerReferences, wantedClaimOwners } from './retention.ts';
export type { ClaimOwners, RetentionPolicy, RetentionPolicyType, WantedClaimOwners } from './retention.ts';
export {
  claimNeedsExpansion,
  hasRequestedCapacity,
  isClaimCompatible,
  isClaimExpansionCompleted,
  isClaimReady,
  isClaimShapeCompatible,
} from './compatibility.ts';
