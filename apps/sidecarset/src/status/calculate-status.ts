/**
 * A SidecarSet's status (§B.3) from the pods in the cache, and the pods that were created without its
 * sidecars (kruise-ts: the pod webhook fails open, so the controller reports what it missed).
 */
import {
  IN_PLACE_UPDATE_READY,
  SIDECARSET_HASH_ANNOTATION,
  SIDECARSET_HASH_WITHOUT_IMAGE_ANNOTATION,
  SIDECARSET_INJECTED_LIST_ANNOTATION,
} from '@kruise-ts/api';
import type { Pod, SidecarSet } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { inPlaceRefreshPending } from '@kruise-ts/inplace-update';

import { sidecarSetMatchesPod } from '../injection/pod-match.ts';
import { parseUpgradeSpecs } from '../injection/pod-hash-annotations.ts';
import { sidecarSetHash, sidecarSetHashWithoutImage } from '../hash/sidecarset-hash.ts';
import { hasAllSidecars, pairsToFlip, podSidecarNames } from '../hotupgrade/hot-upgrade.ts';
import { isSidecarStateConsistent } from '../upgrade/inplace-state.ts';
import type { UpgradeCandidate } from '../upgrade/upgrade-plan.ts';

type ReadonlyPod = DeepReadonly<Pod>;
type ReadonlySidecarSet = DeepReadonly<SidecarSet>;

/** What the status calculation reads. */
export interface StatusInput {
  readonly set: ReadonlySidecarSet;
  /** The SidecarSet's pods (the pod index's: those it selects and those that record it); others are ignored anyway. */
  readonly pods: readonly ReadonlyPod[];
  /** Namespace labels by name (undefined: not in the cache). */
  readonly namespaceLabels: (namespace: string) => Readonly<Record<string, string>> | undefined;
  /** Namespaces the pod webhook never sees (kube-system, the controllers' own). */
  readonly excludedNamespaces: ReadonlySet<string>;
}

/** The status and the pods that missed their injection. */
export interface StatusResult {
  readonly status: {
    readonly observedGeneration: number;
    readonly matchedPods: number;
    readonly updatedPods: number;
    readonly readyPods: number;
    readonly updatedReadyPods: number;
  };
  readonly missed: readonly ReadonlyPod[];
  /** The counted pods, for the upgrade. */
  readonly candidates: readonly UpgradeCandidate[];
}

function isActive(pod: ReadonlyPod): boolean {
  const phase = pod.status?.phase;
  return pod.metadata?.deletionTimestamp === undefined && phase !== 'Succeeded' && phase !== 'Failed';
}

function isInjectedWith(pod: ReadonlyPod, name: string): boolean {
  return (pod.metadata?.annotations?.[SIDECARSET_INJECTED_LIST_ANNOTATION] ?? '').split(',').includes(name);
}

/** The workload's in-place update of the pod is under way (its readiness gate is False, or a grace period waits). */
function isWorkloadUpdating(pod: ReadonlyPod): boolean {
  const gate = (pod.status?.conditions ?? []).find((condition) => condition.type === IN_PLACE_UPDATE_READY);
  return gate?.status === 'False' || inPlaceRefreshPending(pod);
}

function isReady(pod: ReadonlyPod): boolean {
  return (
    pod.status?.phase === 'Running' &&
    (pod.status.conditions ?? []).some((condition) => condition.type === 'Ready' && condition.status === 'True')
  );
}

/** A pod created after the SidecarSet, in its scope, that the webhook should have injected. */
function missedInjection(pod: ReadonlyPod, input: StatusInput): boolean {
  const setCreated = input.set.metadata.creationTimestamp ?? '';
  const podCreated = pod.metadata?.creationTimestamp ?? '';
  return (
    input.set.spec.injectionStrategy?.paused !== true &&
    !input.excludedNamespaces.has(pod.metadata?.namespace ?? '') &&
    podCreated !== '' &&
    podCreated >= setCreated
  );
}

/** What a pod is to the SidecarSet: not its concern, a missed injection, or a counted pod. */
type PodClass =
  { readonly kind: 'other' } | { readonly kind: 'missed' } | ({ readonly kind: 'counted' } & UpgradeCandidate);

/** The SidecarSet's two hashes, computed once per reconcile. */
interface Hashes {
  readonly hash: string;
  readonly withoutImage: string;
}

function inScope(pod: ReadonlyPod, input: StatusInput): boolean {
  const namespace = pod.metadata?.namespace ?? '';
  return (
    isActive(pod) && sidecarSetMatchesPod(input.set, pod, { name: namespace, labels: input.namespaceLabels(namespace) })
  );
}

/** Whether the pod's record has the SidecarSet's hash, and its hash without image. */
function recordedHashes(
  pod: ReadonlyPod,
  name: string,
  hashes: Hashes,
): { readonly updated: boolean; readonly imagesOnly: boolean } {
  const annotations = pod.metadata?.annotations ?? {};
  return {
    updated: parseUpgradeSpecs(annotations[SIDECARSET_HASH_ANNOTATION]).get(name)?.hash === hashes.hash,
    imagesOnly:
      parseUpgradeSpecs(annotations[SIDECARSET_HASH_WITHOUT_IMAGE_ANNOTATION]).get(name)?.hash === hashes.withoutImage,
  };
}

function classify(pod: ReadonlyPod, input: StatusInput, hashes: Hashes): PodClass {
  const name = input.set.metadata.name ?? '';
  if (!inScope(pod, input)) {
    return { kind: 'other' };
  }
  if (!isInjectedWith(pod, name)) {
    return missedInjection(pod, input) ? { kind: 'missed' } : { kind: 'other' };
  }
  if (!hasAllSidecars(pod, input.set)) {
    return { kind: 'other' };
  }
  const { updated, imagesOnly } = recordedHashes(pod, name, hashes);
  // A hot upgrade whose flip is still due is in flight too: the old member has not gone back to the empty image.
  const consistent =
    isSidecarStateConsistent(pod, name, podSidecarNames(input.set)) && pairsToFlip(pod, input.set).length === 0;
  return {
    kind: 'counted',
    pod,
    updated,
    imagesOnly,
    consistent,
    ready: isReady(pod),
    workloadUpdating: isWorkloadUpdating(pod),
  };
}

/** The status of `set` over the cached pods. */
export function calculateStatus(input: StatusInput): StatusResult {
  const hashes = { hash: sidecarSetHash(input.set.spec), withoutImage: sidecarSetHashWithoutImage(input.set.spec) };
  const counts = { matchedPods: 0, updatedPods: 0, readyPods: 0, updatedReadyPods: 0 };
  const missed: ReadonlyPod[] = [];
  const candidates: UpgradeCandidate[] = [];
  for (const pod of input.pods) {
    const found = classify(pod, input, hashes);
    if (found.kind === 'missed') {
      missed.push(pod);
    }
    if (found.kind !== 'counted') {
      continue;
    }
    candidates.push(found);
    // Ready means the sidecars the spec names run (no upgrade in flight) and the pod is Ready.
    const ready = found.ready && found.consistent;
    counts.matchedPods += 1;
    counts.updatedPods += Number(found.updated);
    counts.readyPods += Number(ready);
    counts.updatedReadyPods += Number(found.updated && ready);
  }
  return { status: { observedGeneration: input.set.metadata.generation ?? 0, ...counts }, missed, candidates };
}
