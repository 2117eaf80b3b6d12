import { CloneSetConditionReason, CloneSetConditionType } from '@kruise-ts/api';
import type { CloneSet, CloneSetCondition, CloneSetStatus } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

import { findCondition, removeCondition, setCondition } from './conditions.ts';

const MAX_INT32 = 2_147_483_647;

export interface ProgressingInput {
  readonly cs: DeepReadonly<CloneSet>;
  /** The newly computed status (counters and revisions). */
  readonly status: CloneSetStatus;
  readonly conditions: readonly CloneSetCondition[];
  readonly now: number;
}

export interface ProgressingResult {
  readonly conditions: CloneSetCondition[];
  /** When the deadline will pass (ms from now), so the reconcile can come back then. */
  readonly checkAgainInMs: number | undefined;
}

function rolledOut(input: ProgressingInput): boolean {
  const { status, cs } = input;
  const replicas = cs.spec.replicas;
  return (
    status.currentRevision === status.updateRevision &&
    status.replicas === replicas &&
    status.updatedReplicas === replicas &&
    (status.updatedAvailableReplicas ?? 0) === replicas
  );
}

function partitionAvailable(input: ProgressingInput): boolean {
  const expected = input.status.expectedUpdatedReplicas ?? input.cs.spec.replicas;
  return expected < input.cs.spec.replicas && expected <= (input.status.updatedAvailableReplicas ?? 0);
}

/**
 * The Progressing condition with `progressDeadlineSeconds` (OpenKruise §8.3, the seed's table):
 * Available ⇒ True/CloneSetAvailable; paused ⇒ True/CloneSetPaused; partition done ⇒
 * True/ProgressPartitionAvailable; no progress for the deadline since the condition last changed ⇒
 * False/ProgressDeadlineExceeded (sticky until one of the first three holds); else True/CloneSetUpdated.
 * Not tracked (removed) without a deadline or with MaxInt32. Unlike OpenKruise, a CloneSet that was
 * Available for longer than the deadline does not time out the moment a new revision appears: the
 * deadline clock starts when progressing starts.
 */
export function progressingCondition(input: ProgressingInput): ProgressingResult {
  const deadline = input.cs.spec.progressDeadlineSeconds;
  const { now } = input;
  if (deadline === undefined || deadline === MAX_INT32) {
    return {
      conditions: removeCondition(input.conditions, CloneSetConditionType.Progressing),
      checkAgainInMs: undefined,
    };
  }
  const set = (status: 'True' | 'False', reason: string, message: string): CloneSetCondition[] =>
    setCondition(input.conditions, { type: CloneSetConditionType.Progressing, status, reason, message }, now);
  if (rolledOut(input)) {
    return {
      conditions: set('True', CloneSetConditionReason.CloneSetAvailable, 'CloneSet is available'),
      checkAgainInMs: undefined,
    };
  }
  if (input.cs.spec.updateStrategy.paused === true) {
    return {
      conditions: set('True', CloneSetConditionReason.CloneSetPaused, 'CloneSet is paused'),
      checkAgainInMs: undefined,
    };
  }
  if (partitionAvailable(input)) {
    return {
      conditions: set(
        'True',
        CloneSetConditionReason.ProgressPartitionAvailable,
        'CloneSet has been paused due to partition ready',
      ),
      checkAgainInMs: undefined,
    };
  }
  return deadlineCheck({ input, deadlineMs: deadline * 1000, set });
}

function deadlineCheck(options: {
  input: ProgressingInput;
  deadlineMs: number;
  set: (status: 'True' | 'False', reason: string, message: string) => CloneSetCondition[];
}): ProgressingResult {
  const { input, deadlineMs, set } = options;
  const existing = findCondition(input.conditions, CloneSetConditionType.Progressing);
  const exceeded = `CloneSet revision ${input.status.updateRevision ?? ''} has timed out progressing`;
  if (existing?.reason === CloneSetConditionReason.ProgressDeadlineExceeded) {
    return {
      conditions: set('False', CloneSetConditionReason.ProgressDeadlineExceeded, exceeded),
      checkAgainInMs: undefined,
    };
  }
  // The clock runs from when the condition last changed into "progressing"; a new rollout restarts it.
  const progressingSince =
    existing?.reason === CloneSetConditionReason.CloneSetUpdated
      ? Date.parse(existing.lastUpdateTime ?? '')
      : Number.NaN;
  const since = Number.isNaN(progressingSince) ? input.now : progressingSince;
  if (since + deadlineMs < input.now) {
    return {
      conditions: set('False', CloneSetConditionReason.ProgressDeadlineExceeded, exceeded),
      checkAgainInMs: undefined,
    };
  }
  return {
    conditions: set('True', CloneSetConditionReason.CloneSetUpdated, 'CloneSet is progressing'),
    checkAgainInMs: since + deadlineMs - input.now + 1000,
  };
}
