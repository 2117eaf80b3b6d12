import { describe, expect, it } from 'vitest';

import { bucketOf, bucketOfKey, SHARD_BUCKET_LABEL } from './bucket.ts';
import { BucketGate } from './bucket-gate.ts';

/** Two workload keys in different buckets. */
const A = 'default/web-a';
const B = 'default/web-b';
const bucketA = bucketOfKey(A);
const bucketB = bucketOfKey(B);

describe('BucketGate', () => {
  it('keys in different buckets for the tests', () => {
    expect(bucketA).not.toBe(bucketB);
    expect(bucketA).toBe(bucketOf('default', 'web-a'));
  });

  it.each([
    [undefined, 'drop'],
    ['acquiring', 'later'],
    ['active', 'run'],
    ['draining', 'drop'],
  ] as const)('admits a key of a bucket in state %s with %s', (state, admission) => {
    const gate = new BucketGate();
    if (state !== undefined) {
      gate.set(bucketA, state);
    }
    expect(gate.admit(A)).toBe(admission);
  });

  it("holds back a held bucket's key while a deferral says so", () => {
    const gate = new BucketGate();
    gate.set(bucketA, 'active');
    let unlabelled = true;
    gate.addDeferral((key) => key === A && unlabelled);
    expect(gate.admit(A)).toBe('later');
    unlabelled = false;
    expect(gate.admit(A)).toBe('run');
  });

  it('counts reconciles in flight per bucket: whenIdle waits for the last one of its own bucket only', async () => {
    const gate = new BucketGate();
    gate.set(bucketA, 'active');
    gate.set(bucketB, 'active');
    expect([gate.admit(A), gate.admit(A), gate.admit(B)]).toEqual(['run', 'run', 'run']);
    let idle = false;
    const waiting = gate.whenIdle(bucketA).then(() => {
      idle = true;
    });
    gate.finished(B);
    gate.finished(A);
    await Promise.resolve();
    expect(idle).toBe(false);
    gate.finished(A);
    await waiting;
    expect(idle).toBe(true);
    await gate.whenIdle(bucketB);
  });

  it('caches every bucket it holds, draining ones too, and selects nothing when it holds none', () => {
    const gate = new BucketGate();
    expect(gate.selector()).toBe(`${SHARD_BUCKET_LABEL} in (none)`);
    gate.set(9, 'draining');
    gate.set(2, 'active');
    gate.set(5, 'acquiring');
    expect(gate.selector()).toBe(`${SHARD_BUCKET_LABEL} in (2,5,9)`);
    gate.delete(9);
    expect(gate.cachedBuckets().sort()).toEqual([2, 5]);
    gate.clear();
    expect(gate.admit(A)).toBe('drop');
  });

  it('says which workloads it works on now', () => {
    const gate = new BucketGate();
    gate.set(bucketA, 'active');
    gate.set(bucketB, 'acquiring');
    expect(gate.isActive('default', 'web-a')).toBe(true);
    expect(gate.isActive('default', 'web-b')).toBe(false);
  });
});
