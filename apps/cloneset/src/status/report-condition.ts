import { CloneSetEventReason, CloneSetConditionType } from '@kruise-ts/api';
import type { CloneSet, CloneSetCondition } from '@kruise-ts/api';
import type { DeepReadonly, EventReporter, ObjectReference } from '@kruise-ts/controller-runtime';

import type { CloneSetControl, WallClock } from '../sync/sync-context.ts';
import { findCondition, setCondition } from './conditions.ts';
import { updateStatus } from './update-status.ts';

/** A problem the controller reports on the CloneSet: a condition, and an Event when it is new. */
export interface ReportedProblem {
  readonly type: string;
  readonly reason: string;
  readonly message: string;
  /** The Event's reason (OpenKruise's where it has one). */
  readonly eventReason: string;
}

/**
 * Whether the condition the problem sets is new or says something new. Events are written only
 * then: every reconcile of a CloneSet in the same state would otherwise write one (a count update),
 * and the per-object spam filter they share would soon drop the Events that matter.
 */
export function isNewProblem(conditions: readonly CloneSetCondition[] | undefined, problem: ReportedProblem): boolean {
  const existing = findCondition(conditions, problem.type);
  return existing?.status !== 'True' || existing.reason !== problem.reason || existing.message !== problem.message;
}

/** Records a Warning Event for the problem, once per change of it (see {@link isNewProblem}). */
export function warnOnce(recorder: EventReporter, input: { ref: ObjectReference; conditions: readonly CloneSetCondition[] | undefined; problem: ReportedProblem }): void {
  if (isNewProblem(input.conditions, input.problem)) {
    recorder.warning(input.ref, input.problem.eventReason, input.problem.message);
  }
}

/** Reason of the FailedScale condition while the spec or template cannot be used at all. */
export const INVALID_TEMPLATE = 'InvalidTemplate';

/**
 * Reports a CloneSet the controller cannot act on (a template Go could not decode, a spec this
 * version cannot read): a Warning Event and the FailedScale condition naming the field, with
 * `observedGeneration` moved to this generation so that `kubectl rollout status`-like tools see the
 * controller looked at it. Nothing else is written: no pod is created, deleted or updated.
 */
export async function reportUnusableSpec(
  ctx: { readonly cloneSets: Pick<CloneSetControl, 'patchStatus'>; readonly recorder: EventReporter; readonly clock: WallClock },
  input: { cs: DeepReadonly<CloneSet>; ref: ObjectReference; message: string },
): Promise<void> {
  const { cs } = input;
  const problem: ReportedProblem = { type: CloneSetConditionType.FailedScale, reason: INVALID_TEMPLATE, message: input.message, eventReason: CloneSetEventReason.FailedCreate };
  const current = cs.status?.conditions;
  warnOnce(ctx.recorder, { ref: input.ref, conditions: current, problem });
  const conditions = setCondition(current ?? [], { type: problem.type, status: 'True', reason: problem.reason, message: problem.message }, ctx.clock.now());
  const status = { ...cs.status, observedGeneration: cs.metadata.generation, conditions } as NonNullable<CloneSet['status']>;
  await updateStatus(ctx.cloneSets, cs, status);
}
