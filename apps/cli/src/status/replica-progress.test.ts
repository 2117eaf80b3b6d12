import { describe, expect, it } from 'vitest';

import { resolveKind } from '../resources/kinds.ts';
import type { Kind } from '../resources/kinds.ts';
import { replicaRolloutProgress } from './replica-progress.ts';
import type { StatusSubject, SubjectStatus } from './status-subject.ts';

const kindOf = (type: string): Kind => resolveKind(type) ?? (undefined as never);
const CLONESET = kindOf('cloneset');
const ASTS = kindOf('asts');

function subject(spec: StatusSubject['spec'], status: SubjectStatus, generation = 2): StatusSubject {
  return { metadata: { name: 'web', uid: 'u1', generation }, spec, status: { observedGeneration: 2, ...status } };
}

interface Row {
  readonly name: string;
  readonly kind: Kind;
  readonly object: StatusSubject;
  readonly phase: string;
  readonly message: string;
}

const settled = { replicas: 10, updatedReplicas: 10, updatedReadyReplicas: 10, availableReplicas: 10 };

describe('replicaRolloutProgress', () => {
  it.each<Row>([
    {
      name: 'spec not observed',
      kind: CLONESET,
      object: subject({ replicas: 10 }, settled, 3),
      phase: 'waiting',
      message: 'Waiting for cloneset "web" spec update to be observed...',
    },
    {
      name: 'new pods not created',
      kind: CLONESET,
      object: subject({ replicas: 10 }, { ...settled, updatedReplicas: 4 }),
      phase: 'waiting',
      message: 'Waiting for cloneset "web" rollout to finish: 4 out of 10 new replicas have been updated...',
    },
    {
      name: 'new pods not ready',
      kind: CLONESET,
      object: subject({ replicas: 10 }, { ...settled, updatedReadyReplicas: 7 }),
      phase: 'waiting',
      message: 'Waiting for cloneset "web" rollout to finish: 7 of 10 updated replicas are ready...',
    },
    {
      name: 'old pods left',
      kind: CLONESET,
      object: subject({ replicas: 10 }, { ...settled, replicas: 12 }),
      phase: 'waiting',
      message: 'Waiting for cloneset "web" rollout to finish: 2 old replicas are pending termination...',
    },
    {
      name: 'not all available',
      kind: CLONESET,
      object: subject({ replicas: 10 }, { ...settled, replicas: 10, availableReplicas: 9 }),
      phase: 'waiting',
      message: 'Waiting for cloneset "web" rollout to finish: 9 of 10 updated replicas are available...',
    },
    {
      name: 'done',
      kind: CLONESET,
      object: subject({ replicas: 10 }, { ...settled, replicas: 10 }),
      phase: 'done',
      message: 'cloneset "web" successfully rolled out',
    },
    {
      name: 'paused',
      kind: CLONESET,
      object: subject({ replicas: 10, updateStrategy: { paused: true } }, { ...settled, updatedReplicas: 3 }),
      phase: 'waiting',
      message: 'Waiting for cloneset "web" rollout to finish: 3 out of 10 new replicas have been updated... (paused)',
    },
    {
      name: 'partition reached',
      kind: CLONESET,
      object: subject(
        { replicas: 10, updateStrategy: { partition: 4 } },
        { ...settled, replicas: 10, updatedReplicas: 6, updatedReadyReplicas: 6 },
      ),
      phase: 'done',
      message: 'partitioned roll out complete: 6 new pods have been updated (partition 4)...',
    },
    {
      name: 'partition as a percentage, rounded up',
      kind: CLONESET,
      object: subject(
        { replicas: 10, updateStrategy: { partition: '25%' } },
        { ...settled, updatedReplicas: 6, updatedReadyReplicas: 6 },
      ),
      phase: 'waiting',
      message: 'Waiting for cloneset "web" rollout to finish: 6 out of 7 new replicas have been updated...',
    },
    {
      name: 'partition above replicas',
      kind: CLONESET,
      object: subject(
        { replicas: 3, updateStrategy: { partition: 5 } },
        { replicas: 3, updatedReplicas: 0, updatedReadyReplicas: 0, availableReplicas: 3 },
      ),
      phase: 'done',
      message: 'partitioned roll out complete: 0 new pods have been updated (partition 3)...',
    },
    {
      name: 'asts partition',
      kind: ASTS,
      object: subject(
        { replicas: 5, updateStrategy: { rollingUpdate: { partition: 2 } } },
        { replicas: 5, updatedReplicas: 2, updatedReadyReplicas: 2, availableReplicas: 5 },
      ),
      phase: 'waiting',
      message: 'Waiting for statefulset "web" rollout to finish: 2 out of 3 new replicas have been updated...',
    },
    {
      name: 'asts paused',
      kind: ASTS,
      object: subject(
        { replicas: 5, updateStrategy: { rollingUpdate: { paused: true } } },
        { replicas: 5, updatedReplicas: 1 },
      ),
      phase: 'waiting',
      message: 'Waiting for statefulset "web" rollout to finish: 1 out of 5 new replicas have been updated... (paused)',
    },
    {
      name: 'asts done',
      kind: ASTS,
      object: subject(
        { replicas: 5 },
        { replicas: 5, updatedReplicas: 5, updatedReadyReplicas: 5, availableReplicas: 5 },
      ),
      phase: 'done',
      message: 'statefulset "web" successfully rolled out',
    },
    {
      name: 'no status yet',
      kind: CLONESET,
      object: { metadata: { name: 'web', uid: 'u1', generation: 1 }, spec: { replicas: 2 } },
      phase: 'waiting',
      message: 'Waiting for cloneset "web" spec update to be observed...',
    },
  ])('$name', ({ kind, object, phase, message }) => {
    expect(replicaRolloutProgress(kind, object, [])).toMatchObject({ phase, message });
  });

  it.each<[string, NonNullable<SubjectStatus['conditions']>, string]>([
    [
      'progress deadline',
      [
        {
          type: 'Progressing',
          status: 'False',
          reason: 'ProgressDeadlineExceeded',
          message: 'CloneSet "web" has timed out progressing.',
        },
      ],
      'cloneset "web" exceeded its progress deadline: CloneSet "web" has timed out progressing.',
    ],
    [
      'failed update',
      [{ type: 'FailedUpdate', status: 'True', reason: 'UpdateFailed', message: 'pods "web-a" is forbidden' }],
      'cloneset "web" failed to update its pods: pods "web-a" is forbidden',
    ],
    [
      'invalid template',
      [
        {
          type: 'FailedScale',
          status: 'True',
          reason: 'InvalidTemplate',
          message: 'spec.template.spec.containers[0].name: Invalid value',
        },
      ],
      'cloneset "web" cannot create pods from its template: spec.template.spec.containers[0].name: Invalid value',
    ],
  ])('fails on %s, with the condition message', (_name, conditions, message) => {
    expect(
      replicaRolloutProgress(CLONESET, subject({ replicas: 10 }, { ...settled, updatedReplicas: 1, conditions }), []),
    ).toMatchObject({ phase: 'failed', message });
  });

  it('does not fail on a condition of a generation the controller has not seen (it may be about a fixed template)', () => {
    const conditions = [{ type: 'FailedUpdate', status: 'True', message: 'old' }];
    expect(replicaRolloutProgress(CLONESET, subject({ replicas: 10 }, { ...settled, conditions }, 3), []).phase).toBe(
      'waiting',
    );
  });

  it('waits through a failed scale that may clear (a quota), as kubectl does', () => {
    const conditions = [{ type: 'FailedScale', status: 'True', reason: 'CreateFailed', message: 'exceeded quota' }];
    expect(
      replicaRolloutProgress(CLONESET, subject({ replicas: 10 }, { ...settled, updatedReplicas: 1, conditions }), [])
        .phase,
    ).toBe('waiting');
  });

  it('gives the bars, the partition mark and the notes', () => {
    const progress = replicaRolloutProgress(
      CLONESET,
      subject(
        { replicas: 10, updateStrategy: { partition: 4, paused: true } },
        {
          replicas: 10,
          updatedReplicas: 3,
          updatedReadyReplicas: 2,
          availableReplicas: 9,
          updateRevision: 'web-5f6b7',
        },
      ),
      [{ name: 'web-a', state: 'updating in place' }],
    );
    expect(progress.bars).toEqual([
      { label: 'updated', value: 3, total: 10, mark: 6 },
      { label: 'updated-ready', value: 2, total: 10, mark: 6 },
      { label: 'available', value: 9, total: 10 },
    ]);
    expect(progress.notes).toEqual(['paused', 'partition 4', 'revision web-5f6b7']);
    expect(progress.inFlight).toEqual([{ name: 'web-a', state: 'updating in place' }]);
  });
});
