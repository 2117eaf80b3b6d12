/**
 * Whether a workload's template already is a revision's: OpenKruise's own test (the revision data of
 * the template, byte for byte), which is also how its controller decides that a template is an older
 * revision taken back.
 */
import type { PodTemplateSpec } from '@kruise-ts/api';
import { equalRevision, revisionData, TemplateDecodeError } from '@kruise-ts/revision';
import type { RevisionLike } from '@kruise-ts/revision';

export function templateMatches(template: unknown, revision: RevisionLike): boolean {
  try {
    // revisionData decodes its input as Go decodes a PodTemplateSpec, and throws where Go would fail.
    return equalRevision(revision, revisionData(template as PodTemplateSpec));
  } catch (error) {
    // A template Go cannot read is no revision's: restoring one repairs it.
    if (error instanceof TemplateDecodeError) {
      return false;
    }
    throw error;
  }
}
