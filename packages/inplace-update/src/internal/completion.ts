/**
 * Whether the kubelet (and, for env from metadata, kruise-daemon) has carried out an in-place update
 * (OpenKruise's DefaultCheckInPlaceUpdateCompleted and defaultCheckContainersInPlaceUpdateCompleted).
 * Used for the lifecycle step Updating → Updated/Normal and before the pod is marked ready again.
 */
import type { Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { resourceListsEqual } from '@kruise-ts/revision';

import { envFromMetadataHash } from './env-from-metadata.ts';
import { graceAnnotation } from './grace-spec.ts';
import { runtimeContainerMeta } from './runtime-containers-meta.ts';
import type { RuntimeContainerMetaSet } from './runtime-containers-meta.ts';
import { stateAnnotation } from './state.ts';
import type { InPlaceUpdateState } from './state.ts';

type ReadonlyPod = DeepReadonly<Pod>;
type ContainerStatus = NonNullable<NonNullable<Pod['status']>['containerStatuses']>[number];

/** Options of {@link isInPlaceUpdateCompleted}. */
export interface CompletionOptions {
  /** InPlaceWorkloadVerticalScaling: resized resources must show in the container statuses. */
  readonly verticalScaling: boolean;
}

function statusOf(pod: ReadonlyPod, name: string): DeepReadonly<ContainerStatus> | undefined {
  return pod.status?.containerStatuses?.find((status) => status.name === name);
}

/** Containers deferred to later batches (only pods updated by OpenKruise with launch priorities have them). */
export function hasNextBatch(state: InPlaceUpdateState): boolean {
  return [state.nextContainerImages, state.nextContainerRefMetadata, state.nextContainerResources].some(
    (map) => map !== undefined && Object.keys(map).length > 0,
  );
}

/**
 * Every spec container runs with the env hash of the pod's current labels/annotations: kruise-daemon
 * reports it for the container id the status shows (`checkAllContainersHashConsistent`).
 */
function envHashesConsistent(pod: ReadonlyPod, meta: RuntimeContainerMetaSet): boolean {
  const source = { labels: pod.metadata?.labels, annotations: pod.metadata?.annotations };
  return (pod.spec?.containers ?? []).every((container) => {
    const status = statusOf(pod, container.name);
    const reported = meta.containers.findLast((entry) => entry.name === container.name);
    return (
      status !== undefined &&
      reported !== undefined &&
      reported.containerID === (status.containerID ?? '') &&
      reported.hashes.extractedEnvFromMetadataHash === envFromMetadataHash(container, source)
    );
  });
}

/** Every container status reports the spec's resources (`NativeVerticalUpdate.IsUpdateCompleted`). */
function resourcesApplied(pod: ReadonlyPod): boolean {
  const containers = pod.spec?.containers ?? [];
  const statuses = pod.status?.containerStatuses ?? [];
  return (
    statuses.length === containers.length &&
    statuses.every((status) => {
      const container = containers.find((candidate) => candidate.name === status.name);
      return (
        container !== undefined &&
        status.resources !== undefined &&
        resourceListsEqual(container.resources?.limits, status.resources.limits) &&
        resourceListsEqual(container.resources?.requests, status.resources.requests)
      );
    })
  );
}

/** The image the kubelet reports for a spec image: `:latest` is added when the text has no colon at all. */
function reportedImage(image: string | undefined): string {
  const text = image ?? '';
  return text.includes(':') ? text : `${text}:latest`;
}

/**
 * The images changed: for every container recorded before the update, its status shows a new imageID,
 * or at least the spec's image; and all of them have a status (the fallback check of OpenKruise, which
 * also decides when kruise-daemon is absent).
 */
function imagesUpdated(pod: ReadonlyPod, state: InPlaceUpdateState): boolean {
  const before = state.lastContainerStatuses ?? {};
  const specImages = new Map(
    (pod.spec?.containers ?? []).map((container) => [container.name, reportedImage(container.image)]),
  );
  const statuses = (pod.status?.containerStatuses ?? []).filter((status) => Object.hasOwn(before, status.name));
  const unchanged = statuses.some(
    (status) => (before[status.name]?.imageID ?? '') === status.imageID && specImages.get(status.name) !== status.image,
  );
  const reported = new Set(statuses.map((status) => status.name));
  return !unchanged && Object.keys(before).every((name) => reported.has(name));
}

/**
 * The container part of the completion check, for a pod whose state is `state`: env hashes (when the
 * update changed env from metadata), resources (with vertical scaling and an update of resources),
 * then images. OpenKruise also accepts kruise-daemon's plain container hashes as proof; the image
 * check covers the same cases (see the README).
 */
export function containersUpdated(pod: ReadonlyPod, state: InPlaceUpdateState, options: CompletionOptions): boolean {
  const meta = runtimeContainerMeta(pod);
  if (meta.kind === 'malformed') {
    return false;
  }
  if (state.updateEnvFromMetadata === true && (meta.kind === 'absent' || !envHashesConsistent(pod, meta.meta))) {
    return false;
  }
  if (options.verticalScaling && state.updateResources === true && !resourcesApplied(pod)) {
    return false;
  }
  return imagesUpdated(pod, state);
}

/**
 * Whether the pod's in-place update is done: not while a grace period is pending; yes when there is no
 * state (never updated in place); not while containers wait for a later batch; otherwise when the
 * containers run what the update asked for. A malformed state or runtime annotation reads as not
 * done, as in OpenKruise.
 */
export function isInPlaceUpdateCompleted(pod: ReadonlyPod, options: CompletionOptions): boolean {
  if (graceAnnotation(pod).kind !== 'absent') {
    return false;
  }
  const read = stateAnnotation(pod);
  if (read.kind !== 'state') {
    return read.kind === 'absent';
  }
  return !hasNextBatch(read.state) && containersUpdated(pod, read.state, options);
}
