/** The `controller.kubernetes.io/pod-deletion-cost` annotation, parsed exactly as Kubernetes does. */
import type { Pod } from '@kruise-ts/api';
import { POD_DELETION_COST_ANNOTATION } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

import { labelValue } from './labels.ts';

const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;
const DECIMAL = /^-?[0-9]+$/;

/**
 * Parses a deletion cost: a base-10 int32. Like Kubernetes, a leading `+`, leading zeros ("008"),
 * an empty string, a non-integer or a value outside int32 count as 0 (not as an error), while a
 * negative sign may be followed by zeros ("-007" is -7, as Go's ParseInt reads it).
 */
export function parseDeletionCost(value: string | undefined): number {
  if (value === undefined || !validFirstCharacter(value) || !DECIMAL.test(value)) {
    return 0;
  }
  const cost = Number(value);
  // `+ 0` turns "-0" into 0 rather than -0.
  return cost < INT32_MIN || cost > INT32_MAX ? 0 : cost + 0;
}

/** The pod's deletion cost (0 when unset or invalid). */
export function podDeletionCost(pod: DeepReadonly<Pod>): number {
  return parseDeletionCost(labelValue(pod.metadata?.annotations, POD_DELETION_COST_ANNOTATION));
}

function validFirstCharacter(value: string): boolean {
  const first = value.charAt(0);
  return first === '-' || value === '0' || (first >= '1' && first <= '9');
}
