/**
 * What `rollout history` prints, as kubectl prints it: the object's name, then its table of revisions,
 * or with `--revision N` that revision's pod template; "No rollout history found." for an object
 * without revisions (a workload no controller has reconciled yet).
 */
import { PreconditionError } from '../cli/cli-errors.ts';
import { historyTable } from './history-table.ts';
import { podTemplateText } from './pod-template-text.ts';
import type { RevisionObject } from './revision-resource.ts';
import { revisionTemplate } from './revision-template.ts';
import { findRevision } from './workload-history.ts';

export interface HistoryTextInput {
  /** `cloneset.apps.kruise.io/web`. */
  readonly displayName: string;
  /** The object's revisions, sorted. */
  readonly history: readonly RevisionObject[];
  /** `--revision`; 0 (kubectl's default) lists them all. */
  readonly revision: number;
}

export function historyText(input: HistoryTextInput): string {
  const { displayName, history, revision } = input;
  if (history.length === 0) {
    return `${displayName}\nNo rollout history found.\n`;
  }
  if (revision === 0) {
    return `${displayName}\n${historyTable(history)}\n`;
  }
  const found = findRevision(history, revision);
  if (found === undefined) {
    throw new PreconditionError('unable to find the specified revision');
  }
  const template = revisionTemplate(found);
  if (template === undefined) {
    throw new PreconditionError(`unable to parse history ${found.metadata.name}`);
  }
  return `${displayName} with revision #${revision}\n${podTemplateText(template)}\n`;
}
