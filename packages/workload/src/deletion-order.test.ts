import { describe, expect, it } from 'vitest';

import type { Pod } from '@kruise-ts/api';

import { names, pod } from '../test/fixtures/pods.ts';
import type { PodFixture } from '../test/fixtures/pods.ts';
import { activePodsComparator, podDeletionComparator, podRankingComparator } from './deletion-order.ts';
import type { PodComparator } from './deletion-order.ts';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const NOW = T0 + 3_600_000;
const base: Omit<PodFixture, 'name'> = {
  node: 'node-1',
  phase: 'Running',
  ready: true,
  readySince: '2026-01-01T00:00:00Z',
  created: '2025-12-31T00:00:00Z',
};

function pair(a: Partial<PodFixture>, b: Partial<PodFixture>): [Pod, Pod] {
  return [pod({ ...base, name: 'a', ...a }), pod({ ...base, name: 'b', ...b })];
}

/** `a` must sort strictly before `b`, in both argument orders. */
function expectFirst(compare: PodComparator, a: Pod, b: Pod): void {
  expect(compare(a, b)).toBeLessThan(0);
  expect(compare(b, a)).toBeGreaterThan(0);
}

const plain = podDeletionComparator({ minReadySeconds: 0, now: NOW, ranks: new Map() });

describe('podDeletionComparator: each rule alone (the pair differs only there; a is deleted first)', () => {
  it.each([
    ['1 unscheduled before scheduled', { node: '' }, { node: 'node-1' }],
    ['2 Pending before Unknown', { phase: 'Pending' }, { phase: 'Unknown' }],
    ['2 Unknown before Running', { phase: 'Unknown' }, { phase: 'Running' }],
    ['2 Pending before Running', { phase: 'Pending' }, { phase: 'Running' }],
    ['2 other phases rank as Pending', { phase: 'Failed' }, { phase: 'Unknown' }],
    ['4 lower deletion cost first', { cost: '-1' }, { cost: '5' }],
    ['4 invalid cost counts as 0', { cost: '+10' }, { cost: '1' }],
    ['6 more recently Ready first', { readySince: '2026-01-01T00:10:00Z' }, { readySince: '2026-01-01T00:00:00Z' }],
    ['6 unknown Ready time first', { readySince: '' }, { readySince: '2026-01-01T00:00:00Z' }],
    ['7 more restarts first', { restarts: [0, 3] }, { restarts: [2] }],
    ['8 newer first', { created: '2026-01-01T00:00:00Z' }, { created: '2025-12-31T00:00:00Z' }],
    ['8 unknown creation time first', { created: '' }, { created: '2025-12-31T00:00:00Z' }],
  ] as const)('%s', (_, a, b) => {
    const [pa, pb] = pair(a, b);
    expectFirst(plain, pa, pb);
  });

  it('3 not available before available (availability decided by the given test)', () => {
    const [a, b] = pair({}, {});
    const compare = podDeletionComparator({
      minReadySeconds: 0,
      now: NOW,
      ranks: new Map(),
      isAvailable: (p) => p.metadata?.name === 'b',
    });
    expectFirst(compare, a, b);
  });

  it('3 not Ready before Ready when availability is equal', () => {
    const [a, b] = pair({ ready: false }, { ready: true });
    const compare = podDeletionComparator({ minReadySeconds: 0, now: NOW, ranks: new Map(), isAvailable: () => false });
    expectFirst(compare, a, b);
  });

  it('3 default availability honours minReadySeconds', () => {
    // a became Ready 10 s ago, b an hour ago; with minReadySeconds 60 only b is available.
    const [a, b] = pair({ readySince: new Date(NOW - 10_000).toISOString(), cost: '100' }, { cost: '0' });
    expectFirst(podDeletionComparator({ minReadySeconds: 60, now: NOW, ranks: new Map() }), a, b);
    // Without minReadySeconds both are available and the cost decides.
    expectFirst(plain, b, a);
  });

  it('5 higher rank first', () => {
    const [a, b] = pair({}, {});
    expectFirst(
      podDeletionComparator({
        minReadySeconds: 0,
        now: NOW,
        ranks: new Map([
          ['a', 2.5],
          ['b', 1],
        ]),
      }),
      a,
      b,
    );
    expectFirst(podDeletionComparator({ minReadySeconds: 0, now: NOW, ranks: new Map([['a', 0.1]]) }), a, b);
  });

  it('treats pods equal under every rule as equal; two different nodes do not matter', () => {
    const [a, b] = pair({ node: 'node-1' }, { node: 'node-2' });
    expect(plain(a, b)).toBe(0);
  });

  it('6 applies only when both pods are Ready', () => {
    const [a, b] = pair(
      { ready: false, readySince: '2026-01-01T00:10:00Z', created: '2025-12-01T00:00:00Z' },
      { ready: false, created: '2025-12-31T00:00:00Z' },
    );
    // Neither is Ready: the ready time is ignored and the newer creation (b) decides.
    expectFirst(podDeletionComparator({ minReadySeconds: 0, now: NOW, ranks: new Map() }), b, a);
  });
});

describe('podDeletionComparator: each rule beats the later ones', () => {
  it.each([
    ['1 over 2', { node: '', phase: 'Running' }, { node: 'node-1', phase: 'Pending' }],
    ['2 over 3', { phase: 'Pending', ready: true }, { phase: 'Running', ready: false }],
    ['3 over 4', { ready: false, cost: '10' }, { ready: true, cost: '-10' }],
    ['4 over 6', { cost: '1', readySince: '2026-01-01T00:00:00Z' }, { cost: '2', readySince: '2026-01-01T00:30:00Z' }],
    [
      '6 over 7',
      { readySince: '2026-01-01T00:30:00Z', restarts: [0] },
      { readySince: '2026-01-01T00:00:00Z', restarts: [9] },
    ],
    [
      '7 over 8',
      { restarts: [1], created: '2025-01-01T00:00:00Z' },
      { restarts: [0], created: '2025-12-31T00:00:00Z' },
    ],
  ] as const)('%s', (_, a, b) => {
    const [pa, pb] = pair(a, b);
    expectFirst(plain, pa, pb);
  });

  it('5 over 6 (rank before ready time)', () => {
    const [a, b] = pair({ readySince: '2026-01-01T00:00:00Z' }, { readySince: '2026-01-01T00:30:00Z' });
    expectFirst(podDeletionComparator({ minReadySeconds: 0, now: NOW, ranks: new Map([['a', 1]]) }), a, b);
  });

  it('4 over 5 (cost before rank)', () => {
    const [a, b] = pair({ cost: '-1' }, {});
    expectFirst(podDeletionComparator({ minReadySeconds: 0, now: NOW, ranks: new Map([['b', 5]]) }), a, b);
  });
});

describe('podDeletionComparator: combined', () => {
  it('sorts a mixed set in the documented order', () => {
    const pods = [
      pod({ ...base, name: 'old-healthy', created: '2025-01-01T00:00:00Z' }),
      pod({ ...base, name: 'costly', cost: '100' }),
      pod({ ...base, name: 'running-unready', ready: false }),
      pod({ ...base, name: 'unscheduled', node: '', phase: 'Pending', ready: false }),
      pod({ ...base, name: 'restarting', restarts: [4] }),
      pod({ ...base, name: 'pending', phase: 'Pending', ready: false }),
      pod({ ...base, name: 'cheap', cost: '-100' }),
      pod({ ...base, name: 'ranked' }),
      pod({ ...base, name: 'fresh-ready', readySince: '2026-01-01T00:30:00Z' }),
      pod({ ...base, name: 'unknown', phase: 'Unknown', ready: false }),
    ];
    const compare = podDeletionComparator({ minReadySeconds: 0, now: NOW, ranks: new Map([['ranked', 1]]) });
    expect(names([...pods].sort(compare))).toEqual([
      'unscheduled',
      'pending',
      'unknown',
      'running-unready',
      'cheap',
      'ranked',
      'fresh-ready',
      'restarting',
      'old-healthy',
      'costly',
    ]);
  });

  it('keeps the input order of equal pods (stable)', () => {
    const pods = ['x', 'y', 'z'].map((name) => pod({ ...base, name }));
    expect(names([...pods].sort(plain))).toEqual(['x', 'y', 'z']);
  });
});

describe('podRankingComparator', () => {
  it('ignores availability but keeps readiness, cost and the optional ranks', () => {
    const recent = pod({ ...base, name: 'recent', readySince: new Date(NOW - 1000).toISOString() });
    const older = pod({ ...base, name: 'older', cost: '-1' });
    // Availability (minReadySeconds) is not part of it: the cost decides.
    expectFirst(podRankingComparator(), older, recent);
    const [a, b] = pair({}, {});
    expect(podRankingComparator()(a, b)).toBe(0);
    expectFirst(podRankingComparator(new Map([['a', 1]])), a, b);
  });
});

describe('activePodsComparator (Kubernetes ActivePods)', () => {
  it.each([
    ['unscheduled before scheduled', { node: '' }, { node: 'node-1' }],
    ['Pending before Unknown', { phase: 'Pending' }, { phase: 'Unknown' }],
    ['Unknown before Running', { phase: 'Unknown' }, { phase: 'Running' }],
    ['not Ready before Ready', { ready: false }, { ready: true }],
    ['more recently Ready first', { readySince: '2026-01-01T00:10:00Z' }, { readySince: '2026-01-01T00:00:00Z' }],
    ['more restarts first', { restarts: [2] }, { restarts: [1] }],
    ['newer first', { created: '2026-01-01T00:00:00Z' }, { created: '2025-12-31T00:00:00Z' }],
  ] as const)('%s', (_, a, b) => {
    const [pa, pb] = pair(a, b);
    expectFirst(activePodsComparator, pa, pb);
  });

  it('does not look at the deletion cost', () => {
    const [a, b] = pair({ cost: '100' }, { cost: '-100' });
    expect(activePodsComparator(a, b)).toBe(0);
  });
});
