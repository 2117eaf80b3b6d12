import { describe, expect, it } from 'vitest';

import type { Pod } from '@kruise-ts/api';

import { pod } from '../test/fixtures/pods.ts';
import {
  conditionStatus,
  isPodActive,
  isPodAvailable,
  isPodReady,
  isPodRunningAndReady,
  isPodScheduled,
  podAvailableInMs,
  podReadySince,
} from './pod-state.ts';

const T0 = Date.parse('2026-01-01T00:00:00Z');

describe('isPodActive', () => {
  it.each([
    ['Running', false, true],
    ['Pending', false, true],
    ['Unknown', false, true],
    ['Succeeded', false, false],
    ['Failed', false, false],
    ['Running', true, false],
  ])('phase %s, deleting %s ⇒ %s', (phase, deleting, expected) => {
    expect(isPodActive(pod({ name: 'p', phase, deleting }))).toBe(expected);
  });

  it('counts a pod without status as active', () => {
    expect(isPodActive({ metadata: { name: 'p' } })).toBe(true);
  });
});

describe('pod readiness', () => {
  it('reads conditions', () => {
    const p = pod({ name: 'p', ready: false });
    expect(conditionStatus(p, 'Ready')).toBe('False');
    expect(conditionStatus(p, 'KruisePodReady')).toBeUndefined();
    expect(isPodReady(p)).toBe(false);
    expect(isPodReady(pod({ name: 'p' }))).toBe(true);
    expect(isPodReady({ metadata: { name: 'p' } })).toBe(false);
  });

  it('is scheduled when nodeName is set', () => {
    expect(isPodScheduled(pod({ name: 'p', node: 'n' }))).toBe(true);
    expect(isPodScheduled(pod({ name: 'p', node: '' }))).toBe(false);
  });

  it('knows since when a Ready pod is ready', () => {
    expect(podReadySince(pod({ name: 'p', readySince: '2026-01-01T00:00:10Z' }))).toBe(T0 + 10_000);
    expect(podReadySince(pod({ name: 'p', ready: false }))).toBeUndefined();
    const noTime: Pod = { status: { conditions: [{ type: 'Ready', status: 'True' }] } };
    expect(podReadySince(noTime)).toBeUndefined();
  });

  it.each([
    { phase: 'Running', ready: true, deleting: false, expected: true },
    { phase: 'Pending', ready: true, deleting: false, expected: false },
    { phase: 'Running', ready: false, deleting: false, expected: false },
    { phase: 'Running', ready: true, deleting: true, expected: false },
  ])(
    'running-and-ready: phase $phase, ready $ready, deleting $deleting ⇒ $expected',
    ({ phase, ready, deleting, expected }) => {
      expect(isPodRunningAndReady(pod({ name: 'p', phase, ready, deleting }))).toBe(expected);
    },
  );
});

describe('isPodAvailable', () => {
  it.each([
    { case: 'not ready', ready: false, minReadySeconds: 0, nowOffsetS: 100, expected: false },
    { case: 'minReadySeconds 0 ⇒ ready is enough', ready: true, minReadySeconds: 0, nowOffsetS: 0, expected: true },
    { case: 'ready for less than minReadySeconds', ready: true, minReadySeconds: 30, nowOffsetS: 29, expected: false },
    {
      case: 'ready for exactly minReadySeconds (strict, as Kubernetes)',
      ready: true,
      minReadySeconds: 30,
      nowOffsetS: 30,
      expected: false,
    },
    { case: 'ready for longer than minReadySeconds', ready: true, minReadySeconds: 30, nowOffsetS: 31, expected: true },
  ])('$case', ({ ready, minReadySeconds, nowOffsetS, expected }) => {
    expect(isPodAvailable(pod({ name: 'p', ready }), { minReadySeconds, now: T0 + nowOffsetS * 1000 })).toBe(expected);
  });

  it('never makes a Ready pod with an unknown transition time available when minReadySeconds > 0', () => {
    const noTime: Pod = { status: { conditions: [{ type: 'Ready', status: 'True' }] } };
    expect(isPodAvailable(noTime, { minReadySeconds: 1, now: T0 })).toBe(false);
    expect(isPodAvailable(noTime, { minReadySeconds: 0, now: T0 })).toBe(true);
  });

  it('tells how long until a Ready pod becomes available', () => {
    const p = pod({ name: 'p' });
    expect(podAvailableInMs(p, { minReadySeconds: 30, now: T0 + 20_000 })).toBe(10_001);
    expect(podAvailableInMs(p, { minReadySeconds: 30, now: T0 + 31_000 })).toBe(0);
    expect(podAvailableInMs(pod({ name: 'p', ready: false }), { minReadySeconds: 30, now: T0 })).toBeUndefined();
  });
});
