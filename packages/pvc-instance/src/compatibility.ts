/**
 * Whether a pod's existing claim still fits its volumeClaimTemplate (OpenKruise's `pkg/util/pvc`):
 * the status of Advanced StatefulSet counts compatible and ready claims per template.
 */
import type { PersistentVolumeClaim } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { compareDecimals, parseQuantityText } from '@kruise-ts/revision';

type ReadonlyClaim = DeepReadonly<PersistentVolumeClaim>;

function atLeast(value: string | undefined, minimum: string | undefined): boolean {
  if (minimum === undefined) {
    return true;
  }
  const have = value === undefined ? undefined : parseQuantityText(value);
  const want = parseQuantityText(minimum);
  return have !== undefined && want !== undefined && compareDecimals(have, want) >= 0;
}

function sameAccessModes(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  const left = a ?? [];
  const right = b ?? [];
  return left.length === right.length && left.every((mode, index) => mode === right[index]);
}

/** The same storage class when both name one, and the same access modes (OpenKruise's `IsClaimCompatibleWithoutSize`). */
export function isClaimShapeCompatible(claim: ReadonlyClaim, template: ReadonlyClaim): boolean {
  return (
    sameStorageClass(claim.spec?.storageClassName, template.spec?.storageClassName) &&
    sameAccessModes(claim.spec?.accessModes, template.spec?.accessModes)
  );
}

/** The claim is compatible: its shape (above), and a storage request at least the template's. */
export function isClaimCompatible(claim: ReadonlyClaim, template: ReadonlyClaim): boolean {
  return isClaimShapeCompatible(claim, template) && atLeast(storageRequest(claim), storageRequest(template));
}

/** The claim requests less storage than the template (OpenKruise's `IsPVCNeedExpand`): expanding it would fit it. */
export function claimNeedsExpansion(claim: ReadonlyClaim, template: ReadonlyClaim): boolean {
  const want = storageRequest(template);
  return want !== undefined && storageRequest(claim) !== undefined && !atLeast(storageRequest(claim), want);
}

/** Two storage classes conflict only when both are named. */
function sameStorageClass(a: string | undefined, b: string | undefined): boolean {
  return a === undefined || b === undefined || a === b;
}

function storageRequest(claim: ReadonlyClaim): string | undefined {
  return claim.spec?.resources?.requests?.['storage'];
}

/** The volume has at least the capacity the claim requests (none requested: true). */
export function hasRequestedCapacity(claim: ReadonlyClaim): boolean {
  return atLeast(claim.status?.capacity?.['storage'], storageRequest(claim));
}

/** Compatible, and the volume already has at least the requested capacity. */
export function isClaimReady(claim: ReadonlyClaim, template: ReadonlyClaim): boolean {
  return isClaimCompatible(claim, template) && hasRequestedCapacity(claim);
}

/**
 * An expansion is as far as the controller waits for it (OpenKruise's `IsPatchPVCCompleted`): the
 * claim is compatible and either ready, or only the file system is left to grow
 * (`FileSystemResizePending`, which happens when a pod mounts the volume).
 */
export function isClaimExpansionCompleted(claim: ReadonlyClaim, template: ReadonlyClaim): boolean {
  if (!isClaimCompatible(claim, template)) {
    return false;
  }
  return (
    isClaimReady(claim, template) ||
    (claim.status?.conditions ?? []).some(
      (condition) => condition.type === 'FileSystemResizePending' && condition.status === 'True',
    )
  );
}
