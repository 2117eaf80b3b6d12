/** `rollout restart`: kubectl's restartedAt template annotation, so the controller replaces every pod. */
import { PreconditionError } from '../cli/cli-errors.ts';
import { isPaused } from '../edits/pause.ts';
import { restartPatch } from '../edits/restart.ts';
import { parseObjectRef, requireKind } from '../resources/object-ref.ts';
import type { CommandContext } from './command-context.ts';
import { ROLLOUT_KINDS } from './command-context.ts';
import { readTarget, targetOf } from './target.ts';

export async function rolloutRestart(context: CommandContext, args: readonly string[]): Promise<void> {
  const ref = requireKind(parseObjectRef(args), 'rollout restart', ROLLOUT_KINDS);
  const target = targetOf(ref, await context.cluster());
  const object = await readTarget(target);
  // A paused workload would take the new template and not roll it out: refused, as kubectl refuses a paused Deployment.
  if (isPaused(ref.kind, object)) {
    throw new PreconditionError(`can't restart paused ${ref.kind.singular} ${ref.name} (run rollout resume first)`);
  }
  await target.cluster.client.patch(target.resource, target.key, {
    type: 'merge',
    body: restartPatch(context.io.now()),
  });
  context.io.stdout(`${target.displayName} restarted\n`);
}
