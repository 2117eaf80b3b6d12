/**
 * A workload's history as kubectl reads it for `rollout history` and `rollout undo`: the
 * ControllerRevisions it controls, oldest first, and the one an undo goes back to, with kubectl's
 * messages when there is none.
 */
import { sortRevisions } from '@kruise-ts/revision';

import { PreconditionError } from '../cli/cli-errors.ts';
import type { RevisionObject } from './revision-resource.ts';

/** Set on a workload, it is copied onto the revision its template change makes (OpenKruise copies every annotation). */
export const CHANGE_CAUSE_ANNOTATION = 'kubernetes.io/change-cause';

/**
 * The revisions whose controller reference is the workload (by uid: a revision of an earlier
 * workload of the same name is not its history), sorted by revision number.
 */
export function controlledRevisions(ownerUid: string, revisions: readonly RevisionObject[]): RevisionObject[] {
  return sortRevisions(
    revisions.filter(
      (revision) => revision.metadata.ownerReferences?.find((owner) => owner.controller === true)?.uid === ownerUid,
    ),
  );
}

/** The revision numbered `number`; the newest of them should two share it. */
export function findRevision(revisions: readonly RevisionObject[], number: number): RevisionObject | undefined {
  return revisions.findLast((revision) => revision.revision === number);
}

/**
 * The revision `rollout undo` restores: `toRevision`, or with 0 the one before the newest (kubectl's
 * "previous revision"). `history` is sorted; `objectName` is how errors name the workload.
 */
export function undoTarget(history: readonly RevisionObject[], toRevision: number, objectName: string): RevisionObject {
  if (toRevision > 0) {
    const found = findRevision(history, toRevision);
    if (found === undefined) {
      throw new PreconditionError(`unable to find specified revision ${toRevision} in history`);
    }
    return found;
  }
  if (history.length === 0) {
    throw new PreconditionError(`no rollout history found for ${objectName}`);
  }
  const previous = history.at(-2);
  if (previous === undefined) {
    throw new PreconditionError('no last revision to roll back to');
  }
  return previous;
}
