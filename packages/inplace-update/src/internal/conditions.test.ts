import { describe, expect, it } from 'vitest';

import type { Pod } from '@kruise-ts/api';

import { runningPod } from '../../test/fixtures/revisions.ts';
import { completionConditions, conditionPatch, startConditions } from './conditions.ts';
import type { PodCondition } from './conditions.ts';

const NOW = Date.parse('2026-01-02T03:04:05.678Z');

function withConditions(conditions: PodCondition[], gates = ['InPlaceUpdateReady']): Pod {
  const pod = runningPod();
  return {
    ...pod,
    spec: { containers: pod.spec?.containers ?? [], readinessGates: gates.map((conditionType) => ({ conditionType })) },
    status: { ...pod.status, conditions },
  };
}

const T = '2026-01-01T00:00:00Z';
const condition = (type: string, status: string, extra: Partial<PodCondition> = {}): PodCondition => ({
  type,
  status,
  lastTransitionTime: T,
  ...extra,
});

describe('startConditions', () => {
  it.each<[string, Pod, PodCondition[]]>([
    [
      'ready pod: gate False and Ready False',
      withConditions([
        condition('InPlaceUpdateReady', 'True'),
        condition('ContainersReady', 'True'),
        condition('Ready', 'True'),
      ]),
      [
        {
          type: 'InPlaceUpdateReady',
          status: 'False',
          reason: 'StartInPlaceUpdate',
          lastTransitionTime: '2026-01-02T03:04:05Z',
        },
        {
          type: 'Ready',
          status: 'False',
          reason: 'ReadinessGatesNotReady',
          message:
            'set by the workload controller before the kubelet: the status of pod readiness gate "InPlaceUpdateReady" is not "True", but False',
          lastTransitionTime: '2026-01-02T03:04:05Z',
        },
      ],
    ],
    [
      'containers not ready: Ready left to the kubelet',
      withConditions([
        condition('InPlaceUpdateReady', 'True'),
        condition('ContainersReady', 'False'),
        condition('Ready', 'False'),
      ]),
      [
        {
          type: 'InPlaceUpdateReady',
          status: 'False',
          reason: 'StartInPlaceUpdate',
          lastTransitionTime: '2026-01-02T03:04:05Z',
        },
      ],
    ],
    [
      'already False',
      withConditions([
        condition('InPlaceUpdateReady', 'False'),
        condition('ContainersReady', 'True'),
        condition('Ready', 'False'),
      ]),
      [],
    ],
    ['no readiness gate', withConditions([condition('Ready', 'True')], []), []],
    [
      'condition missing: created False',
      withConditions([condition('ContainersReady', 'True')]),
      [
        {
          type: 'InPlaceUpdateReady',
          status: 'False',
          reason: 'StartInPlaceUpdate',
          lastTransitionTime: '2026-01-02T03:04:05Z',
        },
      ],
    ],
  ])('%s', (_name, pod, expected) => {
    expect(startConditions(pod, NOW)).toEqual(expected);
  });
});

describe('completionConditions', () => {
  const gates = ['InPlaceUpdateReady', 'KruisePodReady'];
  it.each<[string, Pod, PodCondition[]]>([
    [
      // Ready True is the kubelet's to write (a controller's True is republished as the kubelet's stale False).
      'after an update: the gate True, Ready left to the kubelet',
      withConditions(
        [
          condition('InPlaceUpdateReady', 'False', { reason: 'StartInPlaceUpdate' }),
          condition('KruisePodReady', 'True'),
          condition('ContainersReady', 'True'),
          condition('Ready', 'False'),
        ],
        gates,
      ),
      [{ type: 'InPlaceUpdateReady', status: 'True', lastTransitionTime: '2026-01-02T03:04:05Z' }],
    ],
    [
      'another gate still False',
      withConditions(
        [
          condition('InPlaceUpdateReady', 'False'),
          condition('KruisePodReady', 'False'),
          condition('ContainersReady', 'True'),
          condition('Ready', 'False'),
        ],
        gates,
      ),
      [{ type: 'InPlaceUpdateReady', status: 'True', lastTransitionTime: '2026-01-02T03:04:05Z' }],
    ],
    [
      'True with a reason: the reason goes, the time stays',
      withConditions([
        condition('InPlaceUpdateReady', 'True', { reason: 'Old' }),
        condition('ContainersReady', 'True'),
        condition('Ready', 'True'),
      ]),
      [{ type: 'InPlaceUpdateReady', status: 'True', lastTransitionTime: T }],
    ],
    ['already plain True', withConditions([condition('InPlaceUpdateReady', 'True'), condition('Ready', 'False')]), []],
    ['no readiness gate', withConditions([condition('InPlaceUpdateReady', 'False')], []), []],
  ])('%s', (_name, pod, expected) => {
    expect(completionConditions(pod, NOW)).toEqual(expected);
  });

  it('patches delete the fields a condition does not have', () => {
    expect(conditionPatch({ type: 'X', status: 'True', lastTransitionTime: T })).toEqual({
      type: 'X',
      status: 'True',
      reason: null,
      message: null,
      lastTransitionTime: T,
    });
  });
});
