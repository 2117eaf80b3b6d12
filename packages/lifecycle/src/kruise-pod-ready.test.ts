import { describe, expect, it } from 'vitest';

import type { Pod } from '@kruise-ts/api';
import { deepFreeze } from '@kruise-ts/controller-runtime';

import {
  hasKruisePodReadyGate,
  initialKruisePodReadyCondition,
  kruisePodReadyChangeFor,
  kruisePodReadyConditionUpdate,
} from './kruise-pod-ready.ts';
import type { PodCondition } from './kruise-pod-ready.ts';

const NOW = Date.parse('2026-01-02T00:00:00Z');
const TS = '2026-01-02T00:00:00Z';
const EARLIER = '2026-01-01T00:00:00Z';

function podWith(conditions: PodCondition[], gates = ['KruisePodReady']): Pod {
  return deepFreeze<Pod>({
    metadata: { name: 'p', namespace: 'ns' },
    spec: { containers: [{ name: 'c' }], readinessGates: gates.map((conditionType) => ({ conditionType })) },
    status: { conditions },
  }) as Pod;
}

const readyTrue: PodCondition = { type: 'Ready', status: 'True', lastTransitionTime: EARLIER };
const containersReady: PodCondition = { type: 'ContainersReady', status: 'True', lastTransitionTime: EARLIER };
const gateTrue: PodCondition = { type: 'KruisePodReady', status: 'True', lastTransitionTime: EARLIER };

function find(conditions: readonly PodCondition[] | undefined, type: string): PodCondition | undefined {
  return conditions?.find((c) => c.type === type);
}

describe('kruisePodReadyConditionUpdate: add', () => {
  it('adds the key, turns the condition False and recomputes Ready', () => {
    const next = kruisePodReadyConditionUpdate(podWith([readyTrue, containersReady, gateTrue]), {
      key: 'preDeleteHook',
      action: 'add',
      now: NOW,
    });
    expect(find(next, 'KruisePodReady')).toEqual({
      type: 'KruisePodReady',
      status: 'False',
      message: '[{"userAgent":"Lifecycle","key":"preDeleteHook"}]',
      lastTransitionTime: TS,
    });
    expect(find(next, 'Ready')).toEqual({
      type: 'Ready',
      status: 'False',
      reason: 'ReadinessGatesNotReady',
      message:
        'set by the workload controller before the kubelet: the status of pod readiness gate "KruisePodReady" is not "True", but False',
      lastTransitionTime: TS,
    });
    expect(find(next, 'ContainersReady')).toEqual(containersReady);
  });

  it('keeps other messages, sorted by userAgent then key', () => {
    const gate = {
      ...gateTrue,
      status: 'False',
      message:
        '[{"userAgent":"Zeta","key":"a"},{"userAgent":"Lifecycle","key":"preUpdateHook"},{"userAgent":"Alpha","key":"z"}]',
    };
    const next = kruisePodReadyConditionUpdate(podWith([gate]), { key: 'preDeleteHook', action: 'add', now: NOW });
    expect(find(next, 'KruisePodReady')?.message).toBe(
      '[{"userAgent":"Alpha","key":"z"},{"userAgent":"Lifecycle","key":"preDeleteHook"},{"userAgent":"Lifecycle","key":"preUpdateHook"},{"userAgent":"Zeta","key":"a"}]',
    );
  });

  it('creates the condition when it is missing (status False; upstream leaves the status empty)', () => {
    const next = kruisePodReadyConditionUpdate(podWith([]), { key: 'preUpdateHook', action: 'add', now: NOW });
    expect(next).toEqual([
      {
        type: 'KruisePodReady',
        status: 'False',
        message: '[{"userAgent":"Lifecycle","key":"preUpdateHook"}]',
        lastTransitionTime: TS,
      },
    ]);
  });

  it('changes nothing when the key is already there', () => {
    const gate = { ...gateTrue, status: 'False', message: '[{"userAgent":"Lifecycle","key":"preDeleteHook"}]' };
    expect(
      kruisePodReadyConditionUpdate(podWith([gate]), { key: 'preDeleteHook', action: 'add', now: NOW }),
    ).toBeUndefined();
  });

  it('reads an unparsable message as empty', () => {
    const gate = { ...gateTrue, message: 'not json' };
    expect(
      find(
        kruisePodReadyConditionUpdate(podWith([gate]), { key: 'preDeleteHook', action: 'add', now: NOW }),
        'KruisePodReady',
      )?.message,
    ).toBe('[{"userAgent":"Lifecycle","key":"preDeleteHook"}]');
  });

  it('leaves Ready alone while containers are not ready', () => {
    const next = kruisePodReadyConditionUpdate(
      podWith([readyTrue, { ...containersReady, status: 'False' }, gateTrue]),
      { key: 'preDeleteHook', action: 'add', now: NOW },
    );
    expect(find(next, 'Ready')).toEqual(readyTrue);
  });

  it('names every unready gate in the Ready message', () => {
    const next = kruisePodReadyConditionUpdate(
      podWith([readyTrue, containersReady, gateTrue], ['InPlaceUpdateReady', 'KruisePodReady']),
      {
        key: 'preDeleteHook',
        action: 'add',
        now: NOW,
      },
    );
    expect(find(next, 'Ready')?.message).toBe(
      'set by the workload controller before the kubelet: corresponding condition of pod readiness gate "InPlaceUpdateReady" does not exist., the status of pod readiness gate "KruisePodReady" is not "True", but False',
    );
  });
});

describe('kruisePodReadyConditionUpdate: remove', () => {
  it('removes the key and turns the condition True when no message remains', () => {
    const gate = { ...gateTrue, status: 'False', message: '[{"userAgent":"Lifecycle","key":"preUpdateHook"}]' };
    const next = kruisePodReadyConditionUpdate(podWith([readyTrue, gate]), {
      key: 'preUpdateHook',
      action: 'remove',
      now: NOW,
    });
    expect(find(next, 'KruisePodReady')).toEqual({
      type: 'KruisePodReady',
      status: 'True',
      message: '[]',
      lastTransitionTime: TS,
    });
    // Ready is left to the kubelet, as upstream.
    expect(find(next, 'Ready')).toEqual(readyTrue);
  });

  it('stays False while another message remains', () => {
    const gate = {
      ...gateTrue,
      status: 'False',
      message: '[{"userAgent":"Lifecycle","key":"preUpdateHook"},{"userAgent":"Lifecycle","key":"preDeleteHook"}]',
    };
    const next = kruisePodReadyConditionUpdate(podWith([gate]), { key: 'preUpdateHook', action: 'remove', now: NOW });
    expect(find(next, 'KruisePodReady')).toEqual({
      type: 'KruisePodReady',
      status: 'False',
      message: '[{"userAgent":"Lifecycle","key":"preDeleteHook"}]',
      lastTransitionTime: TS,
    });
  });

  it('changes nothing when the key or the condition is absent', () => {
    expect(
      kruisePodReadyConditionUpdate(podWith([gateTrue]), { key: 'preUpdateHook', action: 'remove', now: NOW }),
    ).toBeUndefined();
    expect(
      kruisePodReadyConditionUpdate(podWith([]), { key: 'preUpdateHook', action: 'remove', now: NOW }),
    ).toBeUndefined();
  });
});

describe('the readiness gate rule', () => {
  it('does nothing without the KruisePodReady readiness gate', () => {
    const pod = podWith([readyTrue, containersReady, gateTrue], []);
    expect(hasKruisePodReadyGate(pod)).toBe(false);
    expect(kruisePodReadyConditionUpdate(pod, { key: 'preDeleteHook', action: 'add', now: NOW })).toBeUndefined();
    const gate = { ...gateTrue, status: 'False', message: '[{"userAgent":"Lifecycle","key":"preUpdateHook"}]' };
    expect(
      kruisePodReadyConditionUpdate(podWith([gate], ['Other']), { key: 'preUpdateHook', action: 'remove', now: NOW }),
    ).toBeUndefined();
  });
});

describe('kruisePodReadyChangeFor and the initial condition', () => {
  it.each([
    ['PreparingDelete', { key: 'preDeleteHook', action: 'add' }],
    ['PreparingUpdate', { key: 'preUpdateHook', action: 'add' }],
    ['Updated', { key: 'preUpdateHook', action: 'remove' }],
    ['PreparingNormal', undefined],
    ['Normal', undefined],
    ['Updating', undefined],
  ] as const)('%s ⇒ %j', (state, expected) => {
    expect(kruisePodReadyChangeFor(state)).toEqual(expected);
  });

  it('starts True', () => {
    expect(initialKruisePodReadyCondition(NOW)).toEqual({
      type: 'KruisePodReady',
      status: 'True',
      lastTransitionTime: TS,
    });
  });
});
