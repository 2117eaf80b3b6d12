import { setTimeout as sleep } from 'node:timers/promises';

import { describe, expect, it } from 'vitest';

import { mapWithConcurrency } from './bounded-concurrency.ts';

describe('mapWithConcurrency', () => {
  it.each([
    { items: 0, limit: 4, peak: 0 },
    { items: 1, limit: 4, peak: 1 },
    { items: 10, limit: 3, peak: 3 },
    { items: 10, limit: 1, peak: 1 },
    { items: 5, limit: 16, peak: 5 },
  ])(
    'runs $items items with at most $limit in flight (peak $peak), results in order',
    async ({ items, limit, peak }) => {
      let inFlight = 0;
      let highest = 0;
      const results = await mapWithConcurrency(
        Array.from({ length: items }, (_unused, index) => index),
        limit,
        async (item) => {
          inFlight += 1;
          highest = Math.max(highest, inFlight);
          await sleep(item % 2 === 0 ? 5 : 1);
          inFlight -= 1;
          return item * 10;
        },
      );
      expect(results).toEqual(Array.from({ length: items }, (_unused, index) => index * 10));
      expect(highest).toBe(peak);
    },
  );

  it('runs every item even when one fails, then throws the first failure in item order', async () => {
    const ran: number[] = [];
    const run = mapWithConcurrency([0, 1, 2, 3, 4], 2, async (item) => {
      await sleep(item === 1 ? 10 : 1);
      ran.push(item);
      if (item === 1 || item === 3) {
        throw new Error(`item ${String(item)} failed`);
      }
      return item;
    });
    await expect(run).rejects.toThrow('item 1 failed');
    expect([...ran].sort()).toEqual([0, 1, 2, 3, 4]);
  });
});
