import { describe, expect, it } from 'vitest';

import { SHARD_BUCKETS } from './bucket.ts';
import { assignBuckets, bucketsOf } from './ring.ts';

/** Identities as the manager makes them: `<hostname>_<uuid>`, pinned so that the figures are exact. */
function members(count: number, seed = 0): string[] {
  return Array.from(
    { length: count },
    (_, i) =>
      `kruise-ts-cloneset-6f7b9c-${String(seed)}${String(i)}x_0c5e2a8d-4b1f-4e6a-9d3c-${String(100_000 + seed * 100 + i)}`,
  );
}

function moved(before: readonly string[], after: readonly string[]): number {
  return before.filter((owner, bucket) => owner !== after[bucket]).length;
}

describe('assignBuckets', () => {
  it('gives no bucket to anyone when there are no members, and every bucket to a lone member', () => {
    expect(assignBuckets([])).toEqual([]);
    expect(assignBuckets(['only'])).toEqual(new Array<string>(SHARD_BUCKETS).fill('only'));
  });

  it('is the same whatever the order or repetition of the member list, so every member computes the same', () => {
    const set = members(5);
    expect(assignBuckets([...set].reverse())).toEqual(assignBuckets(set));
    expect(assignBuckets([...set, set[0] as string])).toEqual(assignBuckets(set));
  });

  it.each([2, 3, 4, 5, 6, 7, 8])(
    'gives each of %i members at most ceil(1.1 × mean) buckets, and every bucket an owner',
    (count) => {
      for (const seed of [0, 1, 2, 3]) {
        const set = members(count, seed);
        const owners = assignBuckets(set);
        expect(owners).toHaveLength(SHARD_BUCKETS);
        expect(owners.every((owner) => set.includes(owner))).toBe(true);
        const shares = set.map((member) => bucketsOf(owners, member).length);
        expect(Math.max(...shares)).toBeLessThanOrEqual(Math.ceil((SHARD_BUCKETS / count) * 1.1));
        expect(shares.reduce((a, b) => a + b, 0)).toBe(SHARD_BUCKETS);
      }
    },
  );

  it.each([1, 2, 3, 4, 5, 6, 7])(
    "moves few buckets when a member joins %i others: at most twice the newcomer's fair share",
    (count) => {
      for (const seed of [0, 1, 2, 3]) {
        const before = assignBuckets(members(count, seed));
        const after = assignBuckets(members(count + 1, seed));
        expect(moved(before, after)).toBeLessThanOrEqual(Math.ceil((2 * SHARD_BUCKETS) / (count + 1)));
      }
    },
  );

  it.each([2, 3, 4, 5, 6, 7, 8])(
    'moves few buckets when one of %i members leaves: at most twice a fair share',
    (count) => {
      for (const seed of [0, 1, 2, 3]) {
        const set = members(count, seed);
        const before = assignBuckets(set);
        const leaving = set[seed % count] as string;
        const after = assignBuckets(set.filter((member) => member !== leaving));
        // Its own buckets move, and the load bound may push a few more along.
        expect(moved(before, after)).toBeGreaterThanOrEqual(bucketsOf(before, leaving).length);
        expect(moved(before, after)).toBeLessThanOrEqual(Math.ceil((2 * SHARD_BUCKETS) / count));
        // Every bucket of the member that left has a new owner among the rest.
        expect(after.includes(leaving)).toBe(false);
      }
    },
  );

  it('honours its options: fewer buckets, and a plain ring without a load bound', () => {
    expect(assignBuckets(['a', 'b'], { buckets: 4 })).toHaveLength(4);
    const unbounded = assignBuckets(members(3), { loadFactor: 100 });
    expect(unbounded).toHaveLength(SHARD_BUCKETS);
  });
});
