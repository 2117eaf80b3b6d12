import type { CloneSet, ControllerRevision } from '@kruise-ts/api';
import type { DeepReadonly, Lister } from '@kruise-ts/controller-runtime';
import {
  activeRevisions as workloadRevisions,
  VOLUME_CLAIM_TEMPLATES_HASH_ANNOTATION,
  volumeClaimTemplatesHash,
} from '@kruise-ts/revision';
import type { ActiveRevisions, RevisionStore } from '@kruise-ts/revision';
import type { ClaimOwner } from '@kruise-ts/workload';

export type { ActiveRevisions } from '@kruise-ts/revision';

export interface RevisionsInput {
  readonly store: RevisionStore;
  readonly revisions: Lister<ControllerRevision>;
  readonly cs: DeepReadonly<CloneSet>;
  /** The CloneSet as the owner that claims revisions (adoption needs a fresh check that it still exists). */
  readonly owner: ClaimOwner;
  readonly canAdopt: () => Promise<boolean>;
}

/**
 * The CloneSet's revisions (the revision package's claim, ensure and pick). The volumeClaimTemplates
 * hash rides on every revision (RecreatePodWhenChangeVCTInCloneSetGate compares them), refreshed
 * when an older equal revision is taken back.
 */
export function activeRevisions(input: RevisionsInput): Promise<ActiveRevisions> {
  const { cs } = input;
  const vctHash = {
    [VOLUME_CLAIM_TEMPLATES_HASH_ANNOTATION]: volumeClaimTemplatesHash(cs.spec.volumeClaimTemplates ?? []),
  };
  return workloadRevisions({
    store: input.store,
    cache: input.revisions,
    owner: input.owner,
    selector: cs.spec.selector,
    template: cs.spec.template,
    annotations: { ...cs.metadata.annotations, ...vctHash },
    reuseAnnotations: vctHash,
    collisionCount: cs.status?.collisionCount ?? 0,
    statusCurrentRevision: cs.status?.currentRevision,
    canAdopt: input.canAdopt,
  });
}
