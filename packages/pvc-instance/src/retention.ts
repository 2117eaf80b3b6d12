/**
 * `persistentVolumeClaimRetentionPolicy` of a StatefulSet (Kubernetes' StatefulSetAutoDeletePVC,
 * OpenKruise's Advanced StatefulSet): which owner references a pod's claim carries, so that the
 * garbage collector deletes it with the set (whenDeleted: Delete) or with its scaled-in pod
 * (whenScaled: Delete), and keeps it otherwise.
 */
import type { OwnerReference, PersistentVolumeClaim } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

/** `Retain` or `Delete`. */
export type RetentionPolicyType = 'Retain' | 'Delete';

/** The policy; absent values are Retain. */
export interface RetentionPolicy {
  readonly whenDeleted?: RetentionPolicyType | undefined;
  readonly whenScaled?: RetentionPolicyType | undefined;
}

/** Which owners a claim should have. */
export interface WantedClaimOwners {
  readonly set: boolean;
  readonly pod: boolean;
}

/**
 * The table of OpenKruise (and upstream): Retain/Retain ⇒ neither; whenDeleted Delete ⇒ the set
 * while the ordinal is in range; whenScaled Delete ⇒ the pod once the ordinal is out of range
 * (scaled in, or reserved); an out-of-range claim never keeps the set as owner under whenScaled
 * Delete, so that deleting the set does not race the pod's collection.
 */
export function wantedClaimOwners(policy: RetentionPolicy | undefined, inRange: boolean): WantedClaimOwners {
  const whenDeleted = policy?.whenDeleted === 'Delete';
  const whenScaled = policy?.whenScaled === 'Delete';
  if (inRange) {
    return { set: whenDeleted, pod: false };
  }
  return whenScaled ? { set: false, pod: true } : { set: whenDeleted, pod: false };
}

/** The owners that stand for the set and the pod in a claim's references (non-controller, as upstream). */
export interface ClaimOwners {
  readonly set: OwnerReference;
  /** The name of the claim's pod (`<set>-<ordinal>`), whether or not that pod exists. */
  readonly podName: string;
  /** Absent when the pod does not exist (then a wanted pod reference cannot be added yet). */
  readonly pod?: OwnerReference | undefined;
}

/**
 * The claim's owner references with the set's and the pod's made as wanted (other references kept,
 * references to an older pod of the same name, with another uid, dropped); undefined when nothing
 * changes.
 */
export function retentionOwnerReferences(
  claim: DeepReadonly<PersistentVolumeClaim>,
  input: { owners: ClaimOwners; wanted: WantedClaimOwners },
): OwnerReference[] | undefined {
  const { owners, wanted } = input;
  const current: OwnerReference[] = (claim.metadata?.ownerReferences ?? []).map((ref) => ({ ...ref }));
  const isSet = (ref: OwnerReference): boolean => ref.uid === owners.set.uid;
  const isPodRef = (ref: OwnerReference): boolean =>
    ref.kind === 'Pod' && ref.name === owners.podName && ref.apiVersion === 'v1';
  let next = current.filter((ref) => !isSet(ref) && !(isPodRef(ref) && (!wanted.pod || ref.uid !== owners.pod?.uid)));
  if (wanted.set) {
    next = [...next, { ...owners.set }];
  }
  if (wanted.pod && owners.pod !== undefined) {
    next = [...next.filter((ref) => ref.uid !== owners.pod?.uid), { ...owners.pod }];
  }
  return sameReferences(current, next) ? undefined : next;
}

function sameReferences(a: readonly OwnerReference[], b: readonly OwnerReference[]): boolean {
  const uids = (refs: readonly OwnerReference[]): string =>
    refs
      .map((ref) => ref.uid)
      .sort()
      .join(',');
  return uids(a) === uids(b);
}

/** A claim's stale pod reference: same pod name, another uid (OpenKruise waits for the old pod's collection). */
export function hasStalePodReference(
  claim: DeepReadonly<PersistentVolumeClaim>,
  pod: { readonly name: string; readonly uid: string | undefined },
): boolean {
  return (claim.metadata?.ownerReferences ?? []).some(
    (ref) => ref.kind === 'Pod' && ref.name === pod.name && ref.uid !== pod.uid,
  );
}
