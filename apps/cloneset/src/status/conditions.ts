import type { CloneSetCondition } from '@kruise-ts/api';

/** RFC 3339 with second precision, as metav1.Time serialises. */
export function metaTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A condition to set; the timestamps are decided by `setCondition`. */
export interface ConditionInput {
  readonly type: string;
  readonly status: 'True' | 'False' | 'Unknown';
  readonly reason?: string;
  readonly message?: string;
}

/**
 * Sets a condition with OpenKruise's `SetCloneSetCondition` semantics: same status and reason ⇒
 * unchanged (timestamps kept); same status, new reason ⇒ lastTransitionTime kept, lastUpdateTime now;
 * otherwise both now. Returns a new list.
 */
export function setCondition(conditions: readonly CloneSetCondition[], next: ConditionInput, now: number): CloneSetCondition[] {
  const existing = conditions.find((c) => c.type === next.type);
  const others = conditions.filter((c) => c.type !== next.type);
  if (existing !== undefined && existing.status === next.status && existing.reason === next.reason) {
    return [...others, { ...existing, ...(next.message === undefined ? {} : { message: next.message }) }];
  }
  const time = metaTime(now);
  const lastTransitionTime = existing !== undefined && existing.status === next.status ? (existing.lastTransitionTime ?? time) : time;
  return [...others, { ...next, lastUpdateTime: time, lastTransitionTime }];
}

/** Removes a condition type; returns a new list. */
export function removeCondition(conditions: readonly CloneSetCondition[], type: string): CloneSetCondition[] {
  return conditions.filter((c) => c.type !== type);
}

/** The condition of a type, if present. */
export function findCondition(conditions: readonly CloneSetCondition[] | undefined, type: string): CloneSetCondition | undefined {
  return conditions?.find((c) => c.type === type);
}
