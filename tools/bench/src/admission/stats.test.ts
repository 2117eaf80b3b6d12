import { describe, expect, it } from 'vitest';

import { millisecondStats, quantileBucketBound, statsDifference } from './stats.ts';

describe('millisecondStats', () => {
  const oneToThousand = Array.from({ length: 1000 }, (_, index) => 1000 - index);

  it.each([
    { name: 'nothing', samples: [], expected: { count: 0, p50Ms: 0, p90Ms: 0, p99Ms: 0, maxMs: 0, meanMs: 0 } },
    {
      name: 'one sample',
      samples: [4.2],
      expected: { count: 1, p50Ms: 4.2, p90Ms: 4.2, p99Ms: 4.2, maxMs: 4.2, meanMs: 4.2 },
    },
    {
      name: 'four unordered',
      samples: [3, 1, 4, 2],
      expected: { count: 4, p50Ms: 2, p90Ms: 4, p99Ms: 4, maxMs: 4, meanMs: 2.5 },
    },
    {
      name: '1..1000 reversed',
      samples: oneToThousand,
      expected: { count: 1000, p50Ms: 500, p90Ms: 900, p99Ms: 990, maxMs: 1000, meanMs: 500.5 },
    },
    {
      name: 'rounded to microseconds',
      samples: [1.23456, 1.23424],
      expected: { count: 2, p50Ms: 1.234, p90Ms: 1.235, p99Ms: 1.235, maxMs: 1.235, meanMs: 1.234 },
    },
  ])('$name', ({ samples, expected }) => {
    expect(millisecondStats(samples)).toEqual(expected);
  });
});

describe('quantileBucketBound', () => {
  // kube-apiserver's admission webhook buckets: 5, 25, 100, 500 ms, 1, 2.5, 10, 25 s.
  const apiServer = (counts: readonly number[]): { le: number; count: number }[] =>
    [0.005, 0.025, 0.1, 0.5, 1, 2.5, 10, 25, Infinity].map((le, index) => ({
      le,
      count: counts[index] ?? counts.at(-1) ?? 0,
    }));

  it.each([
    { name: 'no observations', q: 0.99, buckets: apiServer([0]), expected: undefined },
    { name: 'no buckets', q: 0.99, buckets: [], expected: undefined },
    { name: 'all in the first bucket', q: 0.99, buckets: apiServer([1000]), expected: 0.005 },
    { name: 'p99 on the edge of a bucket', q: 0.99, buckets: apiServer([0, 990, 1000]), expected: 0.025 },
    { name: 'p99 one past the edge', q: 0.99, buckets: apiServer([0, 989, 1000]), expected: 0.1 },
    { name: 'p50 below the p99', q: 0.5, buckets: apiServer([0, 600, 1000]), expected: 0.025 },
    {
      name: 'only +Inf holds it',
      q: 0.99,
      buckets: [
        { le: 0.1, count: 5 },
        { le: Infinity, count: 10 },
      ],
      expected: Infinity,
    },
    {
      name: 'unsorted input',
      q: 0.99,
      buckets: [
        { le: Infinity, count: 100 },
        { le: 0.01, count: 100 },
        { le: 0.005, count: 2 },
      ],
      expected: 0.01,
    },
    { name: 'q 1: the maximum', q: 1, buckets: apiServer([0, 999, 1000]), expected: 0.1 },
  ])('$name ⇒ $expected', ({ q, buckets, expected }) => {
    expect(quantileBucketBound(q, buckets)).toBe(expected);
  });
});

describe('statsDifference', () => {
  it('subtracts every figure but the count', () => {
    const webhook = { count: 1000, p50Ms: 12.5, p90Ms: 15, p99Ms: 30.25, maxMs: 80, meanMs: 13 };
    const baseline = { count: 1000, p50Ms: 5, p90Ms: 7, p99Ms: 12, maxMs: 90, meanMs: 5.5 };
    expect(statsDifference(webhook, baseline)).toEqual({ p50Ms: 7.5, p90Ms: 8, p99Ms: 18.25, maxMs: -10, meanMs: 7.5 });
  });
});
