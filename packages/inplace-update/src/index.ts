/**
 * @kruise-ts/inplace-update: in-place updates of pods between two revisions of a workload, compatible
 * with OpenKruise (annotations, formats, hashes and decisions): the revision diff and the decision to
 * update in place or recreate, starting an update, grace periods, refresh, completion detection and
 * the write that marks the pod ready again. CloneSet and Advanced StatefulSet update and refresh their
 * pods with it through @kruise-ts/pod-control (Advanced StatefulSet also reads completion directly);
 * SidecarSet's status asks it whether a workload's in-place update of a pod is still under way.
 *
 * STOP: this file is the public API of @kruise-ts/inplace-update. Add explicit named exports only (no `export *`).
 */

// Annotations.
export {
  INPLACE_UPDATE_GRACE_ANNOTATION,
  INPLACE_UPDATE_GRACE_ANNOTATION_LEGACY,
  INPLACE_UPDATE_STATE_ANNOTATION,
  INPLACE_UPDATE_STATE_ANNOTATION_LEGACY,
  RUNTIME_CONTAINERS_META_ANNOTATION,
} from './internal/annotations.ts';

// Deciding: the revision diff.
export { calculateInPlaceUpdateSpec } from './internal/calculate-spec.ts';
export type { CalculateInPlaceUpdateSpecInput, InPlaceUpdateGates } from './internal/calculate-spec.ts';
export { isVerticalUpdateOnly } from './internal/update-spec.ts';
export type {
  ContainerRefMetadata,
  ContainerResources,
  InPlaceDecision,
  MetadataPatch,
  UpdateSpec,
} from './internal/update-spec.ts';
export { podCanApplyInPlace } from './internal/pod-can-apply.ts';
export type { PodCanApplyResult } from './internal/pod-can-apply.ts';
export { podQosClass } from './internal/qos.ts';
export type { QosClass } from './internal/qos.ts';

// State and grace annotations.
export { formatInPlaceUpdateState, readInPlaceUpdateState } from './internal/state.ts';
export type {
  InPlaceUpdateContainerBatch,
  InPlaceUpdateContainerStatus,
  InPlaceUpdatePreCheckBeforeNext,
  InPlaceUpdateState,
} from './internal/state.ts';
export { formatGraceSpec, parseGraceSpec } from './internal/grace-spec.ts';

// Env from metadata and kruise-daemon's runtime-containers-meta.
export { envFromMetadataHash, hasMetadataEnv } from './internal/env-from-metadata.ts';
export type { MetadataSource } from './internal/env-from-metadata.ts';
export { formatRuntimeContainerMeta, runtimeContainerMeta } from './internal/runtime-containers-meta.ts';
export type {
  RuntimeContainerMeta,
  RuntimeContainerMetaSet,
  RuntimeMetaAnnotation,
} from './internal/runtime-containers-meta.ts';

// Completion.
export { isInPlaceUpdateCompleted } from './internal/completion.ts';
export type { CompletionOptions } from './internal/completion.ts';
export {
  completionConditions,
  hasInPlaceUpdateReadinessGate,
  START_IN_PLACE_UPDATE_REASON,
} from './internal/conditions.ts';
export type { PodCondition } from './internal/conditions.ts';

// Writes.
export { MAX_CONFLICT_RETRIES } from './internal/pod-writes.ts';
export type { InPlaceUpdateClient } from './internal/pod-writes.ts';
export { podNeedsUnready, startInPlaceUpdate, updateRestartsContainers } from './internal/start-update.ts';
export type { StartInPlaceUpdateInput, StartInPlaceUpdateResult } from './internal/start-update.ts';
export { inPlaceRefreshPending, inPlaceUpdateAnnotationProblem, refreshInPlaceUpdate } from './internal/refresh.ts';
export type { RefreshInPlaceUpdateInput, RefreshInPlaceUpdateResult, RefreshOutcome } from './internal/refresh.ts';
export { completeInPlaceUpdate } from './internal/complete-update.ts';
export type { CompleteInPlaceUpdateInput, CompleteInPlaceUpdateResult } from './internal/complete-update.ts';
export { InPlaceUpdateAnnotationError } from './internal/errors.ts';
