/** `rollout history TYPE/NAME [--revision N]`: the workload's ControllerRevisions, as kubectl lists a StatefulSet's. */
import { labelSelectorToString } from '@kruise-ts/controller-runtime';
import { z } from 'zod';

import { historyText } from '../history/history-text.ts';
import { controllerRevisions, labelSelectorSchema } from '../history/revision-resource.ts';
import type { RevisionObject } from '../history/revision-resource.ts';
import { controlledRevisions } from '../history/workload-history.ts';
import { parseObjectRef, requireKind } from '../resources/object-ref.ts';
import type { WorkloadObject } from '../resources/workload-object.ts';
import type { CommandContext } from './command-context.ts';
import { ROLLOUT_KINDS } from './command-context.ts';
import { readTarget, targetOf } from './target.ts';
import type { Target } from './target.ts';

const historyOptionsSchema = z.object({ revision: z.int().nonnegative().optional() });

export type HistoryOptions = z.infer<typeof historyOptionsSchema>;

/** Commander's options of the command, checked. */
export function historyOptions(values: unknown): HistoryOptions {
  return historyOptionsSchema.parse(values);
}

export async function rolloutHistory(
  context: CommandContext,
  args: readonly string[],
  options: HistoryOptions,
): Promise<void> {
  const ref = requireKind(parseObjectRef(args), 'rollout history', ROLLOUT_KINDS);
  const target = targetOf(ref, await context.cluster());
  const history = await readHistory(target, await readTarget(target));
  context.io.stdout(historyText({ displayName: target.displayName, history, revision: options.revision ?? 0 }));
}

/**
 * The workload's revisions, oldest first: those in its namespace that carry its selector's labels (as
 * OpenKruise labels them) and that it controls.
 */
export async function readHistory(target: Target, object: WorkloadObject): Promise<RevisionObject[]> {
  const selector = labelSelectorSchema.safeParse(object.spec['selector'] ?? {});
  // An unreadable selector lists the whole namespace: ownership alone decides what is the workload's.
  const labelSelector = selector.success ? labelSelectorToString(selector.data) : '';
  const list = await target.cluster.client.listAll(controllerRevisions, {
    namespace: target.key.namespace,
    labelSelector,
  });
  return controlledRevisions(object.metadata.uid, list.items);
}
