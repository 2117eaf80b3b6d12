import type { CloneSet, ControllerRevision } from '@kruise-ts/api';
import { CONTROLLER_UID_INDEX } from '@kruise-ts/controller-runtime';
import type { Client, DeepReadonly, Lister } from '@kruise-ts/controller-runtime';
import {
  controllerRevisionResource,
  currentRevisionFor,
  ensureUpdateRevision,
  liveRevisionNames,
  revisionsToTruncate,
  sortRevisions,
  VOLUME_CLAIM_TEMPLATES_HASH_ANNOTATION,
  volumeClaimTemplatesHash,
} from '@kruise-ts/revision';
import type { Pod } from '@kruise-ts/api';

/** The revisions a reconcile works with. */
export interface ActiveRevisions {
  readonly currentRevision: DeepReadonly<ControllerRevision>;
  readonly updateRevision: DeepReadonly<ControllerRevision>;
  readonly collisionCount: number;
  /** Every revision of the CloneSet, sorted oldest first. */
  readonly revisions: readonly DeepReadonly<ControllerRevision>[];
}

export interface RevisionsInput {
  readonly client: Client;
  readonly revisions: Lister<ControllerRevision>;
  readonly cs: DeepReadonly<CloneSet>;
}

/**
 * The update revision (the current template's, created or reused: an equal older one is taken back
 * with a new revision number, which is how a rollback to an earlier template avoids a new hash) and
 * the current revision (status.currentRevision, or the update revision when that is unknown).
 */
export async function activeRevisions(input: RevisionsInput): Promise<ActiveRevisions> {
  const { cs } = input;
  const owned = sortRevisions(input.revisions.byIndex(CONTROLLER_UID_INDEX, cs.metadata.uid ?? ''));
  // The volumeClaimTemplates hash rides on every revision (RecreatePodWhenChangeVCTInCloneSetGate
  // compares them), refreshed when an older equal revision is taken back.
  const vctHash = { [VOLUME_CLAIM_TEMPLATES_HASH_ANNOTATION]: volumeClaimTemplatesHash(cs.spec.volumeClaimTemplates ?? []) };
  const ensured = await ensureUpdateRevision({
    client: input.client,
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
export async function truncateHistory(input: { client: Client; cs: DeepReadonly<CloneSet>; active: ActiveRevisions; pods: readonly DeepReadonly<Pod>[] }): Promise<void> {
  const live = liveRevisionNames({
    revisions: input.active.revisions,
    currentRevision: input.active.currentRevision.metadata?.name ?? '',
    updateRevision: input.active.updateRevision.metadata?.name ?? '',
    pods: input.pods,
  });
  for (const revision of revisionsToTruncate({ revisions: input.active.revisions, live, limit: input.cs.spec.revisionHistoryLimit })) {
    await input.client.delete(controllerRevisionResource, { namespace: revision.metadata?.namespace, name: revision.metadata?.name ?? '' });
  }
}
