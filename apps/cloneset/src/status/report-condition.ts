import { CloneSetEventReason, CloneSetConditionType } from '@kruise-ts/api';
import type { CloneSet } from '@kruise-ts/api';
import type { DeepReadonly, EventReporter, ObjectReference } from '@kruise-ts/controller-runtime';
import { updateStatus, warnOnce } from '@kruise-ts/workload';
import type { ReportedProblem } from '@kruise-ts/workload';

import type { CloneSetControl, WallClock } from '../sync/sync-context.ts';
import { setCondition } from './conditions.ts';

/** Reason of the FailedScale condition while the spec or template cannot be used at all. */
export const INVALID_TEMPLATE = 'InvalidTemplate';

/**
 * Reports a CloneSet the controller cannot act on (a template Go could not decode, a spec this
 * version cannot read): a Warning Event and the FailedScale condition naming the field, with
 * `observedGeneration` moved to this generation so that `kubectl rollout status`-like tools see the
 * controller looked at it. Nothing else is written: no pod is created, deleted or updated.
 */
export async function reportUnusableSpec(
  ctx: {
    readonly cloneSets: Pick<CloneSetControl, 'patchStatus'>;
    readonly recorder: EventReporter;
    readonly clock: WallClock;
  },
  input: { cs: DeepReadonly<CloneSet>; ref: ObjectReference; message: string },
): Promise<void> {
  const { cs } = input;
  const problem: ReportedProblem = {
    type: CloneSetConditionType.FailedScale,
    reason: INVALID_TEMPLATE,
    message: input.message,
    eventReason: CloneSetEventReason.FailedCreate,
  };
  const current = cs.status?.conditions;
  warnOnce(ctx.recorder, { ref: input.ref, conditions: current, problem });
  const conditions = setCondition(
    current ?? [],
    { type: problem.type, status: 'True', reason: problem.reason, message: problem.message },
    ctx.clock.now(),
  );
  // A new CloneSet has no status yet, and the schema requires its counts: no pods, so zeros.
  const counts = { replicas: 0, readyReplicas: 0, availableReplicas: 0, updatedReplicas: 0, updatedReadyReplicas: 0 };
  const status = { ...counts, ...cs.status, observedGeneration: cs.metadata.generation, conditions } as NonNullable<
    CloneSet['status']
  >;
  await updateStatus(ctx.cloneSets, cs, status);
}
