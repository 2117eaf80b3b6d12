/**
 * Status conditions of workloads with OpenKruise's `Set…Condition` semantics, for any condition shape
 * with `type` and `status` (CloneSet's has lastUpdateTime, StatefulSet's does not).
 */
import { metaTime } from './time.ts';

/** The fields every workload condition has. */
export interface WorkloadCondition {
  readonly type: string;
  readonly status: string;
  readonly reason?: string | undefined;
  readonly message?: string | undefined;
  readonly lastTransitionTime?: string | undefined;
}

/** A condition to set; the timestamps are decided by `setCondition`. */
export interface ConditionInput {
  readonly type: string;
  readonly status: 'True' | 'False' | 'Unknown';
  readonly reason?: string;
  readonly message?: string;
}

/** Options of {@link setCondition}. */
export interface SetConditionOptions {
  readonly now: number;
  /** The shape has `lastUpdateTime` (CloneSet's conditions): stamped whenever status or reason change. */
  readonly lastUpdateTime?: boolean;
}

/**
 * Sets a condition: same status and reason ⇒ unchanged but for the message (timestamps kept); same
 * status, new reason ⇒ lastTransitionTime kept; otherwise it is now. Returns a new list.
 */
export function setCondition<C extends WorkloadCondition>(
  conditions: readonly C[],
  next: ConditionInput,
  options: SetConditionOptions,
): C[] {
  const existing = conditions.find((c) => c.type === next.type);
  const others = conditions.filter((c) => c.type !== next.type);
  if (existing !== undefined && existing.status === next.status && existing.reason === next.reason) {
    return [...others, { ...existing, ...(next.message === undefined ? {} : { message: next.message }) }];
  }
  const time = metaTime(options.now);
  const lastTransitionTime =
    existing !== undefined && existing.status === next.status ? (existing.lastTransitionTime ?? time) : time;
  const stamped =
    options.lastUpdateTime === true
      ? { ...next, lastUpdateTime: time, lastTransitionTime }
      : { ...next, lastTransitionTime };
  return [...others, stamped as unknown as C];
}

/** Removes a condition type; returns a new list. */
export function removeCondition<C extends WorkloadCondition>(conditions: readonly C[], type: string): C[] {
  return conditions.filter((c) => c.type !== type);
}

/** The condition of a type, if present. */
export function findCondition<C extends WorkloadCondition>(
  conditions: readonly C[] | undefined,
  type: string,
): C | undefined {
  return conditions?.find((c) => c.type === type);
}
