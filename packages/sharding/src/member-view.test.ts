import { describe, expect, it } from 'vitest';

import type { LeaseLike } from '@kruise-ts/controller-runtime';

import { MemberView } from './member-view.ts';

// eslint-disable-next-line max-params -- a table row
function member(name: string, identity: string, resourceVersion: string, seconds?: number): LeaseLike {
  return {
    metadata: { name: `ring-member-${name}`, resourceVersion },
    spec: {
      holderIdentity: identity,
      renewTime: '2020-01-01T00:00:00.000000Z',
      ...(seconds === undefined ? {} : { leaseDurationSeconds: seconds }),
    },
  };
}

function bucket(n: string, holder: string, resourceVersion: string): LeaseLike {
  return { metadata: { name: `ring-bucket-${n}`, resourceVersion }, spec: { holderIdentity: holder } };
}

describe('MemberView', () => {
  it('dates a member from when this observer saw its Lease rewritten, not from the time written in it', () => {
    const view = new MemberView('ring', 15_000);
    const first = view.observe([member('a', 'id-a', '10', 10)], 1000);
    expect(first.members).toEqual([
      { leaseName: 'ring-member-a', identity: 'id-a', observedAt: 1000, leaseDurationMs: 10_000 },
    ]);
    // Unchanged record: still dated from the first sight.
    expect(view.observe([member('a', 'id-a', '10', 10)], 5000).members[0]?.observedAt).toBe(1000);
    // Renewed (a new resourceVersion, whatever renewTime says): dated from now.
    expect(view.observe([member('a', 'id-a', '11', 10)], 6000).members[0]?.observedAt).toBe(6000);
  });

  it('forgets a member whose Lease is gone, so that one coming back is dated afresh', () => {
    const view = new MemberView('ring', 15_000);
    view.observe([member('a', 'id-a', '10')], 1000);
    view.observe([], 2000);
    expect(view.observe([member('a', 'id-a', '10')], 3000).members[0]?.observedAt).toBe(3000);
  });

  it('reads bucket holders with their versions, takes the default duration, and skips released member Leases and other names', () => {
    const view = new MemberView('ring', 15_000);
    const snapshot = view.observe(
      [
        bucket('07', 'id-a', '42'),
        bucket('08', '', '43'),
        member('b', 'id-b', '10'),
        member('c', '', '10'),
        { metadata: { name: 'other-lease' }, spec: { holderIdentity: 'x' } },
        { metadata: { name: 'ring-bucket-x' }, spec: { holderIdentity: 'x' } },
      ],
      1000,
    );
    expect([...snapshot.buckets].map(([n, b]) => [n, b.holder, b.resourceVersion])).toEqual([
      [7, 'id-a', '42'],
      [8, '', '43'],
    ]);
    expect(snapshot.members.map((m) => [m.identity, m.leaseDurationMs])).toEqual([['id-b', 15_000]]);
  });
});

describe('MemberView.confirmExpired (a takeover confirmed by a live read)', () => {
  it('a watch that stalled shows a member as expired while the API server shows it renewed: not expired, and live from then on', () => {
    const view = new MemberView('ring', 15_000);
    view.observe([member('b', 'id-b', '10')], 0);
    // The cache still shows version 10 at 20 s: expired on this view.
    expect(view.observe([member('b', 'id-b', '10')], 20_000).members[0]?.observedAt).toBe(0);
    expect(view.confirmExpired('ring-member-b', member('b', 'id-b', '17'), 20_000)).toBe(false);
    // The stalled cache (older than the live read) does not date it back.
    expect(view.observe([member('b', 'id-b', '10')], 21_000).members[0]?.observedAt).toBe(20_000);
  });

  it('confirms a member whose Lease the API server still has at the version seen a whole duration ago', () => {
    const view = new MemberView('ring', 15_000);
    view.observe([member('b', 'id-b', '10')], 0);
    expect(view.confirmExpired('ring-member-b', member('b', 'id-b', '10'), 15_000)).toBe(true);
    expect(view.confirmExpired('ring-member-b', member('b', 'id-b', '10'), 14_999)).toBe(false);
  });

  it('confirms a member whose Lease is gone or released, and not one this view never saw', () => {
    const view = new MemberView('ring', 15_000);
    expect(view.confirmExpired('ring-member-b', undefined, 0)).toBe(true);
    expect(view.confirmExpired('ring-member-b', member('b', '', '12'), 0)).toBe(true);
    expect(view.confirmExpired('ring-member-c', member('c', 'id-c', '12'), 0)).toBe(false);
  });
});
