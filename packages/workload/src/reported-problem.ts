/**
 * A problem a controller reports on its workload: a condition, and a Warning Event only when the
 * condition is new or says something new.
 */
import type { EventReporter, ObjectReference } from '@kruise-ts/controller-runtime';

import { findCondition } from './conditions.ts';
import type { WorkloadCondition } from './conditions.ts';

/** What a problem sets: the condition's type, reason and message, and the Event's reason. */
export interface ReportedProblem {
  readonly type: string;
  readonly reason: string;
  readonly message: string;
  /** The Event's reason (OpenKruise's where it has one). */
  readonly eventReason: string;
}

/**
 * Whether the condition the problem sets is new or says something new. Events are written only
 * then: every reconcile of a workload in the same state would otherwise write one (a count update),
 * and the per-object spam filter they share would soon drop the Events that matter.
 */
export function isNewProblem(conditions: readonly WorkloadCondition[] | undefined, problem: ReportedProblem): boolean {
  const existing = findCondition(conditions, problem.type);
  return existing?.status !== 'True' || existing.reason !== problem.reason || existing.message !== problem.message;
}

/** Records a Warning Event for the problem, once per change of it (see {@link isNewProblem}). */
export function warnOnce(
  recorder: EventReporter,
  input: { ref: ObjectReference; conditions: readonly WorkloadCondition[] | undefined; problem: ReportedProblem },
): void {
  if (isNewProblem(input.conditions, input.problem)) {
    recorder.warning(input.ref, input.problem.eventReason, input.problem.message);
  }
}
