import { describe, expect, it } from 'vitest';

import { FakeClock } from './fake-clock.ts';

describe('FakeClock', () => {
  it('starts at a fixed non-zero time and only moves on advance', () => {
    const clock = new FakeClock();
    expect(clock.now()).toBe(Date.UTC(2026, 0, 1));
    clock.advance(1500);
    expect(clock.now()).toBe(Date.UTC(2026, 0, 1) + 1500);
    expect(new FakeClock(42).now()).toBe(42);
  });

  it('fires due timers in due-time order, creation order on ties, each at its own time', () => {
    const clock = new FakeClock(0);
    const fired: string[] = [];
    clock.setTimeout(() => fired.push(`c@${String(clock.now())}`), 30);
    clock.setTimeout(() => fired.push(`a@${String(clock.now())}`), 10);
    clock.setTimeout(() => fired.push(`b@${String(clock.now())}`), 10);
    clock.setTimeout(() => fired.push('late'), 31);
    clock.advance(30);
    expect(fired).toEqual(['a@10', 'b@10', 'c@30']);
    expect(clock.pendingTimers()).toBe(1);
    expect(clock.now()).toBe(30);
  });

  it('fires timers scheduled by callbacks within the same advance when they fall due', () => {
    const clock = new FakeClock(0);
    const fired: number[] = [];
    clock.setTimeout(() => {
      fired.push(clock.now());
      clock.setTimeout(() => fired.push(clock.now()), 5);
      clock.setTimeout(() => fired.push(clock.now()), 50);
    }, 10);
    clock.advance(20);
    expect(fired).toEqual([10, 15]);
    expect(clock.pendingTimers()).toBe(1);
  });

  it('clears timers, treats negative delays as zero and fires zero-delay timers on advance(0)', () => {
    const clock = new FakeClock(0);
    const fired: string[] = [];
    const handle = clock.setTimeout(() => fired.push('cleared'), 5);
    clock.setTimeout(() => fired.push('now'), -10);
    clock.clearTimeout(handle);
    clock.clearTimeout(handle);
    expect(clock.pendingTimers()).toBe(1);
    clock.advance(0);
    expect(fired).toEqual(['now']);
    expect(clock.pendingTimers()).toBe(0);
  });

  it('rejects negative advances', () => {
    expect(() => {
      new FakeClock().advance(-1);
    }).toThrow(RangeError);
  });
});
