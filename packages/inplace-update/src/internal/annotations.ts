/**
 * The pod annotations of an in-place update, under the names this package exports. The values are
 * OpenKruise's keys (apis/apps/pub/inplace_update.go), defined once in @kruise-ts/api.
 */
import {
  IN_PLACE_UPDATE_GRACE_ANNOTATION,
  IN_PLACE_UPDATE_GRACE_ANNOTATION_LEGACY,
  IN_PLACE_UPDATE_STATE_ANNOTATION,
  IN_PLACE_UPDATE_STATE_ANNOTATION_LEGACY,
  RUNTIME_CONTAINERS_META_ANNOTATION as API_RUNTIME_CONTAINERS_META_ANNOTATION,
} from '@kruise-ts/api';
import type { Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

/** JSON {@link InPlaceUpdateState} of the pod's last in-place update; written on every update. */
export const INPLACE_UPDATE_STATE_ANNOTATION = IN_PLACE_UPDATE_STATE_ANNOTATION;
/** The key OpenKruise used before v1.0; still read, and deleted when the state is written. */
export const INPLACE_UPDATE_STATE_ANNOTATION_LEGACY = IN_PLACE_UPDATE_STATE_ANNOTATION_LEGACY;
/** JSON update spec that waits for the grace period to end before it is applied to the pod. */
export const INPLACE_UPDATE_GRACE_ANNOTATION = IN_PLACE_UPDATE_GRACE_ANNOTATION;
/** The key OpenKruise used before v1.0; still read, and deleted with the new one. */
export const INPLACE_UPDATE_GRACE_ANNOTATION_LEGACY = IN_PLACE_UPDATE_GRACE_ANNOTATION_LEGACY;
/** Written by kruise-daemon (the node agent): container ids, restart counts and hashes. */
export const RUNTIME_CONTAINERS_META_ANNOTATION = API_RUNTIME_CONTAINERS_META_ANNOTATION;

/** An annotation of the pod, if set. */
export function annotation(pod: DeepReadonly<Pod>, key: string): string | undefined {
  const annotations = pod.metadata?.annotations;
  return annotations !== undefined && Object.hasOwn(annotations, key) ? annotations[key] : undefined;
}

/** The value under `key`, else under the legacy key (OpenKruise's GetInPlaceUpdateState/Grace). */
export function annotationWithLegacy(pod: DeepReadonly<Pod>, key: string, legacy: string): string | undefined {
  return annotation(pod, key) ?? annotation(pod, legacy);
}

/** `null` for each of the keys the pod has, to delete them in a patch. */
export function annotationDeletions(pod: DeepReadonly<Pod>, keys: readonly string[]): Record<string, null> {
  return Object.fromEntries(keys.filter((key) => annotation(pod, key) !== undefined).map((key) => [key, null]));
}
