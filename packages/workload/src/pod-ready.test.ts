import { describe, expect, it } from 'vitest';

import { controllerReadyFalse } from './pod-ready.ts';

const c = (type: string, status: string): { type: string; status: string } => ({ type, status });
const gates = [{ conditionType: 'A' }, { conditionType: 'B' }];
const at = '2026-11-21T21:00:00Z';

describe('controllerReadyFalse', () => {
  it('takes a Ready pod out of service, in words the kubelet would not use', () => {
    expect(
      controllerReadyFalse({
        readinessGates: gates,
        conditions: [c('Ready', 'True'), c('ContainersReady', 'True'), c('A', 'False')],
        lastTransitionTime: at,
      }),
    ).toEqual({
      type: 'Ready',
      status: 'False',
      reason: 'ReadinessGatesNotReady',
      message:
        'set by the workload controller before the kubelet: the status of pod readiness gate "A" is not "True", but False, corresponding condition of pod readiness gate "B" does not exist.',
      lastTransitionTime: at,
    });
  });

  it.each([
    ['every gate True', [c('Ready', 'True'), c('ContainersReady', 'True'), c('A', 'True'), c('B', 'True')]],
    ['already not Ready', [c('Ready', 'False'), c('ContainersReady', 'True'), c('A', 'False')]],
    [
      'containers not ready (the kubelet decides)',
      [c('Ready', 'True'), c('ContainersReady', 'False'), c('A', 'False')],
    ],
    ['no Ready condition', [c('ContainersReady', 'True'), c('A', 'False')]],
  ])('nothing when %s', (_name, conditions) => {
    expect(controllerReadyFalse({ readinessGates: gates, conditions, lastTransitionTime: at })).toBeUndefined();
  });
});
