import { SPECIFIED_DELETE_LABEL } from '@kruise-ts/api';
import type { CloneSet, Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

/** The pod carries the specified-delete label (any value) or is named in `scaleStrategy.podsToDelete`. */
export function isSpecifiedDelete(cs: DeepReadonly<CloneSet>, pod: DeepReadonly<Pod>): boolean {
  const labels = pod.metadata?.labels ?? {};
  if (Object.hasOwn(labels, SPECIFIED_DELETE_LABEL)) {
    return true;
  }
  return cs.spec.scaleStrategy?.podsToDelete?.includes(pod.metadata?.name ?? '') ?? false;
}
