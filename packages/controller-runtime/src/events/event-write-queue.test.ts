import { describe, expect, it } from 'vitest';

import { EventWriteQueue } from './event-write-queue.ts';

/** A write that finishes when the test says so, and records when it started and ended. */
function controlledWrite(
  log: string[],
  name: string,
): { write: () => Promise<void>; finish: () => void; fail: () => void } {
  let finish = (): void => undefined;
  let fail = (): void => undefined;
  const write = (): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      log.push(`start ${name}`);
      finish = () => {
        log.push(`end ${name}`);
        resolve();
      };
      fail = () => {
        log.push(`fail ${name}`);
        reject(new Error(name));
      };
    });
  return {
    write,
    finish: () => {
      finish();
    },
    fail: () => {
      fail();
    },
  };
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('EventWriteQueue', () => {
  it('writes up to `concurrency` events at once and starts the next as soon as one ends', async () => {
    const log: string[] = [];
    const queue = new EventWriteQueue({ concurrency: 2, maxQueued: 10 });
    const writes = ['a', 'b', 'c'].map((name) => controlledWrite(log, name));
    writes.forEach((w, i) => queue.enqueue(`key-${String(i)}`, w.write));
    await settle();
    expect(log).toEqual(['start a', 'start b']);
    writes[1]?.finish();
    await settle();
    expect(log).toEqual(['start a', 'start b', 'end b', 'start c']);
    writes[0]?.finish();
    writes[2]?.finish();
    await queue.drained();
    expect(queue.size).toBe(0);
  });

  it('keeps the order of writes of one key (a count increment after its create), even when one fails', async () => {
    const log: string[] = [];
    const queue = new EventWriteQueue({ concurrency: 4, maxQueued: 10 });
    const first = controlledWrite(log, 'create');
    const second = controlledWrite(log, 'increment');
    const other = controlledWrite(log, 'other');
    queue.enqueue('same', first.write);
    queue.enqueue('same', second.write);
    queue.enqueue('different', other.write);
    await settle();
    expect(log).toEqual(['start create', 'start other']);
    first.fail();
    await settle();
    expect(log).toEqual(['start create', 'start other', 'fail create', 'start increment']);
    second.finish();
    other.finish();
    await queue.drained();
  });

  it('refuses writes beyond maxQueued (waiting and in flight) and takes them again once there is room', async () => {
    const log: string[] = [];
    const queue = new EventWriteQueue({ concurrency: 1, maxQueued: 2 });
    const writes = ['a', 'b', 'c'].map((name) => controlledWrite(log, name));
    expect(queue.enqueue('a', writes[0]?.write ?? (() => Promise.resolve()))).toBe(true);
    expect(queue.enqueue('b', writes[1]?.write ?? (() => Promise.resolve()))).toBe(true);
    expect(queue.enqueue('c', writes[2]?.write ?? (() => Promise.resolve()))).toBe(false);
    expect(queue.size).toBe(2);
    await settle();
    writes[0]?.finish();
    await settle();
    expect(queue.size).toBe(1);
    expect(queue.enqueue('c', writes[2]?.write ?? (() => Promise.resolve()))).toBe(true);
    await settle();
    writes[1]?.finish();
    await settle();
    writes[2]?.finish();
    await queue.drained();
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('drained() resolves at once with nothing queued', async () => {
    await expect(new EventWriteQueue({ concurrency: 1, maxQueued: 1 }).drained()).resolves.toBeUndefined();
  });
});
