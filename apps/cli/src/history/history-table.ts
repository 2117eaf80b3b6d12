/**
 * `rollout history` without `--revision`: kubectl's table of revision numbers and change causes, and
 * our own column of each revision's container images, which tells revisions apart when no change
 * cause was recorded. IMAGES comes last so that the first two columns are kubectl's.
 */
import { revisionTemplate } from './revision-template.ts';
import type { RevisionObject } from './revision-resource.ts';
import { tabulate } from './tabulate.ts';
import { CHANGE_CAUSE_ANNOTATION } from './workload-history.ts';

const NONE = '<none>';

/** The table of a sorted history, one line per revision, each ending with a newline. */
export function historyTable(history: readonly RevisionObject[]): string {
  const rows = history.map((revision) => `${revision.revision}\t${changeCause(revision)}\t${revisionImages(revision)}`);
  return `${tabulate(['REVISION\tCHANGE-CAUSE\tIMAGES', ...rows])}\n`;
}

function changeCause(revision: RevisionObject): string {
  // A tab or a line break would split the row.
  const cause = (revision.metadata.annotations?.[CHANGE_CAUSE_ANNOTATION] ?? '').replace(/[\t\r\n]+/g, ' ');
  return cause === '' ? NONE : cause;
}

/** The images of the revision's containers, in order, as `kubectl get -o wide` lists them. */
export function revisionImages(revision: Pick<RevisionObject, 'data'>): string {
  const template = revisionTemplate(revision);
  if (template === undefined) {
    return '<unreadable revision data>';
  }
  const images = template.spec.containers.map((container) => container.image ?? NONE);
  return images.length === 0 ? NONE : images.join(',');
}
