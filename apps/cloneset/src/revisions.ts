import type { CloneSet, ControllerRevision, Pod } from '@kruise-ts/api';
import { CONTROLLER_UID_INDEX, keyOf, matchesLabelSelector, NO_CONTROLLER } from '@kruise-ts/controller-runtime';
import type { DeepReadonly, Lister } from '@kruise-ts/controller-runtime';
import {
  currentRevisionFor,
  ensureUpdateRevision,
  liveRevisionNames,
  revisionsToTruncate,
  sortRevisions,
  VOLUME_CLAIM_TEMPLATES_HASH_ANNOTATION,
  volumeClaimTemplatesHash,
} from '@kruise-ts/revision';
import { claimObjects } from '@kruise-ts/workload';
import type { ClaimOwner } from '@kruise-ts/workload';

import type { RevisionStore } from './sync/sync-context.ts';

type ReadonlyRevision = DeepReadonly<ControllerRevision>;

/** The revisions a reconcile works with. */
export interface ActiveRevisions {
  readonly currentRevision: ReadonlyRevision;
  readonly updateRevision: ReadonlyRevision;
  readonly collisionCount: number;
  /** Every revision of the CloneSet, sorted oldest first. */
  readonly revisions: readonly ReadonlyRevision[];
}

export interface RevisionsInput {
  readonly store: RevisionStore;
  readonly revisions: Lister<ControllerRevision>;
  readonly cs: DeepReadonly<CloneSet>;
  /** The CloneSet as the owner that claims revisions (adoption needs a fresh check that it still exists). */
  readonly owner: ClaimOwner;
  readonly canAdopt: () => Promise<boolean>;
}

/**
 * The CloneSet's revisions: those it controls, plus orphans in its namespace whose labels match its
 * selector, adopted as the ReplicaSet controller adopts pods (OpenKruise claims revisions with its
 * refmanager the same way). After an orphaning delete and re-create of the CloneSet its revisions
 * are orphans with the very names the new CloneSet computes; without adoption it would try to create
 * them on every reconcile (AlreadyExists) and lose the history of the pods still at older revisions.
 */
async function claimRevisions(input: RevisionsInput): Promise<ReadonlyRevision[]> {
  const { cs } = input;
  const namespace = cs.metadata.namespace ?? '';
  const owned = input.revisions.byIndex(CONTROLLER_UID_INDEX, cs.metadata.uid ?? '');
  const orphans = input.revisions
    .byIndex(CONTROLLER_UID_INDEX, NO_CONTROLLER)
    .filter((revision) => revision.metadata?.namespace === namespace && matchesLabelSelector(cs.spec.selector, revision.metadata.labels));
  if (orphans.length === 0 && owned.every((revision) => matchesLabelSelector(cs.spec.selector, revision.metadata?.labels))) {
    return owned;
  }
  return claimObjects<ReadonlyRevision>({
    owner: input.owner,
    selector: cs.spec.selector,
    objects: [...owned, ...orphans],
    kind: 'revision',
    patch: (revision, patch) => input.store.patch(keyOf(revision), patch),
    canAdopt: input.canAdopt,
  });
}

/**
 * The update revision (the current template's, created or reused: an equal older one is taken back
 * with a new revision number, which is how a rollback to an earlier template avoids a new hash) and
 * the current revision (status.currentRevision, or the update revision when that is unknown).
 */
export async function activeRevisions(input: RevisionsInput): Promise<ActiveRevisions> {
  const { cs } = input;
  const owned = sortRevisions(await claimRevisions(input));
  // The volumeClaimTemplates hash rides on every revision (RecreatePodWhenChangeVCTInCloneSetGate
  // compares them), refreshed when an older equal revision is taken back.
  const vctHash = { [VOLUME_CLAIM_TEMPLATES_HASH_ANNOTATION]: volumeClaimTemplatesHash(cs.spec.volumeClaimTemplates ?? []) };
  const ensured = await ensureUpdateRevision({
    client: input.store,
    owner: { name: cs.metadata.name ?? '', namespace: cs.metadata.namespace ?? '', uid: cs.metadata.uid ?? '', apiVersion: cs.apiVersion, kind: cs.kind },
    template: cs.spec.template,
    ownerAnnotations: { ...cs.metadata.annotations, ...vctHash },
    reuseAnnotations: vctHash,
    revisions: owned,
    collisionCount: cs.status?.collisionCount ?? 0,
  });
  const currentRevision = currentRevisionFor({ revisions: ensured.revisions, statusCurrentRevision: cs.status?.currentRevision, updateRevision: ensured.updateRevision });
  return { currentRevision, updateRevision: ensured.updateRevision, collisionCount: ensured.collisionCount, revisions: ensured.revisions };
}

/**
 * Deletes revisions beyond `revisionHistoryLimit`, never the current or update revision nor one that
 * an active pod is still at. Failures are logged by the caller and retried next time.
 */
export async function truncateHistory(input: { store: Pick<RevisionStore, 'delete'>; cs: DeepReadonly<CloneSet>; active: ActiveRevisions; pods: readonly DeepReadonly<Pod>[] }): Promise<void> {
  const live = liveRevisionNames({
    revisions: input.active.revisions,
    currentRevision: input.active.currentRevision.metadata?.name ?? '',
    updateRevision: input.active.updateRevision.metadata?.name ?? '',
    pods: input.pods,
  });
  for (const revision of revisionsToTruncate({ revisions: input.active.revisions, live, limit: input.cs.spec.revisionHistoryLimit })) {
    await input.store.delete(keyOf(revision));
  }
}
