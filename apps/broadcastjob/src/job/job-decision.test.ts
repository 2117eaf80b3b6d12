import { describe, expect, it } from 'vitest';

import { broadcastJobSchema } from '@kruise-ts/api';
import type { BroadcastJob, BroadcastJobInput, Pod } from '@kruise-ts/api';

import { decideJob, isJobComplete, isJobFinished, untilTtlDeadline } from './job-decision.ts';
import { countJobPods, jobPodState } from './job-pods.ts';

const START = Date.parse('2026-11-25T00:00:00Z');

function job(
  spec: Partial<BroadcastJobInput['spec']> = {},
  status: Partial<NonNullable<BroadcastJob['status']>> = {},
  restartPolicy: 'Never' | 'OnFailure' = 'Never',
): BroadcastJob {
  return broadcastJobSchema.parse({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'BroadcastJob',
    metadata: { name: 'j', namespace: 'ns', uid: 'u' },
    spec: { template: { spec: { containers: [{ name: 'c', image: 'busybox' }], restartPolicy } }, ...spec },
    status,
  });
}

const counts = (failed = 0) => ({ active: 1, succeeded: 0, failed });
const pod = (phase: string, restarts = 0): Pod => ({
  metadata: { name: 'p' },
  status: {
    phase,
    containerStatuses: [{ name: 'c', image: 'busybox', imageID: '', ready: true, restartCount: restarts }],
  },
});

describe('decideJob', () => {
  it.each([
    {
      name: 'a failed job stays failed',
      job: job({}, { phase: 'failed' }),
      failed: 0,
      now: START,
      kind: 'stay-failed',
    },
    { name: 'paused', job: job({ paused: true }), failed: 0, now: START, kind: 'pause' },
    {
      name: 'FailFast with a failed pod fails',
      job: job(),
      failed: 1,
      now: START,
      kind: 'fail',
      reason: 'failed pod is found',
    },
    {
      name: 'Continue with a failed pod runs',
      job: job({ failurePolicy: { type: 'Continue' } }),
      failed: 1,
      now: START,
      kind: 'run',
    },
    {
      name: 'Pause with a failed pod pauses',
      job: job({ failurePolicy: { type: 'Pause' } }),
      failed: 2,
      now: START,
      kind: 'pause',
      reason: 'Paused',
    },
    {
      name: 'past the active deadline fails',
      job: job({ completionPolicy: { activeDeadlineSeconds: 10 } }),
      failed: 0,
      now: START + 10_000,
      kind: 'fail',
      reason: 'DeadlineExceeded',
    },
    {
      name: 'before the deadline runs',
      job: job({ completionPolicy: { activeDeadlineSeconds: 10 } }),
      failed: 0,
      now: START + 9_999,
      kind: 'run',
    },
    {
      name: 'resumed after a pause runs with Continue',
      job: job({}, { phase: 'paused' }),
      failed: 0,
      now: START,
      kind: 'run',
      reason: 'Continue',
    },
  ])('$name', ({ job: input, failed, now, kind, reason }) => {
    const decision = decideJob({ job: input, counts: counts(failed), startTime: START, now });
    expect(decision.kind).toBe(kind);
    if (reason !== undefined) {
      expect(
        'reason' in decision
          ? decision.reason
          : decision.kind === 'pause' || decision.kind === 'run'
            ? decision.event?.reason
            : undefined,
      ).toBe(reason);
    }
  });
});

describe('job pods', () => {
  it('counts an OnFailure pod over its restart limit as failed, and a Never pod by its phase', () => {
    const onFailure = job({ failurePolicy: { type: 'Continue', restartLimit: 2 } }, {}, 'OnFailure');
    expect(jobPodState(onFailure, pod('Running', 2))).toBe('active');
    expect(jobPodState(onFailure, pod('Running', 3))).toBe('failed');
    expect(jobPodState(job(), pod('Running', 3))).toBe('active');
    expect(
      countJobPods(job(), [
        pod('Succeeded'),
        pod('Failed'),
        pod('Running'),
        { ...pod('Running'), metadata: { name: 'd', deletionTimestamp: '2026-11-25T00:00:00Z' } },
      ]),
    ).toEqual({ active: 1, succeeded: 1, failed: 1 });
  });
});

describe('completion and TTL', () => {
  it('is complete when every desired node has a pod that no longer runs, never for Never or no node', () => {
    expect(
      isJobComplete(
        job(),
        new Map([
          ['a', pod('Succeeded')],
          ['b', pod('Failed')],
        ]),
      ),
    ).toBe(true);
    expect(
      isJobComplete(
        job(),
        new Map([
          ['a', pod('Succeeded')],
          ['b', undefined],
        ]),
      ),
    ).toBe(false);
    expect(isJobComplete(job(), new Map([['a', pod('Running')]]))).toBe(false);
    expect(isJobComplete(job(), new Map())).toBe(false);
    expect(isJobComplete(job({ completionPolicy: { type: 'Never' } }), new Map([['a', pod('Succeeded')]]))).toBe(false);
  });

  it('is finished with a True Complete or Failed condition, and counts the TTL from completionTime', () => {
    const done = job(
      { completionPolicy: { ttlSecondsAfterFinished: 30 } },
      { conditions: [{ type: 'Complete', status: 'True' }], completionTime: '2026-11-25T00:00:00Z' },
    );
    expect(isJobFinished(done)).toBe(true);
    expect(untilTtlDeadline(done, START + 10_000)).toBe(20_000);
    expect(untilTtlDeadline(job(), START)).toBeUndefined();
  });
});
