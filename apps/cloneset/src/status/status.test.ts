import { cloneSetSchema } from '@kruise-ts/api';
import type { CloneSet, CloneSetCondition, Pod } from '@kruise-ts/api';
import { describe, expect, it } from 'vitest';

import { calculateStatus } from './calculate-status.ts';
import { setCondition } from './conditions.ts';
import { progressingCondition } from './progressing.ts';
import { statusPatch } from '@kruise-ts/workload';

const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

function cloneSet(spec: object = {}): CloneSet {
  return cloneSetSchema.parse({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name: 'cs', namespace: 'ns', generation: 3 },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'x' } },
      template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'main', image: 'nginx' }] } },
      ...spec,
    },
  });
}

function pod(revision: string, options: { ready?: boolean; readySinceMs?: number; state?: string } = {}): Pod {
  return {
    metadata: {
      name: `p-${String(Math.random())}`,
      labels: { 'controller-revision-hash': revision, 'lifecycle.apps.kruise.io/state': options.state ?? 'Normal' },
    },
    status: {
      phase: 'Running',
      conditions: [
        {
          type: 'Ready',
          status: options.ready === false ? 'False' : 'True',
          lastTransitionTime: iso(options.readySinceMs ?? NOW - 60_000),
        },
      ],
    },
  };
}

describe('calculateStatus', () => {
  it('counts ready, available and updated pods and moves currentRevision when all are updated', () => {
    const result = calculateStatus({
      cs: cloneSet(),
      pods: [pod('new'), pod('new'), pod('new')],
      updateRevision: 'new',
      currentRevision: 'old',
      collisionCount: 0,
      partition: 0,
      conditions: [],
      now: NOW,
    });
    expect(result.status).toEqual({
      observedGeneration: 3,
      replicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      updatedReplicas: 3,
      updatedReadyReplicas: 3,
      updatedAvailableReplicas: 3,
      expectedUpdatedReplicas: 3,
      updateRevision: 'new',
      currentRevision: 'new',
      collisionCount: 0,
      labelSelector: 'app=x',
    });
  });

  it('keeps currentRevision during a rollout and applies minReadySeconds and lifecycle to availability', () => {
    const cs = cloneSet({ minReadySeconds: 30 });
    const pods = [pod('old'), pod('new', { readySinceMs: NOW - 10_000 }), pod('new', { state: 'PreparingNormal' })];
    const { status } = calculateStatus({
      cs,
      pods,
      updateRevision: 'new',
      currentRevision: 'old',
      collisionCount: 1,
      partition: 1,
      conditions: [],
      now: NOW,
    });
    expect(status).toMatchObject({
      replicas: 3,
      readyReplicas: 3,
      availableReplicas: 1,
      updatedReplicas: 2,
      updatedReadyReplicas: 2,
      updatedAvailableReplicas: 0,
      expectedUpdatedReplicas: 2,
      currentRevision: 'old',
    });
  });
});

describe('Progressing condition', () => {
  const status = (over: object): Parameters<typeof progressingCondition>[0]['status'] => ({
    replicas: 3,
    readyReplicas: 3,
    availableReplicas: 3,
    updatedReplicas: 3,
    updatedReadyReplicas: 3,
    updatedAvailableReplicas: 3,
    expectedUpdatedReplicas: 3,
    updateRevision: 'new',
    currentRevision: 'new',
    ...over,
  });
  const reason = (conditions: CloneSetCondition[]): [string | undefined, string | undefined] => {
    const c = conditions.find((x) => x.type === 'Progressing');
    return [c?.status, c?.reason];
  };

  it('is not tracked without progressDeadlineSeconds', () => {
    expect(
      progressingCondition({
        cs: cloneSet(),
        status: status({}),
        conditions: [{ type: 'Progressing', status: 'True' }],
        now: NOW,
      }).conditions,
    ).toEqual([]);
  });

  it.each([
    { name: 'available', spec: {}, statusOver: {}, expected: ['True', 'CloneSetAvailable'] },
    {
      name: 'paused',
      spec: { updateStrategy: { paused: true } },
      statusOver: { currentRevision: 'old', updatedReplicas: 1 },
      expected: ['True', 'CloneSetPaused'],
    },
    {
      name: 'partition available',
      spec: { updateStrategy: { partition: 2 } },
      statusOver: {
        currentRevision: 'old',
        updatedReplicas: 1,
        updatedAvailableReplicas: 1,
        expectedUpdatedReplicas: 1,
      },
      expected: ['True', 'ProgressPartitionAvailable'],
    },
    {
      name: 'progressing',
      spec: {},
      statusOver: { currentRevision: 'old', updatedReplicas: 1, updatedAvailableReplicas: 1 },
      expected: ['True', 'CloneSetUpdated'],
    },
  ] as const)('$name', ({ spec, statusOver, expected }) => {
    const result = progressingCondition({
      cs: cloneSet({ progressDeadlineSeconds: 60, ...spec }),
      status: status(statusOver),
      conditions: [],
      now: NOW,
    });
    expect(reason(result.conditions)).toEqual(expected);
  });

  it('times out when progressing for longer than the deadline, and stays timed out', () => {
    const cs = cloneSet({ progressDeadlineSeconds: 60 });
    const rolling = status({ currentRevision: 'old', updatedReplicas: 1, updatedAvailableReplicas: 1 });
    const started = progressingCondition({ cs, status: rolling, conditions: [], now: NOW });
    expect(started.checkAgainInMs).toBe(61_000);
    const later = progressingCondition({ cs, status: rolling, conditions: started.conditions, now: NOW + 61_000 });
    expect(reason(later.conditions)).toEqual(['False', 'ProgressDeadlineExceeded']);
    const stillLater = progressingCondition({ cs, status: rolling, conditions: later.conditions, now: NOW + 62_000 });
    expect(reason(stillLater.conditions)).toEqual(['False', 'ProgressDeadlineExceeded']);
    expect(
      reason(
        progressingCondition({ cs, status: status({}), conditions: stillLater.conditions, now: NOW + 70_000 })
          .conditions,
      ),
    ).toEqual(['True', 'CloneSetAvailable']);
  });

  it('starts the clock when a new rollout begins, not when the CloneSet last became available', () => {
    const cs = cloneSet({ progressDeadlineSeconds: 60 });
    const available = progressingCondition({ cs, status: status({}), conditions: [], now: NOW });
    const rollout = progressingCondition({
      cs,
      status: status({ currentRevision: 'old', updatedReplicas: 0, updatedAvailableReplicas: 0 }),
      conditions: available.conditions,
      now: NOW + 3_600_000,
    });
    expect(reason(rollout.conditions)).toEqual(['True', 'CloneSetUpdated']);
  });
});

describe('setCondition', () => {
  it('keeps timestamps when status and reason stay, keeps lastTransitionTime when only the reason changes', () => {
    const first = setCondition([], { type: 'Progressing', status: 'True', reason: 'A' }, NOW);
    expect(setCondition(first, { type: 'Progressing', status: 'True', reason: 'A' }, NOW + 5000)).toEqual(first);
    const second = setCondition(first, { type: 'Progressing', status: 'True', reason: 'B' }, NOW + 5000);
    expect(second[0]).toMatchObject({ lastTransitionTime: iso(NOW), lastUpdateTime: iso(NOW + 5000), reason: 'B' });
  });
});

describe('statusPatch', () => {
  it('patches changed fields only, nulls removed ones, and is undefined when nothing changed', () => {
    const current = { replicas: 3, readyReplicas: 2, conditions: [{ status: 'True', type: 'X' }] } as never;
    expect(
      statusPatch(current, {
        replicas: 3,
        readyReplicas: 2,
        availableReplicas: 0,
        updatedReplicas: 0,
        updatedReadyReplicas: 0,
        conditions: [{ type: 'X', status: 'True' }],
      } as never),
    ).toEqual({
      availableReplicas: 0,
      updatedReplicas: 0,
      updatedReadyReplicas: 0,
    });
    expect(statusPatch({ replicas: 1, collisionCount: 2 } as never, { replicas: 1 } as never)).toEqual({
      collisionCount: null,
    });
    expect(statusPatch({ replicas: 1 } as never, { replicas: 1 } as never)).toBeUndefined();
  });
});
