import { describe, expect, it } from 'vitest';

import { CrashLoopBackoff } from './crash-loop-backoff.ts';
import { parseQuantity } from './quantity.ts';

describe('CrashLoopBackoff', () => {
  it('restarts the first exit at once, then doubles from the initial delay up to the cap', () => {
    const backoff = new CrashLoopBackoff({ initialMs: 10_000, maxMs: 40_000 });
    const delays = [1, 2, 3, 4, 5].map((n) => backoff.next(n * 1000, n * 1000 + 500));
    expect(delays).toEqual([0, 10_000, 20_000, 40_000, 40_000]);
  });

  it('starts over after a run of twice the cap', () => {
    const backoff = new CrashLoopBackoff({ initialMs: 10_000, maxMs: 40_000 });
    backoff.next(0, 100);
    backoff.next(200, 300);
    expect(backoff.next(1_000, 1_000 + 80_000)).toBe(0);
    expect(backoff.next(90_000, 90_100)).toBe(10_000);
  });
});

describe('parseQuantity', () => {
  it.each([
    ['384Mi', 384 * 2 ** 20],
    ['100m', 0.1],
    ['1.5G', 1.5e9],
    ['2', 2],
    ['1e3', 1000],
  ])('%s', (text, value) => {
    expect(parseQuantity(text)).toBeCloseTo(value);
  });

  it('names what it cannot read', () => {
    expect(() => parseQuantity('12Qi')).toThrow('not a resource quantity: "12Qi"');
  });
});
