import { describe, expect, it } from 'vitest';

import { FakeClock } from '../testing/fake-clock.ts';
import { TokenBucket } from './token-bucket.ts';

async function flushMicrotasks(): Promise<void> {
  for (let i = 0; i < 10; i++) {
    await Promise.resolve();
  }
}

function track(promise: Promise<unknown>): { state: 'pending' | 'resolved' | 'rejected'; reason?: unknown } {
  const result: { state: 'pending' | 'resolved' | 'rejected'; reason?: unknown } = { state: 'pending' };
  promise.then(
    () => {
      result.state = 'resolved';
    },
    (reason: unknown) => {
      result.state = 'rejected';
      result.reason = reason;
    },
  );
  return result;
}

describe('TokenBucket', () => {
  it.each([
    { qps: 10, burst: 100, calls: 103, expected: [...Array<number>(100).fill(0), 100, 200, 300] },
    { qps: 5, burst: 10, calls: 12, expected: [...Array<number>(10).fill(0), 200, 400] },
    { qps: 2, burst: 1, calls: 4, expected: [0, 500, 1000, 1500] },
    { qps: 3, burst: 1, calls: 3, expected: [0, 1000 / 3, 2000 / 3] },
  ])(
    'reserve: qps $qps, burst $burst passes the burst at once, then spaces by 1/qps',
    ({ qps, burst, calls, expected }) => {
      const bucket = new TokenBucket({ qps, burst, clock: new FakeClock() });
      const waits = Array.from({ length: calls }, () => bucket.reserve());
      expect(waits).toEqual(expected);
    },
  );

  it('refills at qps up to burst', () => {
    const clock = new FakeClock();
    const bucket = new TokenBucket({ qps: 10, burst: 5, clock });
    for (let i = 0; i < 5; i++) {
      expect(bucket.tryAccept()).toBe(true);
    }
    expect(bucket.tryAccept()).toBe(false);
    clock.advance(99);
    expect(bucket.tryAccept()).toBe(false);
    clock.advance(1);
    expect(bucket.tryAccept()).toBe(true);
    expect(bucket.tryAccept()).toBe(false);
    // A long pause refills to burst, not beyond.
    clock.advance(60_000);
    const accepted = Array.from({ length: 7 }, () => bucket.tryAccept()).filter(Boolean).length;
    expect(accepted).toBe(5);
  });

  it('pays back borrowed tokens before new ones are available', () => {
    const clock = new FakeClock();
    const bucket = new TokenBucket({ qps: 10, burst: 1, clock });
    expect(bucket.reserve()).toBe(0);
    expect(bucket.reserve()).toBe(100);
    expect(bucket.reserve()).toBe(200);
    clock.advance(150);
    expect(bucket.tryAccept()).toBe(false);
    expect(bucket.reserve()).toBe(150);
  });

  it.each([0, -1, Infinity])('qps %s means unlimited', (qps) => {
    const bucket = new TokenBucket({ qps, burst: 0, clock: new FakeClock() });
    for (let i = 0; i < 1000; i++) {
      expect(bucket.tryAccept()).toBe(true);
      expect(bucket.reserve()).toBe(0);
    }
  });

  it.each([
    { qps: 10, burst: 0, message: /burst must be >= 1/ },
    { qps: NaN, burst: 1, message: /qps must be a number/ },
  ])('rejects qps $qps with burst $burst', ({ qps, burst, message }) => {
    expect(() => new TokenBucket({ qps, burst })).toThrow(message);
  });

  it('wait resolves at once with a token and after the reserved delay without one', async () => {
    const clock = new FakeClock();
    const bucket = new TokenBucket({ qps: 10, burst: 1, clock });
    await bucket.wait();
    const second = track(bucket.wait());
    await flushMicrotasks();
    expect(second.state).toBe('pending');
    clock.advance(99);
    await flushMicrotasks();
    expect(second.state).toBe('pending');
    clock.advance(1);
    await flushMicrotasks();
    expect(second.state).toBe('resolved');
    expect(clock.pendingTimers()).toBe(0);
  });

  it('wait rejects with the abort reason, cancels its timer and gives the token back', async () => {
    const clock = new FakeClock();
    const bucket = new TokenBucket({ qps: 10, burst: 1, clock });
    await bucket.wait();
    const controller = new AbortController();
    const waiting = track(bucket.wait(controller.signal));
    const reason = new Error('shutting down');
    controller.abort(reason);
    await flushMicrotasks();
    expect(waiting).toEqual({ state: 'rejected', reason });
    expect(clock.pendingTimers()).toBe(0);
    // The refund means the next caller waits 100 ms, not 200 ms.
    expect(bucket.reserve()).toBe(100);
  });

  it('wait with an already aborted signal rejects without taking a token', async () => {
    const bucket = new TokenBucket({ qps: 10, burst: 1, clock: new FakeClock() });
    await expect(bucket.wait(AbortSignal.abort())).rejects.toMatchObject({ name: 'AbortError' });
    expect(bucket.tryAccept()).toBe(true);
  });

  it('wraps a non-Error abort reason in an Error', async () => {
    const clock = new FakeClock();
    const bucket = new TokenBucket({ qps: 1, burst: 1, clock });
    bucket.reserve();
    const controller = new AbortController();
    const waiting = bucket.wait(controller.signal);
    controller.abort('bye');
    await expect(waiting).rejects.toMatchObject({ message: 'The operation was aborted.', cause: 'bye' });
  });
});
