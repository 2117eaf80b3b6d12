import { describe, expect, it } from 'vitest';

import { FakeClock } from '../testing/fake-clock.ts';
import { DelayedAdds } from './delayed-adds.ts';

function setup(): { clock: FakeClock; ready: string[]; delayed: DelayedAdds<string> } {
  const clock = new FakeClock(0);
  const ready: string[] = [];
  return { clock, ready, delayed: new DelayedAdds<string>({ clock, onReady: (item) => ready.push(item) }) };
}

describe('DelayedAdds', () => {
  it('releases many items in ready-time order with one timer', () => {
    const { clock, ready, delayed } = setup();
    // A deterministic shuffle of 200 ready times, with ties.
    const times = Array.from({ length: 200 }, (_, i) => ((i * 37) % 50) * 10 + 10);
    times.forEach((time, i) => {
      delayed.schedule(`item-${String(i)}`, time);
    });
    expect(delayed.size).toBe(200);
    expect(clock.pendingTimers()).toBe(1);
    clock.advance(1000);
    const expected = times
      .map((time, i) => ({ time, i }))
      .sort((a, b) => a.time - b.time || a.i - b.i)
      .map(({ i }) => `item-${String(i)}`);
    expect(ready).toEqual(expected);
    expect(delayed.size).toBe(0);
    expect(clock.pendingTimers()).toBe(0);
  });

  it('moves an entry earlier but never later', () => {
    const { clock, ready, delayed } = setup();
    delayed.schedule('a', 100);
    delayed.schedule('b', 50);
    delayed.schedule('a', 20);
    delayed.schedule('b', 500);
    expect(delayed.size).toBe(2);
    clock.advance(20);
    expect(ready).toEqual(['a']);
    clock.advance(30);
    expect(ready).toEqual(['a', 'b']);
  });

  it('re-arms when a new head arrives and clear cancels everything', () => {
    const { clock, ready, delayed } = setup();
    delayed.schedule('late', 100);
    delayed.schedule('early', 10);
    expect(clock.pendingTimers()).toBe(1);
    clock.advance(10);
    expect(ready).toEqual(['early']);
    delayed.clear();
    expect(clock.pendingTimers()).toBe(0);
    clock.advance(1000);
    expect(ready).toEqual(['early']);
  });
});
