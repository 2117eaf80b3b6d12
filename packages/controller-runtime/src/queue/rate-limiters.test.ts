import { describe, expect, it } from 'vitest';

import { FakeClock } from '../testing/fake-clock.ts';
import {
  bucketRateLimiter,
  defaultControllerRateLimiter,
  itemExponentialFailureRateLimiter,
  maxOfRateLimiter,
} from './rate-limiters.ts';
import type { RateLimiter } from './rate-limiters.ts';

function whenTimes<K>(limiter: RateLimiter<K>, item: K, times: number): number[] {
  return Array.from({ length: times }, () => limiter.when(item));
}

describe('itemExponentialFailureRateLimiter', () => {
  it.each([
    { name: 'defaults 5 ms → 1000 s', options: {}, times: 5, expected: [5, 10, 20, 40, 80] },
    {
      name: 'capped at maxDelayMs',
      options: { baseDelayMs: 1, maxDelayMs: 10 },
      times: 6,
      expected: [1, 2, 4, 8, 10, 10],
    },
    { name: 'a zero base never backs off', options: { baseDelayMs: 0 }, times: 3, expected: [0, 0, 0] },
  ])('$name', ({ options, times, expected }) => {
    expect(whenTimes(itemExponentialFailureRateLimiter<string>(options), 'ns/a', times)).toEqual(expected);
  });

  it('reaches the 1000 s cap on the 19th failure and stays there', () => {
    const limiter = itemExponentialFailureRateLimiter<string>();
    const delays = whenTimes(limiter, 'ns/a', 21);
    expect(delays[17]).toBe(655_360);
    expect(delays.slice(18)).toEqual([1_000_000, 1_000_000, 1_000_000]);
  });

  it('stays finite and capped after thousands of failures, also with a zero base', () => {
    const limiter = itemExponentialFailureRateLimiter<string>();
    const zero = itemExponentialFailureRateLimiter<string>({ baseDelayMs: 0 });
    for (let i = 0; i < 2000; i++) {
      limiter.when('x');
      zero.when('x');
    }
    expect(limiter.when('x')).toBe(1_000_000);
    expect(zero.when('x')).toBe(0);
  });

  it('counts failures per item and forget resets one item only', () => {
    const limiter = itemExponentialFailureRateLimiter<string>();
    whenTimes(limiter, 'ns/a', 3);
    whenTimes(limiter, 'ns/b', 1);
    expect(limiter.numRequeues('ns/a')).toBe(3);
    expect(limiter.numRequeues('ns/b')).toBe(1);
    limiter.forget('ns/a');
    expect(limiter.numRequeues('ns/a')).toBe(0);
    expect(limiter.when('ns/a')).toBe(5);
    expect(limiter.when('ns/b')).toBe(10);
  });

  it('rejects negative delays', () => {
    expect(() => itemExponentialFailureRateLimiter({ baseDelayMs: -1 })).toThrow(RangeError);
  });
});

describe('bucketRateLimiter', () => {
  it('lets the burst through, then spaces retries by 1/qps across all items', () => {
    const clock = new FakeClock();
    const limiter = bucketRateLimiter<string>({ qps: 10, burst: 3, clock });
    expect(['a', 'b', 'c', 'd', 'e'].map((item) => limiter.when(item))).toEqual([0, 0, 0, 100, 200]);
    clock.advance(1000);
    expect(limiter.when('f')).toBe(0);
  });

  it('defaults to 10 qps with a burst of 100 and never counts requeues', () => {
    const limiter = bucketRateLimiter<string>({ clock: new FakeClock() });
    const delays = Array.from({ length: 102 }, (_, i) => limiter.when(`ns/${String(i)}`));
    expect(delays.slice(0, 100).every((delay) => delay === 0)).toBe(true);
    expect(delays.slice(100)).toEqual([100, 200]);
    expect(limiter.numRequeues('ns/0')).toBe(0);
    limiter.forget('ns/0');
  });
});

describe('maxOfRateLimiter', () => {
  const fixed = (delay: number, requeues: number): RateLimiter<string> & { forgotten: string[] } => {
    const forgotten: string[] = [];
    return { when: () => delay, forget: (item) => forgotten.push(item), numRequeues: () => requeues, forgotten };
  };

  it.each([
    { delays: [5, 100, 20], expected: 100 },
    { delays: [0, 0], expected: 0 },
    { delays: [], expected: 0 },
  ])('waits as long as the strictest of $delays', ({ delays, expected }) => {
    expect(maxOfRateLimiter(...delays.map((delay) => fixed(delay, 0))).when('x')).toBe(expected);
  });

  it('reports the highest requeue count and forgets in every limiter', () => {
    const a = fixed(1, 2);
    const b = fixed(1, 7);
    const limiter = maxOfRateLimiter(a, b);
    expect(limiter.numRequeues('x')).toBe(7);
    limiter.forget('x');
    expect(a.forgotten).toEqual(['x']);
    expect(b.forgotten).toEqual(['x']);
  });

  it('calls every limiter on every failure so each keeps its own state', () => {
    const exponential = itemExponentialFailureRateLimiter<string>();
    const bucket = bucketRateLimiter<string>({ qps: 1, burst: 1, clock: new FakeClock() });
    const limiter = maxOfRateLimiter(exponential, bucket);
    expect([limiter.when('a'), limiter.when('a'), limiter.when('a')]).toEqual([5, 1000, 2000]);
    expect(exponential.numRequeues('a')).toBe(3);
  });
});

describe('defaultControllerRateLimiter', () => {
  it('is the max of the 5 ms exponential backoff and the 10 qps / 100 burst bucket', () => {
    const limiter = defaultControllerRateLimiter<string>({ clock: new FakeClock() });
    // One item failing repeatedly: the per-item backoff dominates.
    expect(whenTimes(limiter, 'ns/a', 4)).toEqual([5, 10, 20, 40]);
    expect(limiter.numRequeues('ns/a')).toBe(4);
    // Many items failing at once: after the burst (4 tokens used above), the bucket dominates.
    const first = Array.from({ length: 97 }, (_, i) => limiter.when(`ns/${String(i)}`));
    expect(first.slice(0, 96).every((delay) => delay === 5)).toBe(true);
    expect(first[96]).toBe(100);
    limiter.forget('ns/a');
    expect(limiter.numRequeues('ns/a')).toBe(0);
  });

  it('passes OpenKruise --rate-limiter-* options through', () => {
    const limiter = defaultControllerRateLimiter<string>({
      baseDelayMs: 100,
      maxDelayMs: 300,
      qps: 1,
      burst: 1,
      clock: new FakeClock(),
    });
    expect(whenTimes(limiter, 'a', 4)).toEqual([100, 1000, 2000, 3000]);
    const other = defaultControllerRateLimiter<string>({
      baseDelayMs: 100,
      maxDelayMs: 300,
      qps: 1000,
      burst: 1000,
      clock: new FakeClock(),
    });
    expect(whenTimes(other, 'a', 4)).toEqual([100, 200, 300, 300]);
  });
});
