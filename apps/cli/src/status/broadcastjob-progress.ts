/**
 * Where a BroadcastJob stands: its pods on the eligible nodes succeeding; done at its Complete
 * condition, failed at its Failed condition (with the controller's message).
 */
import { subjectName } from './rollout-progress.ts';
import type { RolloutProgress } from './rollout-progress.ts';
import { failureOf } from './status-conditions.ts';
import type { StatusSubject } from './status-subject.ts';

function countsOf(status: NonNullable<StatusSubject['status']>): [number, number, number, number] {
  return [status.desired ?? 0, status.succeeded ?? 0, status.failed ?? 0, status.active ?? 0];
}

export function broadcastJobProgress(subject: StatusSubject): RolloutProgress {
  const status = subject.status ?? {};
  const name = subjectName('broadcastjob', subject.metadata.name);
  const [desired, succeeded, failed, active] = countsOf(status);
  const paused = subject.spec.paused === true;
  const base = {
    bars: [
      { label: 'succeeded', value: succeeded, total: desired },
      { label: 'failed', value: failed, total: desired },
      { label: 'active', value: active, total: desired },
    ],
    notes: [...(paused ? ['paused'] : []), ...(status.phase === undefined ? [] : [status.phase])],
    inFlight: [],
  };
  const failure = failureOf(status.conditions);
  if (failure !== undefined) {
    return { ...base, phase: 'failed', message: `${name} ${failure}` };
  }
  if (status.conditions?.some((condition) => condition.type === 'Complete' && condition.status === 'True') === true) {
    return {
      ...base,
      phase: 'done',
      message: `${name} completed: ${String(succeeded)} of ${String(desired)} pods succeeded`,
    };
  }
  const counts = `${String(succeeded)} of ${String(desired)} pods succeeded, ${String(failed)} failed, ${String(active)} active...`;
  return {
    ...base,
    phase: 'waiting',
    message: `Waiting for ${name} to complete: ${counts}${paused ? ' (paused)' : ''}`,
  };
}
