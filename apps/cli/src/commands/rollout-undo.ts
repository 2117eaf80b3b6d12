/**
 * `rollout undo TYPE/NAME [--to-revision N]`: the pod template of a ControllerRevision back on the
 * workload, which its controller then rolls out (taking the older revision back under a new number).
 * kubectl's rules: the previous revision by default, nothing written when the template already is
 * that revision's, and no rollback of a paused workload.
 */
import { templateFromRevision } from '@kruise-ts/revision';
import { z } from 'zod';

import { PreconditionError } from '../cli/cli-errors.ts';
import { isPaused } from '../edits/pause.ts';
import { templateMatches } from '../history/template-match.ts';
import { rollbackPatch } from '../history/template-patch.ts';
import { undoTarget } from '../history/workload-history.ts';
import { objectErrorName, preferredSpelling } from '../resources/kinds.ts';
import { parseObjectRef, requireKind } from '../resources/object-ref.ts';
import type { CommandContext } from './command-context.ts';
import { ROLLOUT_KINDS } from './command-context.ts';
import { retryOnConflict } from './retry-on-conflict.ts';
import { readHistory } from './rollout-history.ts';
import { readTarget, targetOf } from './target.ts';
import type { Target } from './target.ts';

const undoOptionsSchema = z.object({ toRevision: z.int().nonnegative().optional() });

export type UndoOptions = z.infer<typeof undoOptionsSchema>;

/** Commander's options of the command, checked. */
export function undoOptions(values: unknown): UndoOptions {
  return undoOptionsSchema.parse(values);
}

export async function rolloutUndo(
  context: CommandContext,
  args: readonly string[],
  options: UndoOptions,
): Promise<void> {
  const ref = requireKind(parseObjectRef(args), 'rollout undo', ROLLOUT_KINDS);
  const target = targetOf(ref, await context.cluster());
  // The patch carries the resourceVersion it was decided at; a conflict reads and decides again.
  const outcome = await retryOnConflict(() =>
    undoOnce(target, { toRevision: options.toRevision ?? 0, programName: context.io.programName }),
  );
  context.io.stdout(`${target.displayName} ${outcome}\n`);
}

async function undoOnce(
  target: Target,
  options: { readonly toRevision: number; readonly programName: string },
): Promise<string> {
  const { kind, name } = target.ref;
  const object = await readTarget(target);
  const revision = undoTarget(await readHistory(target, object), options.toRevision, objectErrorName(kind, name));
  // A paused workload would take the template and not roll it out, as kubectl says of a paused Deployment.
  if (isPaused(kind, object)) {
    throw new PreconditionError(
      `you cannot rollback a paused ${kind.singular}; resume it first with '${options.programName} rollout resume ${preferredSpelling(kind)}/${name}' and try again`,
    );
  }
  if (templateMatches(object.spec.template, revision)) {
    return `skipped rollback (current template already matches revision ${revision.revision})`;
  }
  const patch = rollbackPatch({
    resourceVersion: object.metadata.resourceVersion,
    current: object.spec.template,
    target: templateFromRevision(revision),
  });
  await target.cluster.client.patch(target.resource, target.key, { type: 'merge', body: patch });
  return 'rolled back';
}
