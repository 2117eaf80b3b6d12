/**
 * A workload's revisions for one reconcile, the same for CloneSet and Advanced StatefulSet: claim
 * them (adopting orphans that match the selector), ensure the update revision, pick the current one,
 * and truncate the history.
 */
import type { ControllerRevision, LabelSelector, PodTemplateSpec } from '@kruise-ts/api';
import { controllerRef, keyOf, matchesLabelSelector } from '@kruise-ts/controller-runtime';
import type { DeepReadonly, Lister, ResourceClient } from '@kruise-ts/controller-runtime';
import { claimCandidates, claimObjects } from '@kruise-ts/workload';
import type { ClaimOwner } from '@kruise-ts/workload';

import { ensureUpdateRevision } from './ensure-update-revision.ts';
import { currentRevisionFor, liveRevisionNames, revisionsToTruncate, sortRevisions } from './revision-history.ts';
import type { PodLike } from './pod-revision-labels.ts';

type ReadonlyRevision = DeepReadonly<ControllerRevision>;

/** The calls on ControllerRevisions a workload's revisions need (bound to the reconcile's signal). */
export type RevisionStore = Pick<ResourceClient<ControllerRevision>, 'get' | 'create' | 'patch' | 'delete'>;

/** The revisions a reconcile works with. */
export interface ActiveRevisions {
  readonly currentRevision: ReadonlyRevision;
  readonly updateRevision: ReadonlyRevision;
  readonly collisionCount: number;
  /** Every revision of the workload, sorted oldest first. */
  readonly revisions: readonly ReadonlyRevision[];
}

/** Inputs of {@link activeRevisions}. */
export interface ActiveRevisionsInput {
  readonly store: RevisionStore;
  readonly cache: Lister<ControllerRevision>;
  /** The workload as the owner that claims revisions. */
  readonly owner: ClaimOwner;
  readonly selector: DeepReadonly<LabelSelector>;
  readonly template: DeepReadonly<PodTemplateSpec>;
  /** Copied onto a new revision: the workload's annotations (OpenKruise copies them all) and any of its own. */
  readonly annotations: Readonly<Record<string, string>>;
  /** Refreshed on an older equal revision when it is taken back (CloneSet's volumeClaimTemplates hash). */
  readonly reuseAnnotations?: Readonly<Record<string, string>>;
  /** `status.collisionCount`. */
  readonly collisionCount: number;
  /** `status.currentRevision`. */
  readonly statusCurrentRevision: string | undefined;
  /** A fresh check that the owner still exists with its uid, before anything is adopted. */
  readonly canAdopt: () => Promise<boolean>;
}

/**
 * The workload's revisions: those it controls, plus orphans in its namespace whose labels match its
 * selector, adopted as the ReplicaSet controller adopts pods (OpenKruise claims revisions with its
 * refmanager the same way). After an orphaning delete and re-create of the workload its revisions
 * are orphans with the very names the new one computes; without adoption it would try to create
 * them on every reconcile (AlreadyExists) and lose the history of the pods still at older revisions.
 */
async function claimRevisions(input: ActiveRevisionsInput): Promise<ReadonlyRevision[]> {
  const { owner, selector } = input;
  const candidates = claimCandidates(input.cache, owner, selector);
  // Nearly always: every revision is ours and matches, so there is nothing to adopt or release.
  if (
    candidates.every(
      (revision) =>
        controllerRef(revision)?.uid === owner.uid && matchesLabelSelector(selector, revision.metadata?.labels),
    )
  ) {
    return candidates;
  }
  return claimObjects<ReadonlyRevision>({
    owner,
    selector,
    objects: candidates,
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
export async function activeRevisions(input: ActiveRevisionsInput): Promise<ActiveRevisions> {
  const { owner } = input;
  const owned = sortRevisions(await claimRevisions(input));
  const ensured = await ensureUpdateRevision({
    client: input.store,
    owner: {
      name: owner.name,
      namespace: owner.namespace,
      uid: owner.uid,
      apiVersion: owner.apiVersion,
      kind: owner.kind,
    },
    template: input.template,
    ownerAnnotations: input.annotations,
    reuseAnnotations: input.reuseAnnotations,
    revisions: owned,
    collisionCount: input.collisionCount,
  });
  const currentRevision = currentRevisionFor({
    revisions: ensured.revisions,
    statusCurrentRevision: input.statusCurrentRevision,
    updateRevision: ensured.updateRevision,
  });
  return {
    currentRevision,
    updateRevision: ensured.updateRevision,
    collisionCount: ensured.collisionCount,
    revisions: ensured.revisions,
  };
}

/** Inputs of {@link truncateHistory}. */
export interface TruncateHistoryInput {
  readonly store: Pick<RevisionStore, 'delete'>;
  readonly active: ActiveRevisions;
  /** The workload's pods: a revision one of them is at is never deleted. */
  readonly pods: readonly PodLike[];
  /** `revisionHistoryLimit`. */
  readonly limit: number | undefined;
}

/**
 * Deletes revisions beyond `revisionHistoryLimit`, never the current or update revision nor one that
 * a pod is still at. Failures are the caller's to log; the next reconcile tries again.
 */
export async function truncateHistory(input: TruncateHistoryInput): Promise<void> {
  const live = liveRevisionNames({
    revisions: input.active.revisions,
    currentRevision: input.active.currentRevision.metadata?.name ?? '',
    updateRevision: input.active.updateRevision.metadata?.name ?? '',
    pods: input.pods,
  });
  for (const revision of revisionsToTruncate({ revisions: input.active.revisions, live, limit: input.limit })) {
    await input.store.delete(keyOf(revision));
  }
}
