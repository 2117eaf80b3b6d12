/**
 * What an update spec changes in a pod (OpenKruise's defaultPatchUpdateSpecToPod), as the content of
 * one strategic-merge patch instead of a full update: the template's label/annotation changes, the
 * new images by container name, the labels/annotations that env vars read, and the next state with
 * the containers' imageIDs from before the update and the batch record.
 *
 * Container launch priorities (KRUISE_CONTAINER_BARRIER, injected by OpenKruise's pod webhook) are not
 * supported: every container of the spec is updated in one batch, recorded as one entry of
 * `containerBatchesRecord` like OpenKruise records a single batch.
 */
import type { Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { compareGoStrings } from '@kruise-ts/revision';

import { timestampOf } from './go-encoding.ts';
import type { InPlaceUpdateContainerStatus, InPlaceUpdateState } from './state.ts';
import type { ContainerResources, UpdateSpec } from './update-spec.ts';

type ReadonlyPod = DeepReadonly<Pod>;

/** The content of the patch that applies a spec. */
export interface SpecPatch {
  /** Label changes (`null` deletes). */
  readonly labels: Record<string, string | null>;
  /** Annotation changes (`null` deletes), without the state annotation. */
  readonly annotations: Record<string, string | null>;
  /** New images, merged into `spec.containers` by name. */
  readonly containers: { readonly name: string; readonly image: string }[];
  /** Resources to apply through pods/resize, per container name. */
  readonly resources: Readonly<Record<string, ContainerResources>>;
  /** The state to write with the patch. */
  readonly state: InPlaceUpdateState;
}

/** Input of {@link patchSpecToPod}. */
export interface PatchSpecInput {
  /** The pod as last read (its container statuses give the imageIDs before the update). */
  readonly pod: ReadonlyPod;
  readonly spec: UpdateSpec;
  /** The state before this batch: a new one, or the one read from the pod (grace period, next batch). */
  readonly state: InPlaceUpdateState;
  readonly now: number;
}

function touchedContainers(pod: ReadonlyPod, spec: UpdateSpec): string[] {
  const touched = (pod.spec?.containers ?? [])
    .map((container) => container.name)
    .filter(
      (name) =>
        Object.hasOwn(spec.containerImages, name) ||
        Object.hasOwn(spec.containerRefMetadata, name) ||
        Object.hasOwn(spec.containerResources, name),
    );
  return touched.sort(compareGoStrings);
}

/** imageID before the update of each container whose image changes now; entries already recorded stay. */
function lastContainerStatuses(
  pod: ReadonlyPod,
  changed: ReadonlySet<string>,
  previous: InPlaceUpdateState['lastContainerStatuses'],
): InPlaceUpdateState['lastContainerStatuses'] {
  let statuses: Record<string, InPlaceUpdateContainerStatus> | null = previous === null ? null : { ...previous };
  for (const status of pod.status?.containerStatuses ?? []) {
    if (changed.has(status.name) && (statuses === null || !Object.hasOwn(statuses, status.name))) {
      statuses = { ...statuses, [status.name]: status.imageID === '' ? {} : { imageID: status.imageID } };
    }
  }
  return statuses;
}

function metadataChanges(spec: UpdateSpec): {
  labels: Record<string, string | null>;
  annotations: Record<string, string | null>;
} {
  const labels: Record<string, string | null> = { ...spec.metadataPatch?.labels };
  const annotations: Record<string, string | null> = { ...spec.metadataPatch?.annotations };
  for (const ref of Object.values(spec.containerRefMetadata)) {
    Object.assign(labels, ref.labels);
    Object.assign(annotations, ref.annotations);
  }
  return { labels, annotations };
}

/**
 * The patch content that applies `spec` to the pod, and the resulting state: deferred batches are
 * cleared (everything is applied now) and one batch record is appended.
 */
export function patchSpecToPod(input: PatchSpecInput): SpecPatch {
  const { pod, spec } = input;
  const containers = (pod.spec?.containers ?? []).flatMap((container) => {
    const image = Object.hasOwn(spec.containerImages, container.name)
      ? spec.containerImages[container.name]
      : undefined;
    return image === undefined ? [] : [{ name: container.name, image }];
  });
  const before = input.state;
  const state: InPlaceUpdateState = {
    revision: before.revision,
    updateTimestamp: before.updateTimestamp,
    ...(before.updateEnvFromMetadata === true ? { updateEnvFromMetadata: true } : {}),
    ...(before.updateResources === true ? { updateResources: true } : {}),
    ...(before.updateImages === true ? { updateImages: true } : {}),
    lastContainerStatuses: lastContainerStatuses(
      pod,
      new Set(containers.map((container) => container.name)),
      input.state.lastContainerStatuses,
    ),
    containerBatchesRecord: [
      ...(input.state.containerBatchesRecord ?? []),
      { timestamp: timestampOf(input.now), containers: touchedContainers(pod, spec) },
    ],
  };
  return { ...metadataChanges(spec), containers, resources: spec.containerResources, state };
}
