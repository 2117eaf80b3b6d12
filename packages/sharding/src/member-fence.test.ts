import { describe, expect, it } from 'vitest';

import type { Clock, TimerHandle } from '@kruise-ts/controller-runtime';
import { FakeClock } from '@kruise-ts/controller-runtime/testing';

import { FencedError, MemberFence } from './member-fence.ts';

function fenceOn(clock: Clock): { fence: MemberFence; fenced: FencedError[] } {
  const fenced: FencedError[] = [];
  const fence = new MemberFence({
    clock,
    renewDeadlineMs: 10_000,
    describe: 'ring r',
    onFence: (error) => void fenced.push(error),
  });
  return { fence, fenced };
}

describe('MemberFence', () => {
  it('fences by its own timer at the deadline after the last successful renewal was sent, and for good', () => {
    const clock = new FakeClock(0);
    const { fence, fenced } = fenceOn(clock);
    fence.renewed(0);
    clock.advance(4000);
    fence.renewed(3000);
    clock.advance(8999);
    expect(fenced).toHaveLength(0);
    clock.advance(1);
    expect(fenced).toHaveLength(1);
    fence.renewed(13_000);
    expect(fence.fenced).toBeInstanceOf(FencedError);
    expect(() => {
      fence.assertMayWrite();
    }).toThrow(FencedError);
  });

  it('refuses a write once the deadline passed even when the timer has not fired (an event loop blocked past it)', () => {
    let now = 0;
    const stalledTimers: Clock = {
      now: () => now,
      setTimeout: () => ({}) as TimerHandle,
      clearTimeout: () => undefined,
    };
    const { fence, fenced } = fenceOn(stalledTimers);
    fence.renewed(0);
    now = 9999;
    expect(() => {
      fence.assertMayWrite();
    }).not.toThrow();
    now = 10_000;
    expect(() => {
      fence.assertMayWrite();
    }).toThrow(/not renewed within 10000 ms/);
    expect(fenced).toHaveLength(1);
  });

  it('lets writes through before the first renewal (nothing is held yet) and ignores an answer older than the one counted', () => {
    const clock = new FakeClock(0);
    const { fence } = fenceOn(clock);
    expect(() => {
      fence.assertMayWrite();
    }).not.toThrow();
    fence.renewed(5000);
    fence.renewed(1000);
    expect(fence.renewedAt).toBe(5000);
  });

  it('fences at once on a renewal whose answer came after the deadline of its own send time', () => {
    const clock = new FakeClock(0);
    const { fence, fenced } = fenceOn(clock);
    fence.renewed(0);
    clock.advance(5000);
    const sent = clock.now();
    clock.advance(9000);
    // fenced by the timer at 10 s already; a late answer does not revive it
    fence.renewed(sent);
    expect(fenced).toHaveLength(1);
  });
});
