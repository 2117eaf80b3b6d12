import { describe, expect, it } from 'vitest';

import { createLogger } from '../log/logger.ts';
import { FakeClock } from '../testing/fake-clock.ts';
import { IdleMemoryReducer } from './idle-memory-reducer.ts';
import type { GcFunction } from './idle-memory-reducer.ts';

const MIB = 1024 * 1024;

function setup(options: { rss: number[] } = { rss: [100 * MIB] }): {
  reducer: IdleMemoryReducer;
  clock: FakeClock;
  calls: Parameters<GcFunction>[0][];
  memory: { rss: number };
} {
  const clock = new FakeClock();
  const memory = { rss: options.rss[0] ?? 0 };
  const calls: Parameters<GcFunction>[0][] = [];
  const gc: GcFunction = (gcOptions) => {
    calls.push(gcOptions);
    memory.rss = 110 * MIB;
  };
  const reducer = new IdleMemoryReducer({
    gc,
    clock,
    logger: createLogger({ level: 'silent' }),
    quietMs: 2000,
    minGrowthBytes: 16 * MIB,
    rss: () => memory.rss,
  });
  return { reducer, clock, calls, memory };
}

describe('IdleMemoryReducer', () => {
  it('runs one memory-reducing collection once the process was quiet for the period after growing', () => {
    const { reducer, clock, calls, memory } = setup();
    memory.rss = 200 * MIB;
    reducer.notifyActivity();
    clock.advance(1999);
    expect(calls).toEqual([]);
    clock.advance(1);
    expect(calls).toEqual([{ type: 'major', execution: 'sync', flavor: 'last-resort' }]);
    // Nothing more happens while nothing happens.
    clock.advance(60_000);
    expect(calls).toHaveLength(1);
  });

  it('waits while activity goes on, until the quiet period after the last one', () => {
    const { reducer, clock, calls, memory } = setup();
    memory.rss = 200 * MIB;
    for (let i = 0; i < 10; i++) {
      reducer.notifyActivity();
      clock.advance(1000);
    }
    expect(calls).toEqual([]);
    clock.advance(1000);
    expect(calls).toHaveLength(1);
  });

  it('does nothing when the resident size did not grow enough since the last reduction', () => {
    const { reducer, clock, calls, memory } = setup();
    memory.rss = 200 * MIB;
    reducer.notifyActivity();
    clock.advance(2000);
    expect(calls).toHaveLength(1);
    // 110 MiB after the collection; 120 MiB is less than 16 MiB more.
    memory.rss = 120 * MIB;
    reducer.notifyActivity();
    clock.advance(2000);
    expect(calls).toHaveLength(1);
    memory.rss = 130 * MIB;
    reducer.notifyActivity();
    clock.advance(2000);
    expect(calls).toHaveLength(2);
  });

  it('does nothing without gc (no --expose-gc) or after stop', () => {
    const clock = new FakeClock();
    const withoutGc = new IdleMemoryReducer({
      gc: undefined,
      clock,
      logger: createLogger({ level: 'silent' }),
      rss: () => 0,
    });
    withoutGc.notifyActivity();
    expect(clock.pendingTimers()).toBe(0);
    const { reducer, calls, memory, clock: other } = setup();
    memory.rss = 200 * MIB;
    reducer.notifyActivity();
    reducer.stop();
    other.advance(10_000);
    reducer.notifyActivity();
    other.advance(10_000);
    expect(calls).toEqual([]);
  });
});
