/**
 * What kruise-daemon's containermeta controller (pkg/daemon/containermeta) would do for one pod, as a
 * pure decision for the simulator: restart the containers whose env-from-metadata hash no longer
 * matches the pod while an in-place update runs (InPlaceUpdateReady False), otherwise report
 * `apps.kruise.io/runtime-containers-meta` for the running containers.
 *
 * The hash a container "started with" is the one first reported for its container id, computed from
 * the pod's labels and annotations when the simulator first saw that id (a real kruise-daemon reads
 * the running container's env through the CRI instead).
 */
import { createHash } from 'node:crypto';

import type { Pod } from '@kruise-ts/api';
import { IN_PLACE_UPDATE_READY } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

import { RUNTIME_CONTAINERS_META_ANNOTATION } from '../internal/annotations.ts';
import { envFromMetadataHash, hasMetadataEnv } from '../internal/env-from-metadata.ts';
import { timestampOf } from '../internal/go-encoding.ts';
import { formatRuntimeContainerMeta, runtimeContainerMeta } from '../internal/runtime-containers-meta.ts';
import type { RuntimeContainerMeta } from '../internal/runtime-containers-meta.ts';

type ReadonlyPod = DeepReadonly<Pod>;
type ContainerStatus = NonNullable<NonNullable<Pod['status']>['containerStatuses']>[number];

/** What to write for the pod, if anything. */
export type ContainerMetaAction =
  | { readonly kind: 'none' }
  /** Replace status.containerStatuses (an atomic list): the named containers restarted. */
  | { readonly kind: 'restart'; readonly containers: readonly string[]; readonly containerStatuses: ContainerStatus[] }
  /** Set the runtime-containers-meta annotation to this text. */
  | { readonly kind: 'report'; readonly annotation: string };

const NONE: ContainerMetaAction = { kind: 'none' };

/** The container id kwok's stages give the `restartCount`-th start of a container (`sim://sha256(uid/name/count)`). */
export function simulatedContainerId(pod: ReadonlyPod, name: string, restartCount: number): string {
  return `sim://${createHash('sha256')
    .update(`${pod.metadata?.uid ?? ''}/${name}/${String(restartCount)}`)
    .digest('hex')}`;
}

function isWatched(pod: ReadonlyPod): boolean {
  return (
    pod.metadata?.deletionTimestamp === undefined &&
    pod.status?.phase === 'Running' &&
    (pod.status.containerStatuses ?? []).length > 0 &&
    (pod.spec?.containers ?? []).some(hasMetadataEnv)
  );
}

function containerOf(
  pod: ReadonlyPod,
  name: string,
): DeepReadonly<NonNullable<Pod['spec']>['containers'][number]> | undefined {
  return pod.spec?.containers.find((container) => container.name === name);
}

function currentHash(pod: ReadonlyPod, name: string): number {
  const container = containerOf(pod, name);
  return container === undefined
    ? 0
    : envFromMetadataHash(container, { labels: pod.metadata?.labels, annotations: pod.metadata?.annotations });
}

/** The meta of every running container: kept for a known container id, computed now for a new one. */
function metaEntries(pod: ReadonlyPod): RuntimeContainerMeta[] {
  const read = runtimeContainerMeta(pod);
  const known = read.kind === 'meta' ? read.meta.containers : [];
  return (pod.status?.containerStatuses ?? []).flatMap((status) => {
    const id = status.containerID ?? '';
    if (id === '' || containerOf(pod, status.name) === undefined) {
      return [];
    }
    const existing = known.find((entry) => entry.containerID === id);
    return [
      existing ?? {
        name: status.name,
        containerID: id,
        restartCount: status.restartCount,
        hashes: { plainHash: 0, extractedEnvFromMetadataHash: currentHash(pod, status.name) },
      },
    ];
  });
}

function restarted(pod: ReadonlyPod, status: DeepReadonly<ContainerStatus>, now: number): ContainerStatus {
  const at = timestampOf(now);
  const count = status.restartCount + 1;
  return {
    ...(structuredClone(status) as ContainerStatus),
    restartCount: count,
    containerID: simulatedContainerId(pod, status.name, count),
    ready: true,
    started: true,
    state: { running: { startedAt: at } },
    lastState: {
      terminated: {
        exitCode: 0,
        reason: 'Completed',
        containerID: status.containerID ?? '',
        startedAt: status.state?.running?.startedAt ?? at,
        finishedAt: at,
      },
    },
  };
}

/** Containers to restart: only while an in-place update runs, those that started with other env values. */
function staleContainers(pod: ReadonlyPod, entries: readonly RuntimeContainerMeta[]): string[] {
  const updating =
    pod.status?.conditions?.some(
      (condition) => condition.type === IN_PLACE_UPDATE_READY && condition.status === 'False',
    ) === true;
  if (!updating) {
    return [];
  }
  return entries
    .filter(
      (entry) =>
        entry.hashes.extractedEnvFromMetadataHash !== 0 &&
        entry.hashes.extractedEnvFromMetadataHash !== currentHash(pod, entry.name),
    )
    .map((entry) => entry.name);
}

/** The action for the pod now; see the file header. */
export function planContainerMeta(pod: ReadonlyPod, now: number): ContainerMetaAction {
  if (!isWatched(pod)) {
    return NONE;
  }
  const entries = metaEntries(pod);
  const stale = staleContainers(pod, entries);
  if (stale.length > 0) {
    const containerStatuses = (pod.status?.containerStatuses ?? []).map((status) =>
      stale.includes(status.name) ? restarted(pod, status, now) : (structuredClone(status) as ContainerStatus),
    );
    return { kind: 'restart', containers: stale, containerStatuses };
  }
  const annotation = formatRuntimeContainerMeta({ containers: entries });
  return pod.metadata?.annotations?.[RUNTIME_CONTAINERS_META_ANNOTATION] === annotation
    ? NONE
    : { kind: 'report', annotation };
}
