import type { CloneSetCondition } from '@kruise-ts/api';
import { setCondition as setWorkloadCondition } from '@kruise-ts/workload';
import type { ConditionInput } from '@kruise-ts/workload';

export { findCondition, metaTime, removeCondition } from '@kruise-ts/workload';
export type { ConditionInput } from '@kruise-ts/workload';

/**
 * Sets a condition with OpenKruise's `SetCloneSetCondition` semantics (the workload package's, with
 * CloneSet's lastUpdateTime stamped whenever status or reason change). Returns a new list.
 */
export function setCondition(
  conditions: readonly CloneSetCondition[],
  next: ConditionInput,
  now: number,
): CloneSetCondition[] {
  return setWorkloadCondition(conditions, next, { now, lastUpdateTime: true });
}
