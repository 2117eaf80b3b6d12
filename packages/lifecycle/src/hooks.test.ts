import { describe, expect, it } from 'vitest';

import { lifecyclePod } from '../test/fixtures/pods.ts';
import {
  hookMarksPodNotReady,
  isPodAllHooked,
  isPodHooked,
  isPodLifecycleNormal,
  lifecycleState,
  rawLifecycleState,
} from './hooks.ts';

describe('lifecycleState', () => {
  it.each([
    [undefined, ''],
    ['', ''],
    ['PreparingNormal', 'PreparingNormal'],
    ['Normal', 'Normal'],
    ['PreparingUpdate', 'PreparingUpdate'],
    ['Updating', 'Updating'],
    ['Updated', 'Updated'],
    ['PreparingDelete', 'PreparingDelete'],
    ['Bogus', ''],
  ])('label %j ⇒ %j', (state, expected) => {
    expect(lifecycleState(lifecyclePod(state === undefined ? {} : { state }))).toBe(expected);
  });

  it('keeps the raw value for availability and decisions', () => {
    expect(rawLifecycleState(lifecyclePod({ state: 'Bogus' }))).toBe('Bogus');
    expect(isPodLifecycleNormal(lifecyclePod({ state: 'Bogus' }))).toBe(false);
    expect(isPodLifecycleNormal(lifecyclePod())).toBe(true);
    expect(isPodLifecycleNormal(lifecyclePod({ state: 'Normal' }))).toBe(true);
    expect(isPodLifecycleNormal(lifecyclePod({ state: 'PreparingNormal' }))).toBe(false);
    expect(lifecycleState({})).toBe('');
  });
});

describe('isPodHooked / isPodAllHooked', () => {
  const hook = { labelsHandler: { a: '1', b: '2' }, finalizersHandler: ['f/x', 'f/y'] };
  it.each([
    { case: 'nothing present', labels: {}, finalizers: [], any: false, all: false },
    { case: 'one label present', labels: { a: '1' }, finalizers: [], any: true, all: false },
    { case: 'label with another value', labels: { a: '2' }, finalizers: [], any: false, all: false },
    { case: 'one finalizer present', labels: {}, finalizers: ['f/y'], any: true, all: false },
    { case: 'all labels, no finalizer', labels: { a: '1', b: '2' }, finalizers: [], any: true, all: false },
    {
      case: 'everything present',
      labels: { a: '1', b: '2', c: '3' },
      finalizers: ['f/x', 'f/y', 'other'],
      any: true,
      all: true,
    },
  ])('$case', ({ labels, finalizers, any, all }) => {
    const pod = lifecyclePod({ labels, finalizers });
    expect(isPodHooked(hook, pod)).toBe(any);
    expect(isPodAllHooked(hook, pod)).toBe(all);
  });

  it('undefined hook: neither hooked nor all-hooked; empty hook: not hooked but all-hooked (OpenKruise)', () => {
    const pod = lifecyclePod({ labels: { a: '1' } });
    expect(isPodHooked(undefined, pod)).toBe(false);
    expect(isPodAllHooked(undefined, pod)).toBe(false);
    expect(isPodHooked({}, pod)).toBe(false);
    expect(isPodAllHooked({}, pod)).toBe(true);
    expect(isPodAllHooked({ markPodNotReady: true }, pod)).toBe(true);
  });

  it('reads a missing label as "", as Go does', () => {
    expect(isPodHooked({ labelsHandler: { gone: '' } }, lifecyclePod())).toBe(true);
    expect(isPodHooked({ labelsHandler: { constructor: 'x' } }, lifecyclePod())).toBe(false);
  });

  it('knows whether a hook marks pods not ready', () => {
    expect(hookMarksPodNotReady(undefined)).toBe(false);
    expect(hookMarksPodNotReady({})).toBe(false);
    expect(hookMarksPodNotReady({ markPodNotReady: true })).toBe(true);
  });
});
