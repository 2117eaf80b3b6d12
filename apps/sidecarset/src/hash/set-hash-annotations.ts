/**
 * The SidecarSet's own `kruise.io/sidecarset-hash` and `-hash-without-image` annotations. OpenKruise's
 * SidecarSet mutating webhook stamps them on every create and update (defaults.SetHashSidecarSet); tools
 * and OpenKruise's e2e suite read them from the object. kruise-ts has no mutating webhook on SidecarSets,
 * so the controller writes them, and only when they differ from the spec's hashes.
 */
import { SIDECARSET_HASH_ANNOTATION, SIDECARSET_HASH_WITHOUT_IMAGE_ANNOTATION } from '@kruise-ts/api';
import type { SidecarSet } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

import { sidecarSetHash, sidecarSetHashWithoutImage } from './sidecarset-hash.ts';

/**
 * The merge patch that puts both hashes on the SidecarSet, or undefined when they are already there.
 * It carries the resourceVersion it was computed from: a SidecarSet changed meanwhile is refused with a
 * conflict, and its update event brings the reconcile that hashes the new spec.
 */
export function hashAnnotationsPatch(
  set: DeepReadonly<SidecarSet>,
): { metadata: { resourceVersion: string; annotations: Record<string, string> } } | undefined {
  const wanted = {
    [SIDECARSET_HASH_ANNOTATION]: sidecarSetHash(set.spec),
    [SIDECARSET_HASH_WITHOUT_IMAGE_ANNOTATION]: sidecarSetHashWithoutImage(set.spec),
  };
  const current = set.metadata.annotations ?? {};
  if (Object.entries(wanted).every(([key, value]) => current[key] === value)) {
    return undefined;
  }
  return { metadata: { resourceVersion: set.metadata.resourceVersion ?? '', annotations: wanted } };
}
