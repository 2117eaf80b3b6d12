/**
 * Finishing an in-place update in one write: a strategic-merge patch of pods/status carrying the
 * completion conditions (InPlaceUpdateReady True, Ready recomputed) together with the caller's labels
 * and annotations (for example lifecycle state Normal), which the status subresource accepts as well.
 * OpenKruise needs two writes for this (UpdateStatus, then the lifecycle patch).
 */
import type { Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

import { completionConditions, conditionPatch } from './conditions.ts';
import { changedEntries, metadataMaps, PodWriter, resourceVersionOf } from './pod-writes.ts';
import type { InPlaceUpdateClient } from './pod-writes.ts';

type ReadonlyPod = DeepReadonly<Pod>;

/** Input of {@link completeInPlaceUpdate}. */
export interface CompleteInPlaceUpdateInput {
  readonly client: InPlaceUpdateClient;
  readonly pod: ReadonlyPod;
  /** Current time in ms since the epoch. */
  readonly now: number;
  /** Labels to write in the same patch (e.g. the lifecycle state). */
  readonly labels?: Readonly<Record<string, string>> | undefined;
  /** Annotations to write in the same patch (e.g. the lifecycle timestamp). */
  readonly annotations?: Readonly<Record<string, string>> | undefined;
}

/** What {@link completeInPlaceUpdate} did. */
export interface CompleteInPlaceUpdateResult {
  /** The pod as written, or the input object itself when nothing needed writing. */
  readonly pod: ReadonlyPod;
  /** Write requests sent, Conflicts included. */
  readonly writes: number;
}

/**
 * Writes `completionConditions(pod, now)` and the labels/annotations that differ from the pod's, in
 * one pods/status patch with the pod's resourceVersion as precondition; after a Conflict it reads the
 * pod and recomputes (bounded). Call it when `refreshInPlaceUpdate` says `completed`, or whenever the
 * labels must change anyway: without anything to change, nothing is written.
 */
export async function completeInPlaceUpdate(input: CompleteInPlaceUpdateInput): Promise<CompleteInPlaceUpdateResult> {
  const writer = new PodWriter(input.client, input.pod);
  const pod = await writer.withConflictRetry(input.pod, async (current) => {
    const conditions = completionConditions(current, input.now);
    const labels = changedEntries(current.metadata?.labels, input.labels ?? {});
    const annotations = changedEntries(current.metadata?.annotations, input.annotations ?? {});
    if (conditions.length === 0 && Object.keys(labels).length === 0 && Object.keys(annotations).length === 0) {
      return current;
    }
    return writer.patchStatus({
      metadata: { ...resourceVersionOf(current), ...metadataMaps(labels, annotations) },
      ...(conditions.length > 0 ? { status: { conditions: conditions.map(conditionPatch) } } : {}),
    });
  });
  return { pod, writes: writer.writes };
}
