/** `scale --replicas N [--delete pod-a,pod-b]`: replicas and the pods to take out, in one patch. */
import { parsePodList, scalePatch } from '../edits/scale-in.ts';
import { parseObjectRef, requireKind } from '../resources/object-ref.ts';
import type { CommandContext } from './command-context.ts';
import { ROLLOUT_KINDS } from './command-context.ts';
import { checkOwnedPods } from './owned-pods.ts';
import { retryOnConflict } from './retry-on-conflict.ts';
import { readTarget, targetOf } from './target.ts';

export interface ScaleOptions {
  readonly replicas: number;
  /** `--delete`: pod names separated by commas. */
  readonly delete?: string | undefined;
}

export async function scale(context: CommandContext, args: readonly string[], options: ScaleOptions): Promise<void> {
  const ref = requireKind(parseObjectRef(args), 'scale', ROLLOUT_KINDS);
  const pods = options.delete === undefined ? [] : parsePodList(options.delete);
  const target = targetOf(ref, await context.cluster());
  await retryOnConflict(async () => {
    const object = await readTarget(target);
    const patch = scalePatch(ref.kind, object, { replicas: options.replicas, pods });
    await checkOwnedPods(target, object, pods);
    await target.cluster.client.patch(target.resource, target.key, { type: 'merge', body: patch });
  });
  context.io.stdout(`${target.displayName} scaled\n`);
}
