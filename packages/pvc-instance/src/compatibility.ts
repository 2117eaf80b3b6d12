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

/**
 * The claim is compatible: the same storage class when both name one, the same access modes, and a
 * storage request at least the template's.
 */
export function isClaimCompatible(claim: ReadonlyClaim, template: ReadonlyClaim): boolean {
  return (
    sameStorageClass(claim.spec?.storageClassName, template.spec?.storageClassName) &&
    sameAccessModes(claim.spec?.accessModes, template.spec?.accessModes) &&
    atLeast(storageRequest(claim), storageRequest(template))
  );
}

/** Two storage classes conflict only when both are named. */
function sameStorageClass(a: string | undefined, b: string | undefined): boolean {
  return a === undefined || b === undefined || a === b;
}

function storageRequest(claim: ReadonlyClaim): string | undefined {
  return claim.spec?.resources?.requests?.['storage'];
}

/** Compatible, and the volume already has at least the requested capacity. */
export function isClaimReady(claim: ReadonlyClaim, template: ReadonlyClaim): boolean {
  return isClaimCompatible(claim, template) && atLeast(claim.status?.capacity?.['storage'], claim.spec?.resources?.requests?.['storage']);
}
