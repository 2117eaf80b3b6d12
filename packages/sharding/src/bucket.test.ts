import { describe, expect, it } from 'vitest';

import {
  bucketLabels,
  bucketOf,
  bucketSelector,
  fnv1a32,
  parseBucketLabel,
  SHARD_BUCKET_LABEL,
  SHARD_BUCKETS,
  shardHash,
} from './bucket.ts';

describe('fnv1a32', () => {
  it.each([
    ['', 0x81_1c_9d_c5],
    ['a', 0xe4_0c_29_2c],
    ['foobar', 0xbf_9c_f9_68],
  ])('matches the published FNV-1a test vector of %j', (text, hash) => {
    expect(fnv1a32(text)).toBe(hash);
  });

  it('hashes UTF-8 bytes, not UTF-16 code units', () => {
    expect(fnv1a32('é')).toBe(fnv1a32('\u00e9'));
    expect(fnv1a32('é')).not.toBe(fnv1a32('\u0065\u0301'));
  });
});

describe('bucketOf', () => {
  it('is stable: these values are written into pod labels, so a change would relabel every pod', () => {
    expect(SHARD_BUCKETS).toBe(64);
    expect([
      bucketOf('default', 'web'),
      bucketOf('default', 'web-1'),
      bucketOf('kube-system', 'web'),
      bucketOf('a', 'b'),
    ]).toEqual(['default/web', 'default/web-1', 'kube-system/web', 'a/b'].map((key) => shardHash(key) % 64));
    expect(bucketOf('default', 'web')).toBe(bucketOf('default', 'web'));
  });

  it('separates namespace and name, so that "a/bc" and "ab/c" are different keys', () => {
    expect(shardHash('a/bc')).not.toBe(shardHash('ab/c'));
  });

  it('spreads 6,400 workloads with similar names over every bucket, none with more than twice the mean', () => {
    const counts = new Array<number>(SHARD_BUCKETS).fill(0);
    for (let i = 0; i < 6400; i++) {
      const bucket = bucketOf(`team-${String(i % 7)}`, `web-${String(i)}`);
      counts[bucket] = (counts[bucket] ?? 0) + 1;
    }
    expect(Math.min(...counts)).toBeGreaterThan(50);
    expect(Math.max(...counts)).toBeLessThan(200);
  });
});

describe('bucket labels and selectors', () => {
  it("labels an owned object with its owner's bucket", () => {
    expect(bucketLabels('default', 'web')).toEqual({ [SHARD_BUCKET_LABEL]: String(bucketOf('default', 'web')) });
  });

  it.each([
    ['0', 0],
    ['63', 63],
    ['64', undefined],
    ['007', undefined],
    ['-1', undefined],
    ['', undefined],
    [undefined, undefined],
  ])('parses the label value %j as %j', (value, bucket) => {
    expect(parseBucketLabel(value)).toBe(bucket);
  });

  it('selects a sorted set of buckets, and nothing for none', () => {
    expect(bucketSelector([17, 3, 0, 3])).toBe(`${SHARD_BUCKET_LABEL} in (0,3,17)`);
    expect(bucketSelector([])).toBe(`${SHARD_BUCKET_LABEL} in (none)`);
  });
});
