import { describe, expect, it } from 'vitest';

import { slowStartBatch } from './slow-start.ts';

/** Records which indexes ran in which batch (a batch is the set of calls in flight together). */
function recorder(fail: ReadonlySet<number> = new Set()): {
  run: (index: number) => Promise<void>;
  batches: number[][];
} {
  const batches: number[][] = [];
  let current: number[] | undefined;
  const run = async (index: number): Promise<void> => {
    if (current === undefined) {
      current = [];
      batches.push(current);
      // The batch closes once every call of it has started (they start synchronously, together).
      queueMicrotask(() => (current = undefined));
    }
    current.push(index);
    await Promise.resolve();
    if (fail.has(index)) {
      throw new Error(`call ${String(index)} failed`);
    }
  };
  return { run, batches };
}

describe('slowStartBatch', () => {
  it.each([
    { count: 0, initialBatchSize: 1, sizes: [] },
    { count: 1, initialBatchSize: 1, sizes: [1] },
    { count: 7, initialBatchSize: 1, sizes: [1, 2, 4] },
    { count: 10, initialBatchSize: 1, sizes: [1, 2, 4, 3] },
    { count: 10, initialBatchSize: 3, sizes: [3, 6, 1] },
    { count: 3, initialBatchSize: 0, sizes: [1, 2] },
    { count: 20, initialBatchSize: 1, maxBatchSize: 4, sizes: [1, 2, 4, 4, 4, 4, 1] },
    { count: 5, initialBatchSize: 8, maxBatchSize: 2, sizes: [5] },
  ])('count $count from $initialBatchSize ⇒ batches $sizes', async ({ count, initialBatchSize, sizes, ...rest }) => {
    const { run, batches } = recorder();
    const result = await slowStartBatch({ count, initialBatchSize, run, ...rest });
    expect(batches.map((batch) => batch.length)).toEqual(sizes);
    expect(batches.flat()).toEqual(Array.from({ length: count }, (_, i) => i));
    expect(result).toEqual({ succeeded: count, errors: [], skipped: 0, largestBatch: Math.max(0, ...sizes) });
  });

  it('finishes the failing batch and skips the rest', async () => {
    const { run, batches } = recorder(new Set([4]));
    const result = await slowStartBatch({ count: 10, initialBatchSize: 1, run });
    expect(batches).toEqual([[0], [1, 2], [3, 4, 5, 6]]);
    expect(result.succeeded).toBe(6);
    expect(result.skipped).toBe(3);
    // The batch of 4 failed; the largest one that went through entirely was the batch of 2.
    expect(result.largestBatch).toBe(2);
    expect(result.errors).toHaveLength(1);
    expect(String(result.errors[0])).toContain('call 4 failed');
  });

  it('reports every failure of the failing batch', async () => {
    const { run } = recorder(new Set([1, 2]));
    const result = await slowStartBatch({ count: 5, initialBatchSize: 1, run });
    expect(result).toMatchObject({ succeeded: 1, skipped: 2 });
    expect(result.errors).toHaveLength(2);
  });

  it('counts a synchronous throw as a failure of that call', async () => {
    const result = await slowStartBatch({
      count: 3,
      initialBatchSize: 1,
      run: (index) => {
        if (index === 0) {
          throw new Error('sync');
        }
        return Promise.resolve();
      },
    });
    expect(result).toMatchObject({ succeeded: 0, skipped: 2 });
  });

  it('runs the calls of a batch concurrently', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    await slowStartBatch({
      count: 7,
      initialBatchSize: 1,
      run: async () => {
        inFlight += 1;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight -= 1;
      },
    });
    expect(maxInFlight).toBe(4);
  });
});
