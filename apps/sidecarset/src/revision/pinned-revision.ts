/**
 * Which version of a SidecarSet a new pod gets (§B.6.1, OpenKruise's getSuitableRevisionSidecarSet on
 * CREATE): the latest, unless `injectionStrategy.revision` pins one by `revisionName` or by
 * `customVersion` (the newest revision labelled with it). With a pin: while the update is paused, or
 * with policy `Always`, every new pod gets the pinned version; with `Partial`, pods outside
 * `updateStrategy.selector` get it, and the others get it with the probability of a percentage
 * `partition` (an int partition or none means the latest).
 *
 * Where OpenKruise rejects the pod (a pinned revision that does not exist makes its webhook fail), this
 * injects the latest version and says so: a pod is never blocked.
 */
import { SIDECARSET_CUSTOM_VERSION_LABEL, SIDECARSET_NAME_LABEL } from '@kruise-ts/api';
import type { ControllerRevision, Pod, SidecarSet } from '@kruise-ts/api';
import { controllerRef, matchesLabelSelector } from '@kruise-ts/controller-runtime';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { sortRevisions } from '@kruise-ts/revision';

import { historySidecarSet } from './revision-data.ts';

type ReadonlySidecarSet = DeepReadonly<SidecarSet>;
type ReadonlyRevision = DeepReadonly<ControllerRevision>;

/** The SidecarSet's revisions (those labelled with its name, not controlled by another object), any order. */
export function revisionsOfSidecarSet(
  set: ReadonlySidecarSet,
  revisions: readonly ReadonlyRevision[],
): ReadonlyRevision[] {
  return revisions.filter((revision) => {
    if (revision.metadata?.labels?.[SIDECARSET_NAME_LABEL] !== set.metadata.name) {
      return false;
    }
    const owner = controllerRef(revision);
    return owner === undefined || owner.uid === set.metadata.uid;
  });
}

/** The pinned revision, if the SidecarSet pins one and it exists; `pinned` says whether it pins one. */
export function pinnedRevision(
  set: ReadonlySidecarSet,
  revisions: readonly ReadonlyRevision[],
): { readonly pinned: boolean; readonly revision?: ReadonlyRevision } {
  const pin = set.spec.injectionStrategy?.revision;
  const name = pin?.revisionName ?? '';
  const customVersion = pin?.customVersion ?? '';
  if (name !== '') {
    const revision = revisions.find((candidate) => candidate.metadata?.name === name);
    return revision === undefined ? { pinned: true } : { pinned: true, revision };
  }
  if (customVersion === '') {
    return { pinned: false };
  }
  const labelled = revisionsOfSidecarSet(set, revisions).filter(
    (revision) => revision.metadata?.labels?.[SIDECARSET_CUSTOM_VERSION_LABEL] === customVersion,
  );
  const newest = sortRevisions(labelled).at(-1);
  return newest === undefined ? { pinned: true } : { pinned: true, revision: newest };
}

/** What the choice reads besides the set and the pod. */
export interface InjectionVersionDeps {
  /** The revisions in the revision namespace (the cache of the pod webhook's replica). */
  readonly revisions: readonly ReadonlyRevision[];
  /** Uniform in [0, 1): Partial's draw. */
  readonly random: () => number;
}

/** The version to inject, and a warning when a pinned revision is missing. */
export interface InjectionVersion {
  readonly set: ReadonlySidecarSet;
  readonly warning?: string;
}

/** A percentage partition as a fraction (Partial's probability of the pinned version); undefined for an int or none. */
function partitionFraction(set: ReadonlySidecarSet): number | undefined {
  const partition = set.spec.updateStrategy.partition;
  if (typeof partition !== 'string' || !partition.endsWith('%')) {
    return undefined;
  }
  const percent = Number.parseInt(partition.slice(0, -1), 10);
  return Number.isNaN(percent) ? undefined : percent / 100;
}

function choosePinned(set: ReadonlySidecarSet, pod: DeepReadonly<Pod>, random: () => number): boolean {
  if (set.spec.updateStrategy.paused === true) {
    return true;
  }
  if (set.spec.injectionStrategy?.revision?.policy !== 'Partial') {
    return true;
  }
  const selector = set.spec.updateStrategy.selector;
  if (selector !== undefined && !matchesLabelSelector(selector, pod.metadata?.labels)) {
    return true;
  }
  const fraction = partitionFraction(set);
  return fraction !== undefined && random() <= fraction;
}

/** The SidecarSet version a new pod gets (see the file's comment). */
export function injectionVersion(
  set: ReadonlySidecarSet,
  pod: DeepReadonly<Pod>,
  deps: InjectionVersionDeps,
): InjectionVersion {
  const { pinned, revision } = pinnedRevision(set, deps.revisions);
  if (!pinned) {
    return { set };
  }
  const history = revision === undefined ? undefined : historySidecarSet(set, revision);
  if (history === undefined) {
    return {
      set,
      warning: `SidecarSet ${set.metadata.name ?? ''}: the revision pinned by spec.injectionStrategy.revision does not exist; the latest version was injected`,
    };
  }
  return { set: choosePinned(set, pod, deps.random) ? history : set };
}
