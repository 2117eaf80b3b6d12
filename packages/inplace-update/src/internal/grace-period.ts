/**
 * The end of a grace period (OpenKruise's finishGracePeriod): once `graceSeconds` have passed since the
 * update started, the spec stored in the grace annotation is applied to the pod in one patch that also
 * removes the annotation (and a resize when resources change); a spec for a revision the pod is no
 * longer labelled with is dropped instead.
 */
import type { Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

import {
  annotationDeletions,
  INPLACE_UPDATE_GRACE_ANNOTATION,
  INPLACE_UPDATE_GRACE_ANNOTATION_LEGACY,
  INPLACE_UPDATE_STATE_ANNOTATION,
} from './annotations.ts';
import { InPlaceUpdateAnnotationError } from './errors.ts';
import { patchSpecToPod } from './patch-spec-to-pod.ts';
import type { PodWriter } from './pod-writes.ts';
import { metadataMaps, resourceVersionOf } from './pod-writes.ts';
import { resizePatch } from './resize.ts';
import { formatInPlaceUpdateState, stateAnnotation } from './state.ts';
import type { UpdateSpec } from './update-spec.ts';

type ReadonlyPod = DeepReadonly<Pod>;

/** The result of one refresh step. */
export interface RefreshStep {
  readonly pod: ReadonlyPod;
  readonly outcome: 'none' | 'grace-waiting' | 'grace-applied' | 'grace-dropped' | 'in-progress' | 'completed';
  readonly delayMs: number | undefined;
}

/** Input of {@link finishGracePeriod}. */
export interface FinishGracePeriodInput {
  readonly writer: PodWriter;
  readonly pod: ReadonlyPod;
  readonly spec: UpdateSpec;
  readonly now: number;
  readonly isPodAtRevision: (pod: ReadonlyPod, revision: string) => boolean;
}

function podName(pod: ReadonlyPod): string {
  return `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;
}

/**
 * Milliseconds left of a grace period whose update started at the whole-second `updateTimestamp`.
 * The pod left Ready somewhere within that second, so the period counts from the second's end: the
 * pod is out of Ready for at least `graceSeconds` (OpenKruise counts from the second's start, so its
 * grace period can be up to a second short).
 */
export function graceRemainingMs(updateTimestamp: string | null, graceSeconds: number, now: number): number {
  const started = updateTimestamp === null ? Number.NEGATIVE_INFINITY : Date.parse(updateTimestamp) + 1000;
  return graceSeconds * 1000 - (now - started);
}

/** Milliseconds rounded up to whole seconds, as OpenKruise's roundupSeconds (1.2 s → 2 s). */
export function roundUpToSeconds(ms: number): number {
  return Math.ceil(ms / 1000) * 1000;
}

function graceDeletions(pod: ReadonlyPod): Record<string, null> {
  return annotationDeletions(pod, [INPLACE_UPDATE_GRACE_ANNOTATION, INPLACE_UPDATE_GRACE_ANNOTATION_LEGACY]);
}

/** Applies, waits for or drops the grace annotation's spec; see the file header. */
export async function finishGracePeriod(input: FinishGracePeriodInput): Promise<RefreshStep> {
  const { writer, pod, spec, now } = input;
  const read = stateAnnotation(pod);
  if (read.kind !== 'state') {
    throw new InPlaceUpdateAnnotationError(
      podName(pod),
      read.kind === 'absent'
        ? `has ${INPLACE_UPDATE_GRACE_ANNOTATION} but no ${INPLACE_UPDATE_STATE_ANNOTATION}`
        : `${INPLACE_UPDATE_STATE_ANNOTATION}: ${read.error}`,
    );
  }
  if (!input.isPodAtRevision(pod, spec.revision)) {
    // The pod was relabelled since (a newer update or a rollback): the normal update path takes over.
    const dropped = await writer.patch({ metadata: { ...resourceVersionOf(pod), annotations: graceDeletions(pod) } });
    return { pod: dropped, outcome: 'grace-dropped', delayMs: undefined };
  }
  const remaining = graceRemainingMs(read.state.updateTimestamp, spec.graceSeconds, now);
  if (remaining > 0) {
    return { pod, outcome: 'grace-waiting', delayMs: roundUpToSeconds(remaining) };
  }
  const patch = patchSpecToPod({ pod, spec, state: read.state, now });
  const annotations = {
    ...patch.annotations,
    ...graceDeletions(pod),
    [INPLACE_UPDATE_STATE_ANNOTATION]: formatInPlaceUpdateState(patch.state),
  };
  let written = await writer.patch({
    metadata: { ...resourceVersionOf(pod), ...metadataMaps(patch.labels, annotations) },
    ...(patch.containers.length > 0 ? { spec: { containers: patch.containers } } : {}),
  });
  const resize = resizePatch(written, patch.resources);
  if (resize !== undefined) {
    written = await writer.resize(resize);
  }
  return { pod: written, outcome: 'grace-applied', delayMs: undefined };
}
