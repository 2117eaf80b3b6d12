/**
 * Containers OpenKruise deferred to a later batch (container launch priorities): kruise-ts does not
 * create batches, but a pod that OpenKruise started updating in batches is finished here, with all
 * remaining containers in one batch once the previous batch's containers are ready
 * (`doPreCheckBeforeNext`, `updateNextBatch`).
 */
import type { Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

import { INPLACE_UPDATE_STATE_ANNOTATION } from './annotations.ts';
import { patchSpecToPod } from './patch-spec-to-pod.ts';
import type { PodWriter } from './pod-writes.ts';
import { metadataMaps, resourceVersionOf } from './pod-writes.ts';
import { resizePatch } from './resize.ts';
import { formatInPlaceUpdateState } from './state.ts';
import type { InPlaceUpdateState } from './state.ts';
import type { UpdateSpec } from './update-spec.ts';

type ReadonlyPod = DeepReadonly<Pod>;

/** Every container the previous batch must have made ready is ready. */
export function preCheckPassed(pod: ReadonlyPod, state: InPlaceUpdateState): boolean {
  return (state.preCheckBeforeNext?.containersRequiredReady ?? []).every(
    (name) => pod.status?.containerStatuses?.find((status) => status.name === name)?.ready === true,
  );
}

/** Input of {@link applyNextBatch}. */
export interface NextBatchInput {
  readonly writer: PodWriter;
  readonly pod: ReadonlyPod;
  readonly state: InPlaceUpdateState;
  readonly now: number;
  readonly verticalScaling: boolean;
}

/** Writes every deferred container change in one patch (and resize); returns the pod as written. */
export async function applyNextBatch(input: NextBatchInput): Promise<ReadonlyPod> {
  const { state, pod } = input;
  const spec: UpdateSpec = {
    revision: state.revision,
    containerImages: state.nextContainerImages ?? {},
    containerRefMetadata: state.nextContainerRefMetadata ?? {},
    containerResources: input.verticalScaling ? (state.nextContainerResources ?? {}) : {},
    metadataPatch: undefined,
    updateEnvFromMetadata: state.updateEnvFromMetadata === true,
    graceSeconds: 0,
  };
  const patch = patchSpecToPod({ pod, spec, state, now: input.now });
  const annotations = {
    ...patch.annotations,
    [INPLACE_UPDATE_STATE_ANNOTATION]: formatInPlaceUpdateState(patch.state),
  };
  const written = await input.writer.patch({
    metadata: { ...resourceVersionOf(pod), ...metadataMaps(patch.labels, annotations) },
    ...(patch.containers.length > 0 ? { spec: { containers: patch.containers } } : {}),
  });
  const resize = resizePatch(written, patch.resources);
  return resize === undefined ? written : input.writer.resize(resize);
}
