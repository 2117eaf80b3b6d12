/**
 * The revision labels on pods and how a pod is matched to a revision (OpenKruise's CloneSet
 * revisionAdapterImpl): `controller-revision-hash` holds the full revision name, or only its hash when
 * the CloneSetShortHash feature gate is on; `pod-template-hash` always holds the hash.
 */
import { CONTROLLER_REVISION_HASH_LABEL, POD_TEMPLATE_HASH_LABEL } from '@kruise-ts/api';

import { shortHash } from './revision-hash.ts';

/** What these functions read of a pod. */
export interface PodLike {
  readonly metadata?: { readonly labels?: Readonly<Record<string, string>> | undefined } | undefined;
}

/** Options of {@link revisionLabels}. */
export interface RevisionLabelOptions {
  /** The CloneSetShortHash feature gate: write only the hash into controller-revision-hash. */
  readonly shortHash: boolean;
}

/** The labels that mark a pod as created from a revision. */
export function revisionLabels(revisionName: string, options: RevisionLabelOptions): Record<string, string> {
  const hash = shortHash(revisionName);
  return { [CONTROLLER_REVISION_HASH_LABEL]: options.shortHash ? hash : revisionName, [POD_TEMPLATE_HASH_LABEL]: hash };
}

/** The pod's controller-revision-hash label (a revision name or only its hash), if any. */
export function podRevision(pod: PodLike): string | undefined {
  return pod.metadata?.labels?.[CONTROLLER_REVISION_HASH_LABEL];
}

/**
 * True when the pod was created from the revision, whichever form either side uses: the label equals
 * the name, or their hashes (text after the last `-`) are equal. A pod without the label matches nothing
 * but a revision named "" (as in OpenKruise, where a missing label reads as "").
 */
export function isPodAtRevision(pod: PodLike, revisionName: string): boolean {
  const label = podRevision(pod) ?? '';
  return label === revisionName || shortHash(label) === shortHash(revisionName);
}
