import { describe, expect, it } from 'vitest';

import { FakeClock } from '../testing/fake-clock.ts';
import { itemExponentialFailureRateLimiter } from './rate-limiters.ts';
import { createWorkQueue } from './work-queue.ts';
import type { WorkQueue } from './work-queue.ts';

async function flushMicrotasks(): Promise<void> {
  for (let i = 0; i < 10; i++) {
    await Promise.resolve();
  }
}

interface Tracked<T> {
  settled: boolean;
  value: T | undefined;
}

function track<T>(promise: Promise<T>): Tracked<T> {
  const tracked: Tracked<T> = { settled: false, value: undefined };
  void promise.then((value) => {
    tracked.settled = true;
    tracked.value = value;
  });
  return tracked;
}

/** Takes everything currently queued, in order, marking each item done. */
async function drain<K>(queue: WorkQueue<K>): Promise<K[]> {
  const items: K[] = [];
  while (queue.len() > 0) {
    const item = await queue.get();
    if (item === undefined) {
      break;
    }
    items.push(item);
    queue.done(item);
  }
  return items;
}

function setup(): { clock: FakeClock; queue: WorkQueue<string> } {
  const clock = new FakeClock();
  return { clock, queue: createWorkQueue<string>({ name: 'test', clock }) };
}

describe('work queue: add/get/done', () => {
  it.each([
    { name: 'de-duplicates an item added twice', adds: ['ns/a', 'ns/a'], expected: ['ns/a'] },
    { name: 'hands items out in FIFO order', adds: ['ns/c', 'ns/a', 'ns/b'], expected: ['ns/c', 'ns/a', 'ns/b'] },
    {
      name: 'keeps the first position of a duplicate',
      adds: ['ns/a', 'ns/b', 'ns/a', 'ns/c'],
      expected: ['ns/a', 'ns/b', 'ns/c'],
    },
  ])('$name', async ({ adds, expected }) => {
    const { queue } = setup();
    for (const item of adds) {
      queue.add(item);
    }
    expect(queue.len()).toBe(expected.length);
    expect(await drain(queue)).toEqual(expected);
    expect(queue.len()).toBe(0);
  });

  it('re-queues an item added while it is processed only when done is called', async () => {
    const { queue } = setup();
    queue.add('ns/a');
    const item = await queue.get();
    expect(item).toBe('ns/a');
    queue.add('ns/a');
    queue.add('ns/a');
    expect(queue.len()).toBe(0);
    queue.done('ns/a');
    expect(queue.len()).toBe(1);
    expect(await drain(queue)).toEqual(['ns/a']);
  });

  it('never hands an item being processed to a second worker', async () => {
    const { queue } = setup();
    queue.add('ns/a');
    const first = await queue.get();
    queue.add('ns/a');
    queue.add('ns/b');
    const second = await queue.get();
    expect([first, second]).toEqual(['ns/a', 'ns/b']);
    const third = track(queue.get());
    await flushMicrotasks();
    expect(third.settled).toBe(false);
    queue.done('ns/a');
    await flushMicrotasks();
    expect(third).toEqual({ settled: true, value: 'ns/a' });
  });

  it('resolves waiting workers in the order they called get', async () => {
    const { queue } = setup();
    const first = track(queue.get());
    const second = track(queue.get());
    await flushMicrotasks();
    expect(first.settled || second.settled).toBe(false);
    queue.add('ns/a');
    queue.add('ns/b');
    await flushMicrotasks();
    expect([first.value, second.value]).toEqual(['ns/a', 'ns/b']);
    // Handed out directly: both are being processed, so re-adding does not queue them.
    queue.add('ns/a');
    expect(queue.len()).toBe(0);
  });

  it('ignores done for an item that is not being processed', async () => {
    const { queue } = setup();
    queue.add('ns/a');
    queue.done('ns/a');
    queue.done('ns/zzz');
    expect(await drain(queue)).toEqual(['ns/a']);
  });

  it('accepts any Map key, compared by identity', async () => {
    const queue = createWorkQueue<{ readonly id: number }>({ name: 'objects', clock: new FakeClock() });
    const a = { id: 1 };
    queue.add(a);
    queue.add(a);
    queue.add({ id: 1 });
    expect(queue.len()).toBe(2);
    expect(await queue.get()).toBe(a);
  });
});

describe('work queue: addAfter', () => {
  it('adds items when their delay has passed, ordered by ready time then insertion', async () => {
    const { clock, queue } = setup();
    queue.addAfter('ns/late', 300);
    queue.addAfter('ns/early', 100);
    queue.addAfter('ns/tie-1', 200);
    queue.addAfter('ns/tie-2', 200);
    expect(clock.pendingTimers()).toBe(1);
    clock.advance(99);
    expect(queue.len()).toBe(0);
    clock.advance(1);
    expect(await drain(queue)).toEqual(['ns/early']);
    clock.advance(200);
    expect(await drain(queue)).toEqual(['ns/tie-1', 'ns/tie-2', 'ns/late']);
    expect(clock.pendingTimers()).toBe(0);
  });

  it.each([
    { name: 'an earlier time wins', delays: [500, 100], readyAt: 100 },
    { name: 'a later time does not postpone', delays: [100, 500], readyAt: 100 },
    { name: 'the earliest of several wins', delays: [300, 200, 400, 250], readyAt: 200 },
  ])('keeps one pending entry per item: $name', async ({ delays, readyAt }) => {
    const { clock, queue } = setup();
    for (const delay of delays) {
      queue.addAfter('ns/a', delay);
    }
    clock.advance(readyAt - 1);
    expect(queue.len()).toBe(0);
    clock.advance(1);
    expect(await drain(queue)).toEqual(['ns/a']);
    clock.advance(1000);
    expect(queue.len()).toBe(0);
  });

  it.each([0, -5])('adds at once when the delay is %s', (delay) => {
    const { clock, queue } = setup();
    queue.addAfter('ns/a', delay);
    expect(queue.len()).toBe(1);
    expect(clock.pendingTimers()).toBe(0);
  });

  it('de-duplicates a delayed item against one already queued', async () => {
    const { clock, queue } = setup();
    queue.add('ns/a');
    queue.addAfter('ns/a', 10);
    clock.advance(10);
    expect(await drain(queue)).toEqual(['ns/a']);
  });
});

describe('work queue: rate limiting', () => {
  it('backs off 5, 10, 20 ms … per item and starts again after forget', async () => {
    const { clock, queue } = setup();
    for (const [failure, delay] of [5, 10, 20, 40].entries()) {
      queue.addRateLimited('ns/a');
      expect(queue.numRequeues('ns/a')).toBe(failure + 1);
      clock.advance(delay - 1);
      expect(queue.len()).toBe(0);
      clock.advance(1);
      expect(await drain(queue)).toEqual(['ns/a']);
    }
    queue.forget('ns/a');
    expect(queue.numRequeues('ns/a')).toBe(0);
    queue.addRateLimited('ns/a');
    clock.advance(5);
    expect(queue.len()).toBe(1);
  });

  it('caps the backoff at the limiter maximum', async () => {
    const clock = new FakeClock();
    const rateLimiter = itemExponentialFailureRateLimiter<string>({ baseDelayMs: 5, maxDelayMs: 15 });
    const queue = createWorkQueue<string>({ name: 'capped', clock, rateLimiter });
    const delays: number[] = [];
    for (let i = 0; i < 4; i++) {
      const start = clock.now();
      queue.addRateLimited('ns/a');
      // Bounded, so that a regression fails instead of spinning forever.
      for (let waited = 0; queue.len() === 0 && waited < 100; waited++) {
        clock.advance(1);
      }
      delays.push(clock.now() - start);
      expect(await drain(queue)).toEqual(['ns/a']);
    }
    expect(delays).toEqual([5, 10, 15, 15]);
  });
});

describe('work queue: shutdown', () => {
  it('shutDown resolves pending gets with undefined and drops everything', async () => {
    const { clock, queue } = setup();
    const waiting = track(queue.get());
    queue.addAfter('ns/delayed', 100);
    await flushMicrotasks();
    queue.shutDown();
    await flushMicrotasks();
    expect(waiting).toEqual({ settled: true, value: undefined });
    expect(clock.pendingTimers()).toBe(0);
    expect(queue.shuttingDown()).toBe(true);
    expect(await queue.get()).toBeUndefined();
  });

  it('after shutDown, adds are ignored and queued items are not handed out', async () => {
    const { queue } = setup();
    queue.add('ns/a');
    queue.add('ns/b');
    const processing = await queue.get();
    queue.add('ns/a');
    queue.shutDown();
    queue.add('ns/c');
    queue.addAfter('ns/d', 10);
    queue.addRateLimited('ns/e');
    expect(queue.numRequeues('ns/e')).toBe(0);
    expect(queue.len()).toBe(0);
    expect(await queue.get()).toBeUndefined();
    // Finishing the in-flight item does not re-queue it.
    queue.done(processing ?? '');
    expect(queue.len()).toBe(0);
  });

  it('shutDownWithDrain hands out what is queued, then resolves once processing is done', async () => {
    const { clock, queue } = setup();
    queue.add('ns/a');
    queue.add('ns/b');
    queue.addAfter('ns/delayed', 100);
    const a = await queue.get();
    queue.add('ns/a');
    const drained = track(queue.shutDownWithDrain());
    expect(queue.shuttingDown()).toBe(true);
    expect(clock.pendingTimers()).toBe(0);
    queue.add('ns/ignored');
    expect(await queue.get()).toBe('ns/b');
    queue.done('ns/b');
    await flushMicrotasks();
    expect(drained.settled).toBe(false);
    // ns/a was re-added before the shutdown, so it comes back once more.
    queue.done(a ?? '');
    expect(await queue.get()).toBe('ns/a');
    await flushMicrotasks();
    expect(drained.settled).toBe(false);
    queue.done('ns/a');
    await flushMicrotasks();
    expect(drained.settled).toBe(true);
    expect(await queue.get()).toBeUndefined();
  });

  it('shutDownWithDrain releases idle workers and resolves at once when nothing is in flight', async () => {
    const { queue } = setup();
    const waiting = track(queue.get());
    await queue.shutDownWithDrain();
    await flushMicrotasks();
    expect(waiting).toEqual({ settled: true, value: undefined });
  });

  it('shutDown ends a drain that is still waiting', async () => {
    const { queue } = setup();
    queue.add('ns/a');
    await queue.get();
    const first = track(queue.shutDownWithDrain());
    const second = track(queue.shutDownWithDrain());
    await flushMicrotasks();
    expect(first.settled || second.settled).toBe(false);
    queue.shutDown();
    await flushMicrotasks();
    expect(first.settled && second.settled).toBe(true);
    await queue.shutDownWithDrain();
  });
});
