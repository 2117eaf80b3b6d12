/**
 * The pod's record of an in-place sidecar upgrade (`kruise.io/sidecarset-inplace-update-state`, a JSON
 * map by SidecarSet name, §B.8.4): the hash it moves to, when it started, and each changed
 * container's imageID before the change; and whether the kubelet has carried it out (OpenKruise's
 * IsPodStateConsistent).
 */
import { SIDECARSET_INPLACE_UPDATE_STATE_ANNOTATION } from '@kruise-ts/api';
import type { Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { z } from 'zod';

const stateSchema = z.record(
  z.string(),
  z.looseObject({
    revision: z.string().optional(),
    updateTimestamp: z.string().optional(),
    lastContainerStatuses: z.record(z.string(), z.looseObject({ imageID: z.string().optional() })).optional(),
  }),
);
/** The annotation's map. */
export type SidecarInPlaceStates = z.infer<typeof stateSchema>;

/** The map on a pod; unreadable text reads as empty (the next upgrade writes a fresh one). */
export function inPlaceStates(pod: DeepReadonly<Pod>): SidecarInPlaceStates {
  const text = pod.metadata?.annotations?.[SIDECARSET_INPLACE_UPDATE_STATE_ANNOTATION];
  if (text === undefined || text === '') {
    return {};
  }
  try {
    const parsed = stateSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

/**
 * Whether every sidecar container of `names` runs what its spec says: done once its status imageID
 * differs from the one recorded before the upgrade, or its status image equals the spec image; a
 * container without a record is done. The pod must report a status for every spec container.
 */
export function isSidecarStateConsistent(pod: DeepReadonly<Pod>, setName: string, names: readonly string[]): boolean {
  const containers = pod.spec?.containers ?? [];
  const statuses = pod.status?.containerStatuses ?? [];
  if (containers.length !== statuses.length) {
    return false;
  }
  const recorded = inPlaceStates(pod)[setName]?.lastContainerStatuses ?? {};
  return names.every((name) => {
    const spec = containers.find((container) => container.name === name);
    const status = statuses.find((candidate) => candidate.name === name);
    if (spec === undefined || status === undefined) {
      return false;
    }
    const before = recorded[name]?.imageID;
    return before === undefined || status.imageID !== before || status.image === spec.image;
  });
}
