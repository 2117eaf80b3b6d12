import { describe, expect, it } from 'vitest';

import { FakeClock } from '@kruise-ts/controller-runtime/testing';
import { ResourceVersionExpectations, isResourceVersionAtLeast } from './resource-version-expectations.ts';
import type { ResourceVersionExpectationTimeout, VersionedObject } from './resource-version-expectations.ts';

function pod(resourceVersion: string | undefined, uid = 'uid-1'): VersionedObject {
  return {
    metadata: {
      uid,
      namespace: 'default',
      name: 'web-a',
      ...(resourceVersion === undefined ? {} : { resourceVersion }),
    },
  };
}

function setup(timeoutMs = 60_000): {
  clock: FakeClock;
  timeouts: ResourceVersionExpectationTimeout[];
  expectations: ResourceVersionExpectations;
} {
  const clock = new FakeClock();
  const timeouts: ResourceVersionExpectationTimeout[] = [];
  const expectations = new ResourceVersionExpectations({
    timeoutMs,
    clock,
    onTimeout: (event) => timeouts.push(event),
  });
  return { clock, timeouts, expectations };
}

describe('isResourceVersionAtLeast', () => {
  it.each([
    { observed: '10', expected: '9', result: true, why: 'numeric, not lexicographic' },
    { observed: '9', expected: '10', result: false, why: 'numeric, not lexicographic' },
    { observed: '10', expected: '10', result: true, why: 'equal' },
    { observed: '18446744073709551616', expected: '18446744073709551615', result: true, why: 'beyond 2^64' },
    { observed: '9007199254740993', expected: '9007199254740992', result: true, why: 'beyond 2^53' },
    { observed: 'abc', expected: 'abc', result: true, why: 'non-numeric equal' },
    { observed: 'abd', expected: 'abc', result: false, why: 'non-numeric differs' },
    { observed: '12', expected: 'x7', result: false, why: 'one side non-numeric' },
    { observed: '', expected: '1', result: false, why: 'empty observed' },
    { observed: '-5', expected: '3', result: false, why: 'signs are not numeric' },
  ])('$observed vs $expected → $result ($why)', ({ observed, expected, result }) => {
    expect(isResourceVersionAtLeast(observed, expected)).toBe(result);
  });
});

describe('ResourceVersionExpectations', () => {
  it.each<{ name: string; expected: readonly string[]; observed: string | undefined; satisfied: boolean }>([
    { name: 'nothing expected', expected: [], observed: '1', satisfied: true },
    { name: 'cache still older', expected: ['5'], observed: '4', satisfied: false },
    { name: 'cache caught up', expected: ['5'], observed: '5', satisfied: true },
    { name: 'cache ahead', expected: ['5'], observed: '12', satisfied: true },
    { name: 'numeric beats lexicographic', expected: ['10'], observed: '9', satisfied: false },
    { name: 'latest write wins', expected: ['5', '7'], observed: '6', satisfied: false },
    { name: 'an older numeric write is ignored', expected: ['7', '5'], observed: '6', satisfied: false },
    { name: 'non-numeric needs equality', expected: ['v-abc'], observed: 'v-abd', satisfied: false },
    { name: 'non-numeric equal', expected: ['v-abc'], observed: 'v-abc', satisfied: true },
    { name: 'non-numeric replaces numeric', expected: ['5', 'v-x'], observed: '9', satisfied: false },
    { name: 'cache object without version', expected: ['5'], observed: undefined, satisfied: false },
  ])('$name', ({ expected, observed, satisfied }) => {
    const { expectations } = setup();
    for (const version of expected) {
      expectations.expect(pod(version));
    }
    expect(expectations.isSatisfied(pod(observed))).toBe(satisfied);
  });

  it('observe clears only when the cache reached the expected version', () => {
    const { expectations } = setup();
    expectations.expect(pod('5'));
    expectations.observe(pod('4'));
    expect(expectations.isSatisfied(pod('4'))).toBe(false);
    expectations.observe(pod('5'));
    expect(expectations.isSatisfied(pod('1'))).toBe(true);
  });

  it('ignores objects without UID or resourceVersion and keeps UIDs apart', () => {
    const { expectations } = setup();
    expectations.expect({ metadata: { resourceVersion: '5' } });
    expectations.expect(pod(undefined));
    expectations.expect({});
    expect(expectations.isSatisfied(pod('1'))).toBe(true);
    expectations.expect(pod('5', 'uid-2'));
    expect(expectations.isSatisfied(pod('1', 'uid-1'))).toBe(true);
    expect(expectations.isSatisfied(pod('1', 'uid-2'))).toBe(false);
    expect(expectations.isSatisfied({})).toBe(true);
  });

  it.each([
    { name: 'by object', target: pod('1') },
    { name: 'by UID', target: 'uid-1' },
  ])('delete $name forgets the expectation', ({ target }) => {
    const { expectations } = setup();
    expectations.expect(pod('5'));
    expectations.delete(target);
    expect(expectations.isSatisfied(pod('1'))).toBe(true);
  });

  it('lists the keys of pending expectations, and forgets them once the cache caught up', () => {
    const { expectations } = setup();
    expect(expectations.pendingKeys()).toEqual([]);
    expectations.expect(pod('5'));
    expectations.expect({ metadata: { uid: 'uid-2', resourceVersion: '3' } });
    expect(expectations.pendingKeys()).toEqual(['default/web-a', 'uid-2']);
    expectations.observe(pod('5'));
    expect(expectations.pendingKeys()).toEqual(['uid-2']);
  });

  it('drops a stuck expectation after the timeout, reports it once and recovers', () => {
    const { clock, timeouts, expectations } = setup(60_000);
    expectations.expect(pod('5'));
    expect(expectations.check(pod('4'))).toEqual({
      satisfied: false,
      unsatisfiedForMs: 0,
      remainingMs: 60_000,
      timedOut: false,
    });
    clock.advance(59_999);
    expect(expectations.check(pod('4'))).toMatchObject({ satisfied: false, remainingMs: 1 });
    clock.advance(1);
    expect(expectations.check(pod('4'))).toEqual({
      satisfied: true,
      unsatisfiedForMs: 60_000,
      remainingMs: 0,
      timedOut: true,
    });
    expect(timeouts).toEqual([
      { key: 'default/web-a', uid: 'uid-1', expectedResourceVersion: '5', observedResourceVersion: '4', ageMs: 60_000 },
    ]);
    expect(expectations.check(pod('4'))).toMatchObject({ satisfied: true, timedOut: false });
    // A new write starts a fresh timer.
    expectations.expect(pod('8'));
    expect(expectations.check(pod('4'))).toMatchObject({ satisfied: false, unsatisfiedForMs: 0 });
    expect(timeouts).toHaveLength(1);
  });

  it.each([
    { name: 'cluster-scoped', metadata: { uid: 'u', name: 'node-1', resourceVersion: '5' }, key: 'node-1' },
    { name: 'nameless', metadata: { uid: 'u', resourceVersion: '5' }, key: 'u' },
  ])('names a $name object in the timeout event', ({ metadata, key }) => {
    const { clock, timeouts, expectations } = setup(1000);
    expectations.expect({ metadata });
    expectations.isSatisfied({ metadata: { uid: 'u' } });
    clock.advance(1000);
    expect(expectations.isSatisfied({ metadata: { uid: 'u' } })).toBe(true);
    expect(timeouts).toEqual([
      { key, uid: 'u', expectedResourceVersion: '5', observedResourceVersion: undefined, ageMs: 1000 },
    ]);
  });
});
