/**
 * `rollout status`: looks at the object (and, for CloneSets and Advanced StatefulSets, its pods) until
 * the rollout is done (exit 0), fails (exit 1 with the condition's message) or --timeout passes (exit 1).
 * It polls rather than watches: a look every half second is cheap for one object, and a poll never
 * has to restart a watch the API server closed.
 */
import { setTimeout as sleep } from 'node:timers/promises';

import { z } from 'zod';

import { PreconditionError } from '../cli/cli-errors.ts';
import type { Cluster } from '../kubeconfig/connect.ts';
import { objectDisplayName } from '../resources/kinds.ts';
import type { KindId } from '../resources/kinds.ts';
import { parseObjectRef, requireKind } from '../resources/object-ref.ts';
import type { ObjectRef } from '../resources/object-ref.ts';
import { podsInFlight } from '../status/pods-in-flight.ts';
import { progressWriter } from '../status/progress-writer.ts';
import type { ProgressMode } from '../status/progress-writer.ts';
import { listsPods, rolloutProgressOf } from '../status/rollout-progress-of.ts';
import type { RolloutProgress } from '../status/rollout-progress.ts';
import { flightPodResource, statusSubjectResource } from '../status/status-subject.ts';
import type { CommandContext } from './command-context.ts';

export const STATUS_KINDS: readonly KindId[] = ['cloneset', 'advanced-statefulset', 'sidecarset', 'broadcastjob'];

const DEFAULT_COLUMNS = 100;

const statusOptionsSchema = z.object({
  timeout: z.number().nonnegative().default(0),
  progress: z.enum(['auto', 'bars', 'lines']).default('auto'),
  interval: z.number().positive().default(500),
});

export type RolloutStatusOptions = z.output<typeof statusOptionsSchema>;

/** Commander's values for `rollout status`, typed. */
export function rolloutStatusOptions(values: unknown): RolloutStatusOptions {
  return statusOptionsSchema.parse(values);
}

async function look(cluster: Cluster, ref: ObjectRef): Promise<RolloutProgress> {
  const namespace = ref.kind.id === 'sidecarset' ? undefined : cluster.namespace;
  const subject = await cluster.client.get(statusSubjectResource(ref.kind), { namespace, name: ref.name });
  const selector = subject.status?.labelSelector;
  const pods =
    listsPods(ref.kind) && selector !== undefined
      ? (await cluster.client.list(flightPodResource, { namespace, labelSelector: selector })).items
      : [];
  return rolloutProgressOf(ref.kind, subject, podsInFlight(pods, subject.metadata.uid));
}

function modeOf(context: CommandContext, progress: RolloutStatusOptions['progress']): ProgressMode {
  if (progress !== 'auto') {
    return progress;
  }
  return context.io.terminalColumns === undefined ? 'lines' : 'bars';
}

export async function rolloutStatus(
  context: CommandContext,
  args: readonly string[],
  options: RolloutStatusOptions,
): Promise<void> {
  const ref = requireKind(parseObjectRef(args), 'rollout status', STATUS_KINDS);
  const cluster = await context.cluster();
  const writer = progressWriter({
    mode: modeOf(context, options.progress),
    write: context.io.stdout,
    title: objectDisplayName(ref.kind, ref.name),
    columns: context.io.terminalColumns ?? DEFAULT_COLUMNS,
    colour: context.io.colour === true,
  });
  const deadline = options.timeout === 0 ? Number.POSITIVE_INFINITY : Date.now() + options.timeout;
  for (;;) {
    const progress = await look(cluster, ref);
    writer.show(progress);
    if (progress.phase === 'done') {
      return;
    }
    if (progress.phase === 'failed') {
      throw new PreconditionError(progress.message);
    }
    const left = deadline - Date.now();
    if (left <= 0) {
      throw new PreconditionError('timed out waiting for the condition');
    }
    await sleep(Math.min(options.interval, left));
  }
}
