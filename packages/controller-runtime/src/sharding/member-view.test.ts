import { describe, expect, it } from 'vitest';

import type { LeaseLike } from '../leader-election/lease-decision.ts';
import { MemberView } from './member-view.ts';

function member(name: string, identity: string, renewTime: string, seconds?: number): LeaseLike { // eslint-disable-line max-params -- a table row
  return { metadata: { name: `ring-member-${name}`, resourceVersion: '1' }, spec: { holderIdentity: identity, renewTime, ...(seconds === undefined ? {} : { leaseDurationSeconds: seconds }) } };
}

function bucket(n: string, holder: string, resourceVersion: string): LeaseLike {
  return { metadata: { name: `ring-bucket-${n}`, resourceVersion }, spec: { holderIdentity: holder } };
}

describe('MemberView', () => {
  it('dates a member from when this observer saw its renewal change, not from the time written in it', () => {
    const view = new MemberView('ring', 15_000);
    const first = view.observe([member('a', 'id-a', '2020-01-01T00:00:00.000000Z', 10)], 1000);
    expect(first.members).toEqual([{ leaseName: 'ring-member-a', identity: 'id-a', observedAt: 1000, leaseDurationMs: 10_000 }]);
    // Unchanged record: still dated from the first sight.
    expect(view.observe([member('a', 'id-a', '2020-01-01T00:00:00.000000Z', 10)], 5000).members[0]?.observedAt).toBe(1000);
    // Renewed: dated from now.
    expect(view.observe([member('a', 'id-a', '2020-01-01T00:00:05.000000Z', 10)], 6000).members[0]?.observedAt).toBe(6000);
  });

  it('forgets a member whose Lease is gone, so that one coming back is dated afresh', () => {
    const view = new MemberView('ring', 15_000);
    view.observe([member('a', 'id-a', 't1')], 1000);
    view.observe([], 2000);
    expect(view.observe([member('a', 'id-a', 't1')], 3000).members[0]?.observedAt).toBe(3000);
  });

  it('reads bucket holders with their versions, takes the default duration, and skips released member Leases and other names', () => {
    const view = new MemberView('ring', 15_000);
    const snapshot = view.observe([
      bucket('07', 'id-a', '42'),
      bucket('08', '', '43'),
      member('b', 'id-b', 't1'),
      member('c', '', 't1'),
      { metadata: { name: 'other-lease' }, spec: { holderIdentity: 'x' } },
      { metadata: { name: 'ring-bucket-x' }, spec: { holderIdentity: 'x' } },
    ], 1000);
    expect([...snapshot.buckets].map(([n, b]) => [n, b.holder, b.resourceVersion])).toEqual([[7, 'id-a', '42'], [8, '', '43']]);
    expect(snapshot.members.map((m) => [m.identity, m.leaseDurationMs])).toEqual([['id-b', 15_000]]);
  });
});
