/**
 * Per-pod preconditions of an in-place update that the revision diff cannot see.
 */
import type { Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

import { annotation, RUNTIME_CONTAINERS_META_ANNOTATION } from './annotations.ts';
import type { UpdateSpec } from './update-spec.ts';

/** Whether the pod can take the spec in place, or why not. */
export type PodCanApplyResult = { readonly ok: true } | { readonly ok: false; readonly reason: string };

function specContainers(spec: UpdateSpec): string[] {
  return [
    ...new Set([
      ...Object.keys(spec.containerImages),
      ...Object.keys(spec.containerRefMetadata),
      ...Object.keys(spec.containerResources),
    ]),
  ];
}

/**
 * Checks the pod against the spec before `startInPlaceUpdate`:
 * - an env-from-metadata change needs a node agent that restarts the containers whose env changes
 *   (kruise-daemon, which keeps the `apps.kruise.io/runtime-containers-meta` annotation on the pod);
 *   without it the update would never complete, so the pod should be recreated instead;
 * - every container the spec changes must exist in the pod (a patch cannot add containers).
 */
export function podCanApplyInPlace(pod: DeepReadonly<Pod>, spec: UpdateSpec): PodCanApplyResult {
  const names = new Set((pod.spec?.containers ?? []).map((container) => container.name));
  const missing = specContainers(spec).filter((name) => !names.has(name));
  if (missing.length > 0) {
    return {
      ok: false,
      reason: `the pod has no container ${missing.map((name) => JSON.stringify(name)).join(', ')} that the update changes`,
    };
  }
  if (spec.updateEnvFromMetadata && annotation(pod, RUNTIME_CONTAINERS_META_ANNOTATION) === undefined) {
    const containers = Object.keys(spec.containerRefMetadata).sort().join(', ');
    return {
      ok: false,
      reason: `env of container(s) ${containers} reads labels/annotations that change, and no node agent reports ${RUNTIME_CONTAINERS_META_ANNOTATION} on the pod to restart them`,
    };
  }
  return { ok: true };
}
