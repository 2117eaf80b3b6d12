/**
 * The SidecarSet's latest ControllerRevision, kept as OpenKruise's registerLatestRevision keeps it
 * (§B.8.2): in the revision namespace (the controllers' own; OpenKruise's `kruise-system`), labelled
 * `kruise.io/sidecarset-name`, created through `@kruise-ts/revision` (an equal latest is reused, an
 * equal older one renumbered, a new one created, name collisions counted), the custom version label
 * moved onto the latest, and the history cut to `revisionHistoryLimit` (at least 1), never deleting the
 * latest, a pinned one, or one a pod records as injected.
 */
import { SIDECARSET_CUSTOM_VERSION_LABEL, SIDECARSET_HASH_ANNOTATION } from '@kruise-ts/api';
import type { ControllerRevision, Pod, SidecarSet } from '@kruise-ts/api';
import { isNotFound, keyOf } from '@kruise-ts/controller-runtime';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { ensureUpdateRevision, revisionsToTruncate } from '@kruise-ts/revision';
import type { RevisionOwner, RevisionStore } from '@kruise-ts/revision';

import { parseUpgradeSpecs } from '../injection/pod-hash-annotations.ts';
import { pinnedRevision, revisionsOfSidecarSet } from './pinned-revision.ts';
import { customVersionOf, sidecarSetRevisionAnnotations, sidecarSetRevisionCandidate } from './revision-data.ts';

type ReadonlySidecarSet = DeepReadonly<SidecarSet>;
type ReadonlyRevision = DeepReadonly<ControllerRevision>;

/** Inputs of {@link registerLatestRevision}. */
export interface RegisterRevisionInput {
  readonly store: RevisionStore;
  readonly set: ReadonlySidecarSet;
  /** Where the revisions live. */
  readonly namespace: string;
  /** The cached revisions of that namespace (any SidecarSet's). */
  readonly revisions: readonly ReadonlyRevision[];
  /** Pods that may record a revision of this set (read only when the history is over its limit). */
  readonly pods: () => readonly DeepReadonly<Pod>[];
}

/** The outcome, for the status. */
export interface RegisteredRevision {
  readonly latestRevision: string;
  readonly collisionCount: number;
  /** Revisions that could not be deleted because they are in use (OpenKruise logs this; we say it once per reconcile). */
  readonly overLimit: number;
}

/** Registers the latest revision (see the file's comment). */
export async function registerLatestRevision(input: RegisterRevisionInput): Promise<RegisteredRevision> {
  const { set, store } = input;
  const ensured = await ensureUpdateRevision({
    client: store,
    owner: ownerOf(set, input.namespace),
    candidate: sidecarSetRevisionCandidate(set),
    ownerAnnotations: sidecarSetRevisionAnnotations(set),
    revisions: revisionsOfSidecarSet(set, input.revisions),
    collisionCount: set.status?.collisionCount ?? 0,
  });
  const latest = ensured.updateRevision;
  await labelCustomVersion(store, set, latest);
  const overLimit = await truncate(input, ensured.revisions, latest);
  return { latestRevision: latest.metadata?.name ?? '', collisionCount: ensured.collisionCount, overLimit };
}

function ownerOf(set: ReadonlySidecarSet, namespace: string): RevisionOwner {
  return {
    name: set.metadata.name ?? '',
    namespace,
    uid: set.metadata.uid ?? '',
    apiVersion: set.apiVersion,
    kind: set.kind,
  };
}

/** OpenKruise moves the set's custom version label onto its latest revision (the newest one with it wins a customVersion pin). */
async function labelCustomVersion(
  store: RevisionStore,
  set: ReadonlySidecarSet,
  latest: ReadonlyRevision,
): Promise<void> {
  const customVersion = customVersionOf(set);
  if (customVersion === '' || latest.metadata?.labels?.[SIDECARSET_CUSTOM_VERSION_LABEL] === customVersion) {
    return;
  }
  await store.patch(keyOf(latest), {
    type: 'merge',
    body: { metadata: { labels: { [SIDECARSET_CUSTOM_VERSION_LABEL]: customVersion } } },
  });
}

/** The revisions pods record for this set (each pod's `kruise.io/sidecarset-hash` entry). */
function recordedRevisions(pods: readonly DeepReadonly<Pod>[], setName: string): string[] {
  return pods.flatMap(
    (pod) =>
      parseUpgradeSpecs(pod.metadata?.annotations?.[SIDECARSET_HASH_ANNOTATION]).get(setName)?.controllerRevision ?? [],
  );
}

/** Revisions a pod records, the pinned ones and the latest. */
function liveRevisions(
  input: RegisterRevisionInput,
  history: readonly ReadonlyRevision[],
  latest: ReadonlyRevision,
): Set<string> {
  const { set } = input;
  const pinned = [
    set.spec.injectionStrategy?.revision?.revisionName,
    pinnedRevision(set, history).revision?.metadata?.name,
  ];
  const names = [latest.metadata?.name, ...recordedRevisions(input.pods(), set.metadata.name ?? ''), ...pinned];
  return new Set(names.filter((name): name is string => name !== undefined && name !== ''));
}

/** Deletes the oldest unused revisions beyond the limit; returns how many stay over it. */
async function truncate(
  input: RegisterRevisionInput,
  history: readonly ReadonlyRevision[],
  latest: ReadonlyRevision,
): Promise<number> {
  const limit = Math.max(1, input.set.spec.revisionHistoryLimit);
  if (history.length <= limit) {
    return 0;
  }
  const live = liveRevisions(input, history, latest);
  const liveInHistory = history.filter((revision) => live.has(revision.metadata?.name ?? '')).length;
  const doomed = revisionsToTruncate({ revisions: history, live, limit: Math.max(0, limit - liveInHistory) });
  for (const revision of doomed) {
    await input.store.delete(keyOf(revision)).catch((error: unknown) => {
      if (!isNotFound(error)) {
        throw error;
      }
    });
  }
  return Math.max(0, history.length - doomed.length - limit);
}
