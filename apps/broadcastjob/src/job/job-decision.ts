/**
 * What a reconcile of a running BroadcastJob does (§C.4 steps 11–16, OpenKruise's order): a failed
 * job only refreshes its counts; `spec.paused` pauses it; a failed pod pauses it (Pause) or fails it
 * (FailFast); the active deadline fails it; otherwise it runs, and it is complete once every desired
 * node has a pod that no longer runs.
 */
import { BroadcastJobPhase } from '@kruise-ts/api';
import type { BroadcastJob, Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

import { jobPodState } from './job-pods.ts';
import type { JobPodCounts } from './job-pods.ts';

type ReadonlyJob = DeepReadonly<BroadcastJob>;

/** An Event the decision asks for. */
export interface JobEvent {
  readonly type: 'Normal' | 'Warning';
  readonly reason: string;
  readonly message: string;
}

/** The decision. */
export type JobDecision =
  | { readonly kind: 'stay-failed' }
  | { readonly kind: 'pause'; readonly event?: JobEvent }
  | { readonly kind: 'fail'; readonly reason: string; readonly message: string }
  | { readonly kind: 'run'; readonly event?: JobEvent };

/** What the decision reads. */
export interface DecisionInput {
  readonly job: ReadonlyJob;
  readonly counts: JobPodCounts;
  /** When the job started, in ms (the status' start time, set by this reconcile if it was not). */
  readonly startTime: number;
  readonly now: number;
}

/** OpenKruise's reason and message for FailFast. */
export const FAILED_POD_FOUND = {
  reason: 'failed pod is found',
  message: 'failure policy is FailurePolicyTypeFailFast and failed pod is found',
} as const;

/** Whether the active deadline has passed (Always jobs only). */
export function pastActiveDeadline(
  job: ReadonlyJob,
  input: { readonly startTime: number; readonly now: number },
): boolean {
  const deadline = job.spec.completionPolicy.activeDeadlineSeconds;
  return (
    job.spec.completionPolicy.type !== 'Never' &&
    deadline !== undefined &&
    input.now - input.startTime >= deadline * 1000
  );
}

function failedPodDecision(job: ReadonlyJob): JobDecision | undefined {
  switch (job.spec.failurePolicy.type) {
    case 'Pause':
      return {
        kind: 'pause',
        event: { type: 'Warning', reason: 'Paused', message: 'job is paused, due to failed pod' },
      };
    case 'FailFast':
      return { kind: 'fail', ...FAILED_POD_FOUND };
    case 'Continue':
      return undefined;
  }
}

/** The decision of this reconcile (see the file's comment). */
export function decideJob(input: DecisionInput): JobDecision {
  const { job } = input;
  const phase = job.status?.phase ?? BroadcastJobPhase.Running;
  if (phase === BroadcastJobPhase.Failed) {
    return { kind: 'stay-failed' };
  }
  if (job.spec.paused && (phase === BroadcastJobPhase.Running || phase === BroadcastJobPhase.Paused)) {
    return { kind: 'pause' };
  }
  return failureDecision(input) ?? runDecision(!job.spec.paused && phase === BroadcastJobPhase.Paused);
}

/** A failed pod (per the failure policy) or the deadline: the job pauses or fails. */
function failureDecision(input: DecisionInput): JobDecision | undefined {
  const { job } = input;
  const onFailure = input.counts.failed > 0 ? failedPodDecision(job) : undefined;
  if (onFailure !== undefined) {
    return onFailure;
  }
  if (!pastActiveDeadline(job, input)) {
    return undefined;
  }
  return {
    kind: 'fail',
    reason: 'DeadlineExceeded',
    message: `Job ${job.metadata.namespace ?? ''}/${job.metadata.name ?? ''} was active longer than specified deadline`,
  };
}

function runDecision(resumed: boolean): JobDecision {
  return resumed
    ? { kind: 'run', event: { type: 'Normal', reason: 'Continue', message: 'continue to process job' } }
    : { kind: 'run' };
}

/** Whether the job is complete: not Never, at least one desired node, and every one has a pod that no longer runs. */
export function isJobComplete(job: ReadonlyJob, desired: ReadonlyMap<string, DeepReadonly<Pod> | undefined>): boolean {
  if (job.spec.completionPolicy.type === 'Never' || desired.size === 0) {
    return false;
  }
  return [...desired.values()].every((pod) => pod !== undefined && jobPodState(job, pod) !== 'active');
}

/** Whether the job has finished: a True Complete or Failed condition (not for Never, as OpenKruise). */
export function isJobFinished(job: ReadonlyJob): boolean {
  if (job.spec.completionPolicy.type === 'Never') {
    return false;
  }
  return (job.status?.conditions ?? []).some(
    (condition) => (condition.type === 'Complete' || condition.type === 'Failed') && condition.status === 'True',
  );
}

/** Milliseconds until a finished job's TTL passes (≤ 0: delete it now); undefined without a TTL. */
export function untilTtlDeadline(job: ReadonlyJob, now: number): number | undefined {
  const ttl = job.spec.completionPolicy.ttlSecondsAfterFinished;
  const completed = job.status?.completionTime;
  if (ttl === undefined || completed === undefined) {
    return undefined;
  }
  return Date.parse(completed) + ttl * 1000 - now;
}
