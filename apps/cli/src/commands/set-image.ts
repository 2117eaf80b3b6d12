/** `set image TYPE/NAME CONTAINER=IMAGE...`, kubectl's syntax; like kubectl, silent when nothing changes. */
import { imagePatch, splitSetImageArgs } from '../edits/set-image.ts';
import { parseObjectRef, requireKind } from '../resources/object-ref.ts';
import type { CommandContext } from './command-context.ts';
import { ROLLOUT_KINDS } from './command-context.ts';
import { readTarget, targetOf } from './target.ts';

export async function setImage(context: CommandContext, args: readonly string[]): Promise<void> {
  const { objectArgs, updates } = splitSetImageArgs(args);
  const ref = requireKind(parseObjectRef(objectArgs), 'set image', ROLLOUT_KINDS);
  const target = targetOf(ref, await context.cluster());
  const operations = imagePatch(await readTarget(target), updates, target.displayName);
  if (operations.length === 0) {
    return;
  }
  await target.cluster.client.patch(target.resource, target.key, { type: 'json', body: operations });
  context.io.stdout(`${target.displayName} image updated\n`);
}
