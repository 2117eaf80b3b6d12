import { describe, expect, it } from 'vitest';

import { node, pod } from '../test/fixtures/pods.ts';
import { chooseRanker, rankPods, sameNodeRanks, spreadRanks } from './rankers.ts';

function sorted(ranks: ReadonlyMap<string, number>): Record<string, number> {
  return Object.fromEntries([...ranks].sort(([a], [b]) => a.localeCompare(b)));
}

describe('sameNodeRanks', () => {
  it('ranks all but the most valuable pod of each crowded node, len−1 … 1', () => {
    const pods = [
      pod({ name: 'c', node: 'n1', readySince: '2026-01-01T00:00:00Z' }),
      pod({ name: 'a', node: 'n1', ready: false }),
      pod({ name: 'b', node: 'n1', readySince: '2026-01-01T00:30:00Z' }),
      pod({ name: 'd', node: 'n2' }),
      pod({ name: 'e', node: '', phase: 'Pending', ready: false }),
      pod({ name: 'f', node: 'n3', cost: '10' }),
      pod({ name: 'g', node: 'n3', cost: '-10' }),
    ];
    // n1 sorted [a (not Ready), b (Ready more recently), c] ⇒ a 2, b 1, c kept; n3 sorted [g (cheaper), f].
    expect(sorted(sameNodeRanks(pods))).toEqual({ a: 2, b: 1, g: 1 });
    const ranks = sameNodeRanks(pods);
    expect(ranks.get('c') ?? 0).toBe(0);
    expect(ranks.get('d') ?? 0).toBe(0);
    expect(ranks.get('e') ?? 0).toBe(0);
  });

  it('uses the comparator it is given', () => {
    const pods = [pod({ name: 'a', node: 'n1' }), pod({ name: 'b', node: 'n1' })];
    expect(
      sorted(sameNodeRanks(pods, (x, y) => (y.metadata?.name ?? '').localeCompare(x.metadata?.name ?? ''))),
    ).toEqual({ b: 1 });
  });
});

describe('spreadRanks', () => {
  const nodes = new Map([
    ['n1', node('n1', { zone: 'zone-a' })],
    ['n2', node('n2', { zone: 'zone-a' })],
    ['n3', node('n3', { zone: 'zone-b' })],
    ['n4', node('n4', {})],
  ]);
  // p2 is newer than p1 (same node): p2 gets same-node rank 1. p3 is the oldest.
  const pods = [
    pod({ name: 'p1', node: 'n1', created: '2025-12-02T00:00:00Z' }),
    pod({ name: 'p2', node: 'n1', created: '2025-12-03T00:00:00Z' }),
    pod({ name: 'p3', node: 'n2', created: '2025-12-01T00:00:00Z' }),
    pod({ name: 'p4', node: 'n3' }),
    pod({ name: 'p5', node: 'n9' }),
    pod({ name: 'p6', node: 'n4' }),
    pod({ name: 'p7', node: '', phase: 'Pending', ready: false }),
  ];

  it('weights each topology group by ln(values + 2) and gives (len − i) to its i-th pod', () => {
    const w = Math.log(4); // zone-a and zone-b
    const ranks = spreadRanks({ pods, topologyKeys: ['zone'], nodes });
    // zone-a sorted with same-node ranks: [p2 (rank 1), p1 (newer than p3), p3].
    expect(ranks.get('p2')).toBeCloseTo(3 * w);
    expect(ranks.get('p1')).toBeCloseTo(2 * w);
    expect(ranks.get('p3')).toBeCloseTo(1 * w);
    expect(ranks.get('p4')).toBeCloseTo(1 * w);
    // Unknown node, node without the label, unscheduled: no contribution.
    expect(ranks.has('p5')).toBe(false);
    expect(ranks.has('p6')).toBe(false);
    expect(ranks.has('p7')).toBe(false);
  });

  it('does not use same-node ranks for kubernetes.io/hostname', () => {
    const w = Math.log(6); // n1, n2, n3, n4
    const ranks = spreadRanks({
      pods,
      topologyKeys: ['kubernetes.io/hostname'],
      nodes,
      sameNodeRanks: new Map([['p1', 100]]),
    });
    // n1 sorted without ranks: p2 (newer) then p1.
    expect(ranks.get('p2')).toBeCloseTo(2 * w);
    expect(ranks.get('p1')).toBeCloseTo(1 * w);
    expect(ranks.get('p3')).toBeCloseTo(1 * w);
    expect(ranks.get('p6')).toBeCloseTo(1 * w);
  });

  it('adds up the contributions of several keys', () => {
    const zone = spreadRanks({ pods, topologyKeys: ['zone'], nodes });
    const host = spreadRanks({ pods, topologyKeys: ['kubernetes.io/hostname'], nodes });
    const both = spreadRanks({ pods, topologyKeys: ['zone', 'kubernetes.io/hostname'], nodes });
    for (const name of ['p1', 'p2', 'p3', 'p4', 'p6']) {
      expect(both.get(name)).toBeCloseTo((zone.get(name) ?? 0) + (host.get(name) ?? 0));
    }
  });
});

describe('chooseRanker and rankPods', () => {
  it('chooses the spread ranker when the template has topologySpreadConstraints', () => {
    const template = {
      spec: {
        containers: [],
        topologySpreadConstraints: [
          { topologyKey: 'zone', maxSkew: 1, whenUnsatisfiable: 'DoNotSchedule' },
          { topologyKey: 'kubernetes.io/hostname', maxSkew: 1, whenUnsatisfiable: 'ScheduleAnyway' },
        ],
      },
    };
    expect(chooseRanker(template)).toEqual({ kind: 'spread', topologyKeys: ['zone', 'kubernetes.io/hostname'] });
    expect(chooseRanker({ spec: { containers: [] } })).toEqual({ kind: 'sameNode' });
    expect(chooseRanker(undefined)).toEqual({ kind: 'sameNode' });
  });

  it('ranks with the chosen ranker', () => {
    const pods = [pod({ name: 'a', node: 'n1', ready: false }), pod({ name: 'b', node: 'n1' })];
    expect(sorted(rankPods({ ranker: { kind: 'sameNode' }, pods }))).toEqual({ a: 1 });
    const nodes = new Map([['n1', node('n1', { zone: 'z' })]]);
    const spread = rankPods({ ranker: { kind: 'spread', topologyKeys: ['zone'] }, pods, nodes });
    expect(spread.get('a')).toBeCloseTo(2 * Math.log(3));
    expect(spread.get('b')).toBeCloseTo(Math.log(3));
    expect(rankPods({ ranker: { kind: 'spread', topologyKeys: ['zone'] }, pods }).size).toBe(0);
  });
});
