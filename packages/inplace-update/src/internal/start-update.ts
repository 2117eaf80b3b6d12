/**
 * Starting an in-place update of one pod with as few writes as correctness allows:
 *
 * 1. pods/status: InPlaceUpdateReady False and Ready recomputed, so the pod leaves Service endpoints
 *    before anything restarts (skipped without the readiness gate, for a resize that restarts nothing,
 *    or when the condition is already False);
 * 2. pods/resize, only when resources change and there is no grace period (before write 3, as
 *    OpenKruise orders it, so that a rejected resize leaves the pod at its old revision);
 * 3. the pod: the caller's labels/annotations (revision labels, lifecycle state), the state annotation,
 *    and either the changes themselves (images, labels/annotations) or, with a grace period, the spec
 *    in the grace annotation. It carries the resourceVersion returned by write 1 (so it applies only
 *    to the pod just taken out of service), or after a resize only the pod's uid (see preconditionOf).
 *
 * OpenKruise writes the status, updates the pod, and reads before each (Update with conflict retry);
 * here a read happens only after a Conflict, and at most MAX_CONFLICT_RETRIES times.
 */
import type { Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

import {
  annotationDeletions,
  INPLACE_UPDATE_GRACE_ANNOTATION,
  INPLACE_UPDATE_GRACE_ANNOTATION_LEGACY,
  INPLACE_UPDATE_STATE_ANNOTATION,
  INPLACE_UPDATE_STATE_ANNOTATION_LEGACY,
} from './annotations.ts';
import { conditionPatch, hasInPlaceUpdateReadinessGate, startConditions } from './conditions.ts';
import { graceRemainingMs, roundUpToSeconds } from './grace-period.ts';
import { formatGraceSpec } from './grace-spec.ts';
import { timestampOf } from './go-encoding.ts';
import { patchSpecToPod } from './patch-spec-to-pod.ts';
import { metadataMaps, PodWriter, resourceVersionOf } from './pod-writes.ts';
import type { InPlaceUpdateClient } from './pod-writes.ts';
import { resizePatch } from './resize.ts';
import { formatInPlaceUpdateState } from './state.ts';
import type { InPlaceUpdateState } from './state.ts';
import { isVerticalUpdateOnly } from './update-spec.ts';
import type { UpdateSpec } from './update-spec.ts';

type ReadonlyPod = DeepReadonly<Pod>;

/** Input of {@link startInPlaceUpdate}. */
export interface StartInPlaceUpdateInput {
  readonly client: InPlaceUpdateClient;
  /** The pod to update, usually from a cache; a stale one costs a Conflict and a read. */
  readonly pod: ReadonlyPod;
  readonly spec: UpdateSpec;
  /** Current time in ms since the epoch. */
  readonly now: number;
  /** The caller's labels written in the same patch (revision labels, lifecycle state). */
  readonly labels: Readonly<Record<string, string>>;
  /** The caller's annotations written in the same patch (lifecycle timestamp). */
  readonly annotations: Readonly<Record<string, string>>;
  /** InPlaceWorkloadVerticalScaling. */
  readonly verticalScaling: boolean;
  /**
   * Strip the pod's `metadata.managedFields` in the spec patch (`[{}]`, the documented reset). The
   * API server then stops tracking field ownership for the pod: a write to an object without
   * managed fields skips it (only a create always tracks). Field tracking was a quarter of the API
   * server's CPU in an in-place rollout (benchmarks), for every writer of the pod (the kubelet too).
   */
  readonly stripManagedFields?: boolean;
}

/** What {@link startInPlaceUpdate} did. */
export interface StartInPlaceUpdateResult {
  /** The pod as last written. */
  readonly pod: ReadonlyPod;
  /** Write requests sent, Conflicts included. */
  readonly writes: number;
  /** With a grace period: when to refresh the pod to apply the spec. */
  readonly delayMs: number | undefined;
}

const CPU = 'cpu';
const MEMORY = 'memory';

/** The resources whose resize restarts a container (resizePolicy RestartContainer) are among those changed. */
function resizeRestartsContainer(pod: ReadonlyPod, spec: UpdateSpec): boolean {
  return (pod.spec?.containers ?? []).some((container) => {
    const resources = Object.hasOwn(spec.containerResources, container.name)
      ? spec.containerResources[container.name]
      : undefined;
    const changed = new Set<string>(
      [...Object.keys(resources?.limits ?? {}), ...Object.keys(resources?.requests ?? {})].filter(
        (name) => name === CPU || name === MEMORY,
      ),
    );
    return (container.resizePolicy ?? []).some(
      (policy) => policy.restartPolicy === 'RestartContainer' && changed.has(policy.resourceName),
    );
  });
}

/**
 * Whether the update restarts a container of the pod: anything but a resize (vertical scaling) whose
 * changed resources all have resizePolicy NotRequired.
 */
export function updateRestartsContainers(pod: ReadonlyPod, spec: UpdateSpec, verticalScaling: boolean): boolean {
  return !verticalScaling || !isVerticalUpdateOnly(spec) || resizeRestartsContainer(pod, spec);
}

/**
 * Whether the pod must leave service first (`defaultCheckPodNeedsBeUnready`): with the readiness gate,
 * when the update restarts a container. Without the gate nothing can take the pod out of service.
 */
export function podNeedsUnready(pod: ReadonlyPod, spec: UpdateSpec, verticalScaling: boolean): boolean {
  return hasInPlaceUpdateReadinessGate(pod) && updateRestartsContainers(pod, spec, verticalScaling);
}

function newState(spec: UpdateSpec, now: number): InPlaceUpdateState {
  return {
    revision: spec.revision,
    updateTimestamp: timestampOf(now),
    lastContainerStatuses: null,
    ...(spec.updateEnvFromMetadata ? { updateEnvFromMetadata: true } : {}),
    ...(Object.keys(spec.containerResources).length > 0 ? { updateResources: true } : {}),
    ...(Object.keys(spec.containerImages).length > 0 ? { updateImages: true } : {}),
  };
}

/**
 * The precondition of the pod patch. After our status write, the resourceVersion it returned: the
 * patch then applies only to the pod just taken out of service. After a resize, only the uid: the
 * kubelet reports the resize in the status at once, and a resourceVersion would turn that into a
 * Conflict on nearly every resize, while nothing the kubelet writes touches what the patch sets.
 */
function preconditionOf(pod: ReadonlyPod, afterResize: boolean): { resourceVersion?: string; uid?: string } {
  if (!afterResize) {
    return resourceVersionOf(pod);
  }
  const uid = pod.metadata?.uid;
  return uid === undefined ? {} : { uid };
}

/** The body of the pod patch for the pod as it is now. */
function updatePatchBody(pod: ReadonlyPod, input: StartInPlaceUpdateInput, afterResize: boolean): object {
  const { spec, now } = input;
  const labels: Record<string, string | null> = { ...input.labels };
  const annotations: Record<string, string | null> = {
    ...input.annotations,
    ...annotationDeletions(pod, [INPLACE_UPDATE_STATE_ANNOTATION_LEGACY]),
  };
  let state = newState(spec, now);
  let containers: readonly { readonly name: string; readonly image: string }[] = [];
  if (spec.graceSeconds > 0) {
    annotations[INPLACE_UPDATE_GRACE_ANNOTATION] = formatGraceSpec(spec);
  } else {
    const patch = patchSpecToPod({ pod, spec, state, now });
    Object.assign(labels, patch.labels);
    Object.assign(
      annotations,
      patch.annotations,
      annotationDeletions(pod, [INPLACE_UPDATE_GRACE_ANNOTATION, INPLACE_UPDATE_GRACE_ANNOTATION_LEGACY]),
    );
    containers = patch.containers;
    state = patch.state;
  }
  annotations[INPLACE_UPDATE_STATE_ANNOTATION] = formatInPlaceUpdateState(state);
  const managedFields = input.stripManagedFields === true ? { managedFields: [{}] } : {};
  return {
    metadata: { ...preconditionOf(pod, afterResize), ...metadataMaps(labels, annotations), ...managedFields },
    ...(containers.length > 0 ? { spec: { containers } } : {}),
  };
}

/**
 * Starts the in-place update of `pod` to `spec.revision` (OpenKruise's `Update`), see the file header
 * for the writes. Returns the pod as last written, the number of write requests and, with a grace
 * period, the delay after which `refreshInPlaceUpdate` applies the spec. Throws the API error of a
 * failed write (a Conflict only after MAX_CONFLICT_RETRIES fresh reads).
 */
export async function startInPlaceUpdate(input: StartInPlaceUpdateInput): Promise<StartInPlaceUpdateResult> {
  const writer = new PodWriter(input.client, input.pod);
  const pod = await writer.withConflictRetry(input.pod, async (current) => {
    const conditions = podNeedsUnready(current, input.spec, input.verticalScaling)
      ? startConditions(current, input.now)
      : [];
    const unready =
      conditions.length === 0
        ? current
        : await writer.patchStatus({ status: { conditions: conditions.map(conditionPatch) } });
    // Resize before the pod announces the new revision: a rejected resize then leaves the pod at its
    // old revision (to be tried again) instead of at the new one with the old resources.
    const resize = input.spec.graceSeconds > 0 ? undefined : resizePatch(unready, input.spec.containerResources);
    const resized = resize === undefined ? unready : await writer.resize(resize);
    return writer.patch(updatePatchBody(resized, input, resize !== undefined));
  });
  const { graceSeconds } = input.spec;
  return {
    pod,
    writes: writer.writes,
    delayMs:
      graceSeconds > 0
        ? roundUpToSeconds(graceRemainingMs(timestampOf(input.now), graceSeconds, input.now))
        : undefined,
  };
}
