import { describe, expect, it } from 'vitest';

import { Backoff } from './backoff.ts';

describe('Backoff', () => {
  it('doubles up to the cap and resets', () => {
    const backoff = new Backoff({ initialMs: 800, maxMs: 30_000, jitter: 0 });
    const delays = Array.from({ length: 8 }, () => backoff.next());
    expect(delays).toEqual([800, 1600, 3200, 6400, 12_800, 25_600, 30_000, 30_000]);
    backoff.reset();
    expect(backoff.next()).toBe(800);
  });

  it('stretches each delay by the jitter fraction', () => {
    const backoff = new Backoff({ initialMs: 1000, maxMs: 10_000, jitter: 0.5, random: () => 1 });
    expect([backoff.next(), backoff.next()]).toEqual([1500, 3000]);
  });
});
