import { describe, expect, it } from 'vitest';

import { decideLease, microTime } from './lease-decision.ts';
import type { LeaseLike } from './lease-decision.ts';

const timing = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 };
const t = (seconds: number): number => 1_700_000_000_000 + seconds * 1000;

function lease(holder: string, transitions = 3): LeaseLike {
  return {
    spec: {
      holderIdentity: holder,
      leaseDurationSeconds: 15,
      acquireTime: microTime(t(0)),
      renewTime: microTime(t(0)),
      leaseTransitions: transitions,
    },
  };
}

describe('decideLease', () => {
  it('creates a missing lease with no transitions', () => {
    const decision = decideLease({ current: undefined, identity: 'a', now: t(1), observedAt: t(1), timing });
    expect(decision).toEqual({
      kind: 'write',
      spec: {
        holderIdentity: 'a',
        leaseDurationSeconds: 15,
        acquireTime: microTime(t(1)),
        renewTime: microTime(t(1)),
        leaseTransitions: 0,
      },
    });
  });

  it('waits while another holder renewed within the lease duration, measured on our own clock', () => {
    expect(decideLease({ current: lease('b'), identity: 'a', now: t(114), observedAt: t(100), timing })).toEqual({
      kind: 'wait',
    });
  });

  it('takes over an expired lease, counting a transition', () => {
    const decision = decideLease({ current: lease('b'), identity: 'a', now: t(116), observedAt: t(100), timing });
    expect(decision).toMatchObject({
      kind: 'write',
      spec: { holderIdentity: 'a', leaseTransitions: 4, acquireTime: microTime(t(116)) },
    });
  });

  it('renews its own lease keeping acquireTime and transitions', () => {
    const decision = decideLease({ current: lease('a'), identity: 'a', now: t(5), observedAt: t(4), timing });
    expect(decision).toMatchObject({
      kind: 'write',
      spec: { holderIdentity: 'a', leaseTransitions: 3, acquireTime: microTime(t(0)), renewTime: microTime(t(5)) },
    });
  });

  it("measures the holder's age on the monotonic clock and writes wall-clock time: a wall clock a minute ahead takes over nothing", () => {
    expect(
      decideLease({ current: lease('b'), identity: 'a', now: 110_000, wallNow: t(170), observedAt: 100_000, timing }),
    ).toEqual({ kind: 'wait' });
    const renewal = decideLease({
      current: lease('a'),
      identity: 'a',
      now: 110_000,
      wallNow: t(170),
      observedAt: 100_000,
      timing,
    });
    expect(renewal).toMatchObject({ kind: 'write', spec: { renewTime: microTime(t(170)) } });
  });

  it('takes a released lease (empty holder) at once', () => {
    const decision = decideLease({ current: lease(''), identity: 'a', now: t(1), observedAt: t(1), timing });
    expect(decision).toMatchObject({ kind: 'write', spec: { holderIdentity: 'a', leaseTransitions: 4 } });
  });
});

describe('microTime', () => {
  it('has six fractional digits', () => {
    expect(microTime(Date.UTC(2026, 10, 21, 15, 35, 44, 81))).toBe('2026-11-21T15:35:44.081000Z');
  });
});
