/**
 * The per-pod refresh that runs before any update (OpenKruise's inplaceupdate `Refresh`): it ends
 * grace periods, applies batches OpenKruise deferred, and reports whether an in-place update is still
 * running or has finished. It never writes the completion itself: that is
 * `completeInPlaceUpdate`, so that the caller can put its lifecycle label into the same write.
 */
import type { Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { isPodAtRevision } from '@kruise-ts/revision';

import { INPLACE_UPDATE_GRACE_ANNOTATION, INPLACE_UPDATE_STATE_ANNOTATION } from './annotations.ts';
import { containersUpdated, hasNextBatch } from './completion.ts';
import { completionConditions } from './conditions.ts';
import { InPlaceUpdateAnnotationError } from './errors.ts';
import { graceAnnotation } from './grace-spec.ts';
import { finishGracePeriod } from './grace-period.ts';
import type { RefreshStep } from './grace-period.ts';
import { applyNextBatch, preCheckPassed } from './next-batch.ts';
import { PodWriter } from './pod-writes.ts';
import type { InPlaceUpdateClient } from './pod-writes.ts';
import { stateAnnotation } from './state.ts';

type ReadonlyPod = DeepReadonly<Pod>;

/** What a refresh found or did. */
export type RefreshOutcome = RefreshStep['outcome'];

/** Input of {@link refreshInPlaceUpdate}. */
export interface RefreshInPlaceUpdateInput {
  readonly client: InPlaceUpdateClient;
  /** The pod, usually from a cache. */
  readonly pod: ReadonlyPod;
  /** Current time in ms since the epoch. */
  readonly now: number;
  /** InPlaceWorkloadVerticalScaling. */
  readonly verticalScaling: boolean;
  /**
   * Whether the pod is labelled with a revision (for dropping a stale grace spec). Defaults to the
   * CloneSet rule of @kruise-ts/revision (full name or short hash); workloads that compare exactly pass
   * their own.
   */
  readonly isPodAtRevision?: ((pod: ReadonlyPod, revision: string) => boolean) | undefined;
}

/** What {@link refreshInPlaceUpdate} did. */
export interface RefreshInPlaceUpdateResult extends RefreshStep {
  /** Write requests sent, Conflicts included. */
  readonly writes: number;
}

function podName(pod: ReadonlyPod): string {
  return `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;
}

/**
 * Why the pod's in-place update annotations (grace spec, state) cannot be read, naming the annotation,
 * or undefined when they can (or are absent). Such a pod cannot be refreshed or updated in place
 * until someone fixes or removes the annotation: a caller updating many pods reports it and goes on
 * with the others, instead of letting one pod stop them all.
 */
export function inPlaceUpdateAnnotationProblem(pod: ReadonlyPod): string | undefined {
  const grace = graceAnnotation(pod);
  if (grace.kind === 'malformed') {
    return `${INPLACE_UPDATE_GRACE_ANNOTATION}: ${grace.error}`;
  }
  const read = stateAnnotation(pod);
  return read.kind === 'malformed' ? `${INPLACE_UPDATE_STATE_ANNOTATION}: ${read.error}` : undefined;
}

async function refreshStep(
  input: RefreshInPlaceUpdateInput,
  writer: PodWriter,
  pod: ReadonlyPod,
): Promise<RefreshStep> {
  const problem = inPlaceUpdateAnnotationProblem(pod);
  if (problem !== undefined) {
    throw new InPlaceUpdateAnnotationError(podName(pod), problem);
  }
  const grace = graceAnnotation(pod);
  if (grace.kind === 'spec') {
    return finishGracePeriod({
      writer,
      pod,
      spec: grace.spec,
      now: input.now,
      isPodAtRevision: input.isPodAtRevision ?? isPodAtRevision,
    });
  }
  const read = stateAnnotation(pod);
  if (read.kind === 'state') {
    if (!containersUpdated(pod, read.state, { verticalScaling: input.verticalScaling })) {
      return { pod, outcome: 'in-progress', delayMs: undefined };
    }
    if (hasNextBatch(read.state)) {
      const next = preCheckPassed(pod, read.state)
        ? await applyNextBatch({
            writer,
            pod,
            state: read.state,
            now: input.now,
            verticalScaling: input.verticalScaling,
          })
        : pod;
      return { pod: next, outcome: 'in-progress', delayMs: undefined };
    }
  }
  return { pod, outcome: completionConditions(pod, input.now).length > 0 ? 'completed' : 'none', delayMs: undefined };
}

/**
 * Whether {@link refreshInPlaceUpdate} may write or ask for a requeue for this pod: a grace period is
 * pending, a deferred batch may be due, or an annotation is unreadable (the refresh reports it). When
 * false, the refresh would return the pod unchanged with no write and no delay, so a caller that
 * refreshes every pod on every reconcile can skip it (both annotations are parsed once per object).
 */
export function inPlaceRefreshPending(pod: ReadonlyPod): boolean {
  if (graceAnnotation(pod).kind !== 'absent') {
    return true;
  }
  const read = stateAnnotation(pod);
  return read.kind === 'malformed' || (read.kind === 'state' && hasNextBatch(read.state));
}

/**
 * Refreshes the pod's in-place update state. Outcomes:
 * - `grace-waiting`: a grace period runs; refresh again after `delayMs` (whole seconds);
 * - `grace-applied`: the grace period ended and the spec was written to the pod;
 * - `grace-dropped`: the pod's revision label no longer matches the pending spec, which was removed;
 * - `in-progress`: the containers have not yet run what the update asked for (or a deferred batch was
 *   just written);
 * - `completed`: nothing to wait for and `completionConditions(pod, now)` is not empty: call
 *   `completeInPlaceUpdate` (with the lifecycle labels) to mark the pod ready again;
 * - `none`: nothing to do (no update, or its completion is already written, or the pod has no
 *   InPlaceUpdateReady readiness gate: use `isInPlaceUpdateCompleted` for lifecycle decisions).
 * Writes only for grace periods and deferred batches, with the pod's resourceVersion as precondition
 * and bounded retries on Conflict. Throws InPlaceUpdateAnnotationError for unreadable annotations.
 */
export async function refreshInPlaceUpdate(input: RefreshInPlaceUpdateInput): Promise<RefreshInPlaceUpdateResult> {
  const writer = new PodWriter(input.client, input.pod);
  const step = await writer.withConflictRetry(input.pod, (pod) => refreshStep(input, writer, pod));
  return { ...step, writes: writer.writes };
}
