import { describe, expect, it } from 'vitest';

import { broadcastJobProgress } from './broadcastjob-progress.ts';
import { sidecarSetRolloutProgress } from './sidecarset-progress.ts';
import type { StatusSubject } from './status-subject.ts';

interface Row {
  readonly name: string;
  readonly subject: StatusSubject;
  readonly phase: string;
  readonly message: string;
}

const object = (spec: StatusSubject['spec'], status: NonNullable<StatusSubject['status']>): StatusSubject => ({
  metadata: { name: 'x', uid: 'u', generation: 1 },
  spec,
  status: { observedGeneration: 1, ...status },
});

describe('sidecarSetRolloutProgress', () => {
  it.each<Row>([
    {
      name: 'upgrading',
      subject: object({}, { matchedPods: 4, updatedPods: 1, updatedReadyPods: 1, readyPods: 4 }),
      phase: 'waiting',
      message: 'Waiting for sidecarset "x" rollout to finish: 1 out of 4 pods have been updated...',
    },
    {
      name: 'not ready',
      subject: object({}, { matchedPods: 4, updatedPods: 4, updatedReadyPods: 3, readyPods: 3 }),
      phase: 'waiting',
      message: 'Waiting for sidecarset "x" rollout to finish: 3 of 4 updated pods are ready...',
    },
    {
      name: 'paused',
      subject: object({ updateStrategy: { paused: true } }, { matchedPods: 4, updatedPods: 0 }),
      phase: 'waiting',
      message: 'Waiting for sidecarset "x" rollout to finish: 0 out of 4 pods have been updated... (paused)',
    },
    {
      name: 'partition of 50%',
      subject: object(
        { updateStrategy: { partition: '50%' } },
        { matchedPods: 4, updatedPods: 2, updatedReadyPods: 2 },
      ),
      phase: 'done',
      message: 'partitioned roll out complete: 2 pods have been updated (partition 2)...',
    },
    {
      name: 'done',
      subject: object({}, { matchedPods: 4, updatedPods: 4, updatedReadyPods: 4, readyPods: 4 }),
      phase: 'done',
      message: 'sidecarset "x" successfully rolled out',
    },
    {
      name: 'no pods matched',
      subject: object({}, { matchedPods: 0 }),
      phase: 'done',
      message: 'sidecarset "x" successfully rolled out',
    },
    {
      name: 'not observed',
      subject: {
        ...object({}, { matchedPods: 4, updatedPods: 4, updatedReadyPods: 4 }),
        metadata: { name: 'x', uid: 'u', generation: 2 },
      },
      phase: 'waiting',
      message: 'Waiting for sidecarset "x" spec update to be observed...',
    },
  ])('$name', ({ subject, phase, message }) => {
    expect(sidecarSetRolloutProgress(subject)).toMatchObject({ phase, message });
  });

  it('draws updated, updated-ready and ready against the matched pods', () => {
    expect(
      sidecarSetRolloutProgress(
        object(
          { updateStrategy: { partition: 1 } },
          { matchedPods: 4, updatedPods: 2, updatedReadyPods: 1, readyPods: 3 },
        ),
      ).bars,
    ).toEqual([
      { label: 'updated', value: 2, total: 4, mark: 3 },
      { label: 'updated-ready', value: 1, total: 4, mark: 3 },
      { label: 'ready', value: 3, total: 4 },
    ]);
  });
});

describe('broadcastJobProgress', () => {
  it.each<Row>([
    {
      name: 'running',
      subject: object({}, { desired: 4, active: 2, succeeded: 1, failed: 1 }),
      phase: 'waiting',
      message: 'Waiting for broadcastjob "x" to complete: 1 of 4 pods succeeded, 1 failed, 2 active...',
    },
    {
      name: 'paused',
      subject: object({ paused: true }, { desired: 4, active: 0, succeeded: 1 }),
      phase: 'waiting',
      message: 'Waiting for broadcastjob "x" to complete: 1 of 4 pods succeeded, 0 failed, 0 active... (paused)',
    },
    {
      name: 'complete',
      subject: object({}, { desired: 4, succeeded: 4, conditions: [{ type: 'Complete', status: 'True' }] }),
      phase: 'done',
      message: 'broadcastjob "x" completed: 4 of 4 pods succeeded',
    },
    {
      name: 'failed',
      subject: object(
        {},
        {
          desired: 4,
          failed: 1,
          conditions: [
            {
              type: 'Failed',
              status: 'True',
              reason: 'BackoffLimitExceeded',
              message: 'Job has reached the specified backoff limit',
            },
          ],
        },
      ),
      phase: 'failed',
      message: 'broadcastjob "x" failed: Job has reached the specified backoff limit',
    },
  ])('$name', ({ subject, phase, message }) => {
    expect(broadcastJobProgress(subject)).toMatchObject({ phase, message });
  });
});
