/** `rollout pause` and `rollout resume`, with kubectl's messages for an object already in that state. */
import { PreconditionError } from '../cli/cli-errors.ts';
import { isPaused, pausePatch } from '../edits/pause.ts';
import { objectErrorName } from '../resources/kinds.ts';
import { parseObjectRef, requireKind } from '../resources/object-ref.ts';
import type { CommandContext } from './command-context.ts';
import { ROLLOUT_KINDS } from './command-context.ts';
import { readTarget, targetOf } from './target.ts';

export async function rolloutPause(context: CommandContext, args: readonly string[], paused: boolean): Promise<void> {
  const ref = requireKind(parseObjectRef(args), paused ? 'rollout pause' : 'rollout resume', ROLLOUT_KINDS);
  const target = targetOf(ref, await context.cluster());
  const object = await readTarget(target);
  if (isPaused(ref.kind, object) === paused) {
    throw new PreconditionError(
      `${objectErrorName(ref.kind, ref.name)} ${paused ? 'is already paused' : 'is not paused'}`,
    );
  }
  await target.cluster.client.patch(target.resource, target.key, {
    type: 'merge',
    body: pausePatch(ref.kind, object, paused),
  });
  context.io.stdout(`${target.displayName} ${paused ? 'paused' : 'resumed'}\n`);
}
