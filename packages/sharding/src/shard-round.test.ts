import { describe, expect, it } from 'vitest';

import { assignBuckets, bucketsOf } from './ring.ts';
import { decideShardRound, isNewerVersion } from './shard-round.ts';
import type { LocalBucketState, ObservedBucket, ObservedMember, ShardRoundInput } from './shard-round.ts';

const DURATION = 15_000;
const NOW = 1_000_000;

function member(identity: string, observedAgoMs = 0): ObservedMember {
  return { leaseName: `lease-${identity}`, identity, observedAt: NOW - observedAgoMs, leaseDurationMs: DURATION };
}

function input(overrides: Partial<ShardRoundInput> = {}): ShardRoundInput {
  return {
    identity: 'a',
    now: NOW,
    selfRenewedAt: NOW - 1000,
    renewDeadlineMs: 10_000,
    memberGcAfterMs: 60_000,
    bucketCount: 8,
    members: [member('a')],
    buckets: new Map(),
    local: new Map(),
    written: new Map(),
    ...overrides,
  };
}

function leases(entries: Record<number, string>): Map<number, ObservedBucket> {
  return new Map(
    Object.entries(entries).map(([bucket, holder]) => [Number(bucket), { holder, resourceVersion: `rv-${bucket}` }]),
  );
}

function local(entries: Record<number, LocalBucketState>): Map<number, LocalBucketState> {
  return new Map(Object.entries(entries).map(([bucket, state]) => [Number(bucket), state]));
}

describe('decideShardRound', () => {
  it('takes every bucket when alone, creating the Leases that do not exist and updating the free ones', () => {
    const round = decideShardRound(input({ buckets: leases({ 0: '', 1: 'a' }) }));
    expect(round.fence).toBe(false);
    expect(round.live).toEqual(['a']);
    expect(round.acquire.map((a) => a.bucket)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(round.acquire[0]).toEqual({ bucket: 0, lease: { holder: '', resourceVersion: 'rv-0' }, takeover: false });
    expect(round.acquire[2]).toEqual({ bucket: 2, lease: undefined, takeover: false });
    expect(round.release).toEqual([]);
  });

  it('joins nothing before its own Lease is renewed once', () => {
    const round = decideShardRound(input({ selfRenewedAt: undefined, members: [member('b')] }));
    expect(round).toMatchObject({ fence: false, live: ['b'], owners: [], acquire: [], release: [] });
  });

  it('fences itself once its renewal is older than the renew deadline, deciding nothing else', () => {
    const round = decideShardRound(input({ selfRenewedAt: NOW - 10_000, local: local({ 0: 'active' }) }));
    expect(round).toMatchObject({ fence: true, acquire: [], release: [], lost: [] });
  });

  it('waits for a live holder to release a bucket the ring now gives to this member', () => {
    const owners = assignBuckets(['a', 'b'], { buckets: 8 });
    const mine = bucketsOf(owners, 'a');
    const round = decideShardRound(
      input({
        members: [member('a'), member('b', 14_999)],
        buckets: leases(Object.fromEntries(mine.map((b) => [b, 'b']))),
      }),
    );
    expect(round.live).toEqual(['a', 'b']);
    expect(round.acquire).toEqual([]);
  });

  it('takes over the buckets of a holder whose Lease stood still for its whole duration on this clock', () => {
    const owners = assignBuckets(['a'], { buckets: 8 });
    expect(bucketsOf(owners, 'a')).toHaveLength(8);
    const round = decideShardRound(
      input({ members: [member('a'), member('b', DURATION)], buckets: leases({ 3: 'b', 4: '' }) }),
    );
    expect(round.live).toEqual(['a']);
    expect(round.acquire.find((a) => a.bucket === 3)).toEqual({
      bucket: 3,
      lease: { holder: 'b', resourceVersion: 'rv-3' },
      takeover: true,
    });
    expect(round.acquire.find((a) => a.bucket === 4)?.takeover).toBe(false);
  });

  it('takes over from a holder that has no member Lease at all (deleted after it expired, or never made)', () => {
    const round = decideShardRound(input({ buckets: leases({ 5: 'gone' }) }));
    expect(round.acquire.find((a) => a.bucket === 5)?.takeover).toBe(true);
  });

  it('releases the buckets the ring gives to a newcomer, and keeps the rest', () => {
    const owners = assignBuckets(['a', 'c'], { buckets: 8 });
    const toC = bucketsOf(owners, 'c');
    expect(toC.length).toBeGreaterThan(0);
    const all = local(Object.fromEntries(Array.from({ length: 8 }, (_, b) => [b, 'active' as const])));
    const round = decideShardRound(
      input({
        members: [member('a'), member('c')],
        buckets: leases(Object.fromEntries(Array.from({ length: 8 }, (_, b) => [b, 'a']))),
        local: all,
      }),
    );
    expect(round.release).toEqual(toC);
    expect(round.acquire).toEqual([]);
  });

  it('does not release again what it is draining, and releases a bucket it is still acquiring', () => {
    const round = decideShardRound(
      input({
        members: [member('a'), member('c')],
        local: local({ 0: 'draining', 1: 'acquiring', 2: 'active' }),
        buckets: leases({ 0: 'a', 1: 'a', 2: 'a' }),
      }),
    );
    const owners = assignBuckets(['a', 'c'], { buckets: 8 });
    expect(round.release).toEqual([1, 2].filter((b) => owners[b] !== 'a'));
    expect(round.release).not.toContain(0);
  });

  it('stops at once on a bucket another member wrote itself into after our write, and does not try to take it back', () => {
    const round = decideShardRound(
      input({
        local: local({ 2: 'active', 3: 'draining' }),
        buckets: new Map([
          [2, { holder: 'b', resourceVersion: '120' }],
          [3, { holder: 'b', resourceVersion: '130' }],
        ]),
        written: new Map([
          [2, '100'],
          [3, '101'],
        ]),
        members: [member('a'), member('b')],
      }),
    );
    expect(round.lost).toEqual([2, 3]);
    expect(round.release).toEqual([]);
  });

  it('does not count as lost what a lagging cache shows: the holder before our write, or our own release', () => {
    const round = decideShardRound(
      input({
        local: local({ 2: 'acquiring', 3: 'draining' }),
        // Bucket 2: the cache still shows b, from before our takeover at version 100. Bucket 3: we just released it.
        buckets: new Map([
          [2, { holder: 'b', resourceVersion: '90' }],
          [3, { holder: '', resourceVersion: '140' }],
        ]),
        written: new Map([
          [2, '100'],
          [3, '101'],
        ]),
        members: [member('a')],
      }),
    );
    expect(round.lost).toEqual([]);
  });

  it('counts a member live until its Lease has stood still for the whole duration', () => {
    expect(decideShardRound(input({ members: [member('a'), member('b', DURATION - 1)] })).live).toEqual(['a', 'b']);
    expect(decideShardRound(input({ members: [member('a'), member('b', DURATION)] })).live).toEqual(['a']);
  });

  it('collects member Leases expired for longer than the grace, never its own', () => {
    const round = decideShardRound(
      input({ members: [member('a', 500_000), member('b', DURATION + 60_000), member('c', DURATION + 59_999)] }),
    );
    expect(round.collect).toEqual(['lease-b']);
  });

  it('agrees with every other member on the owners, whatever the order it sees the Leases in', () => {
    const members = ['a', 'b', 'c'].map((id) => member(id));
    const fromA = decideShardRound(input({ members }));
    const fromC = decideShardRound(input({ identity: 'c', members: [...members].reverse() }));
    expect(fromA.owners).toEqual(fromC.owners);
  });
});

describe('isNewerVersion', () => {
  it.each([
    ['101', '100', true],
    ['100', '100', false],
    ['99', '100', false],
    ['12345678901234567890', '9', true],
    ['abc', 'abd', true],
    ['abc', 'abc', false],
  ])('%s is newer than %s: %s', (a, b, newer) => {
    expect(isNewerVersion(a, b)).toBe(newer);
  });
});
