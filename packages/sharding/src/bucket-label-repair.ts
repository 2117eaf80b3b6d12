/**
 * What the bucket labeller may write, decided from one object (docs/sharding.md, "Pods from before
 * sharding"): which objects it caches at all, whose bucket an object must carry, and the patch. A
 * bucket label is input anyone with write access to the object can set, so it never picks the owner:
 * the owner is the object's controller when that is of the app's kind and group, or, for an orphan,
 * the one workload that would adopt it. Nothing else is ever written.
 */
import { controllerRef, requestForControllerOwner, requestKey } from '@kruise-ts/controller-runtime';
import type { DeepReadonly, KubeObject, PatchRequest, ResourceType } from '@kruise-ts/controller-runtime';

import { bucketLabelValue, bucketOfKey, parseBucketLabel, SHARD_BUCKET_LABEL, SHARD_BUCKETS } from './bucket.ts';

/** Objects of one kind that an app's controller creates for its workloads. */
export interface LabelledKind<T extends KubeObject = KubeObject> {
  readonly resource: ResourceType<T>;
  /** The app's own selector for them (a CloneSet's pods: those with an instance id), if any. */
  readonly labelSelector?: string | undefined;
  /** The workload kind and API group whose controller reference marks them as the app's (`CloneSet`, `apps.kruise.io`). */
  readonly ownerKind: string;
  readonly ownerGroup: string;
  /**
   * For an object without a controller (an orphan its app would adopt): the `namespace/name` of the
   * one workload that would adopt it, or undefined (none, or more than one). It is labelled with that
   * workload's bucket, so that the holder's cache sees and adopts it, as a single leader would.
   */
  readonly orphanOwner?: ((object: DeepReadonly<KubeObject>) => string | undefined) | undefined;
}

/**
 * Objects whose bucket label is missing or not a bucket (`notin` also selects objects without the
 * label): a malformed value (`x`, `64`, `07`) hides an object from every replica's sharded cache as
 * surely as a missing one, so both are found alike.
 */
export const WITHOUT_A_VALID_BUCKET = `${SHARD_BUCKET_LABEL} notin (${Array.from({ length: SHARD_BUCKETS }, (_, bucket) => bucketLabelValue(bucket)).join(',')})`;

/** Whose bucket an object of one kind gets. */
export interface OwnerOf {
  /** `namespace/name` of its controller when it is of the kind (a native StatefulSet's pods are not ours to label). */
  controller(object: DeepReadonly<KubeObject>): string | undefined;
  /** The workload whose bucket it gets: its controller of the kind, or, for an orphan, the one that would adopt it now. */
  labelFor(object: DeepReadonly<KubeObject>): string | undefined;
  /**
   * Whether the labeller caches it at all: the kind controls it, or it is an orphan the kind could
   * adopt (now or once a workload selecting it is made). Anything another controller owns is never
   * ours, and cached it would be scanned for ever and never leave the backlog.
   */
  isCandidate(object: DeepReadonly<KubeObject>): boolean;
}

export function ownerFinder(kind: LabelledKind): OwnerOf {
  const mapper = requestForControllerOwner({ group: kind.ownerGroup, kind: kind.ownerKind });
  const controller = (object: DeepReadonly<KubeObject>): string | undefined => {
    const [owner] = mapper(object);
    return owner === undefined ? undefined : requestKey(owner);
  };
  const adoptable = (object: DeepReadonly<KubeObject>): boolean =>
    kind.orphanOwner !== undefined && controllerRef(object) === undefined;
  return {
    controller,
    labelFor: (object) => controller(object) ?? (adoptable(object) ? kind.orphanOwner?.(object) : undefined),
    isCandidate: (object) => controller(object) !== undefined || adoptable(object),
  };
}

/** A bucket label to write: the workload the object belongs to, and the value of its bucket. */
export interface LabelRepair {
  readonly owner: string;
  readonly value: string;
}

/**
 * The label `object` must get: its owner's bucket, when the label is missing, malformed or names
 * another bucket; undefined when it is right, or when the object is not ours to write.
 */
export function labelRepair(ownerOf: OwnerOf, object: DeepReadonly<KubeObject>): LabelRepair | undefined {
  const owner = ownerOf.labelFor(object);
  if (owner === undefined) {
    return undefined;
  }
  const bucket = bucketOfKey(owner);
  return parseBucketLabel(object.metadata?.labels?.[SHARD_BUCKET_LABEL]) === bucket
    ? undefined
    : { owner, value: bucketLabelValue(bucket) };
}

/**
 * The patch of the label, conditioned on the version that was judged: if the object changed since
 * (another controller, other labels an orphan's owner was found by), the API server answers Conflict
 * instead of writing a label chosen for what the object was.
 */
export function labelPatch(repair: LabelRepair, resourceVersion: string | undefined): PatchRequest {
  const metadata = {
    labels: { [SHARD_BUCKET_LABEL]: repair.value },
    ...(resourceVersion === undefined || resourceVersion === '' ? {} : { resourceVersion }),
  };
  return { type: 'merge', body: { metadata } };
}
