import { describe, expect, it } from 'vitest';

import type { Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

import { names, node, pod } from '../test/fixtures/pods.ts';
import { choosePodsToDelete, scaleInOrder } from './choose-pods-to-delete.ts';
import type { PodComparator } from './deletion-order.ts';

const NOW = Date.parse('2026-01-02T00:00:00Z');
// Deletes names in ascending order, so that "the first n after sorting" is visible.
const byName: PodComparator = (a, b) => (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? '');
const old = ['o3', 'o1', 'o2'].map((name) => pod({ name }));
const updated = ['u2', 'u3', 'u1'].map((name) => pod({ name }));

describe('choosePodsToDelete', () => {
  it.each([
    { case: 'oldRevisionCount = total ⇒ all from not-updated', total: 2, oldRevisionCount: 2, expected: ['o1', 'o2'] },
    {
      case: 'oldRevisionCount > total ⇒ total from not-updated',
      total: 2,
      oldRevisionCount: 5,
      expected: ['o1', 'o2'],
    },
    { case: '0 < oldRevisionCount < total ⇒ split', total: 3, oldRevisionCount: 1, expected: ['o1', 'u1', 'u2'] },
    { case: 'oldRevisionCount 0 ⇒ from updated', total: 2, oldRevisionCount: 0, expected: ['u1', 'u2'] },
    { case: 'negative oldRevisionCount ⇒ from updated', total: 1, oldRevisionCount: -2, expected: ['u1'] },
    {
      case: 'more than a group holds ⇒ all of it, unsorted',
      total: 5,
      oldRevisionCount: 5,
      expected: ['o3', 'o1', 'o2'],
    },
    { case: 'split beyond the updated group', total: 6, oldRevisionCount: 2, expected: ['o1', 'o2', 'u2', 'u3', 'u1'] },
    { case: 'nothing to delete', total: 0, oldRevisionCount: 0, expected: [] },
  ])('$case', ({ total, oldRevisionCount, expected }) => {
    expect(names(choosePodsToDelete({ total, oldRevisionCount, notUpdated: old, updated, compare: byName }))).toEqual(
      expected,
    );
  });

  it('asks a group comparator for each group it sorts, with that group', () => {
    const groups: string[][] = [];
    const compare = {
      forGroup: (pods: readonly DeepReadonly<Pod>[]): PodComparator => {
        groups.push(names(pods));
        return byName;
      },
    };
    choosePodsToDelete({ total: 3, oldRevisionCount: 1, notUpdated: old, updated, compare });
    expect(groups).toEqual([
      ['o3', 'o1', 'o2'],
      ['u2', 'u3', 'u1'],
    ]);
  });

  it('does not modify its inputs', () => {
    const input = [...old];
    choosePodsToDelete({ total: 1, oldRevisionCount: 1, notUpdated: input, updated, compare: byName });
    expect(names(input)).toEqual(['o3', 'o1', 'o2']);
  });
});

describe('scaleInOrder', () => {
  it('keeps the most valuable pod of each node (same-node ranker)', () => {
    // n1 holds x and y, n2 holds z, n3 holds w; all healthy and equal otherwise.
    const pods = [
      pod({ name: 'x', node: 'n1' }),
      pod({ name: 'y', node: 'n1' }),
      pod({ name: 'z', node: 'n2' }),
      pod({ name: 'w', node: 'n3' }),
    ];
    const compare = scaleInOrder({ template: undefined, minReadySeconds: 0, now: NOW });
    const chosen = choosePodsToDelete({ total: 1, oldRevisionCount: 0, notUpdated: [], updated: pods, compare });
    expect(names(chosen)).toEqual(['x']);
  });

  it('deletes from the crowded zone first (spread ranker)', () => {
    const nodes = new Map([
      ['n1', node('n1', { zone: 'a' })],
      ['n2', node('n2', { zone: 'a' })],
      ['n3', node('n3', { zone: 'a' })],
      ['n4', node('n4', { zone: 'b' })],
      ['n5', node('n5', { zone: 'b' })],
    ]);
    const pods = [
      pod({ name: 'b1', node: 'n4', created: '2026-01-01T10:00:00Z' }),
      pod({ name: 'a1', node: 'n1', created: '2026-01-01T01:00:00Z' }),
      pod({ name: 'a2', node: 'n2', created: '2026-01-01T02:00:00Z' }),
      pod({ name: 'a3', node: 'n3', created: '2026-01-01T03:00:00Z' }),
      pod({ name: 'b2', node: 'n5', created: '2026-01-01T11:00:00Z' }),
    ];
    const template = {
      spec: {
        containers: [],
        topologySpreadConstraints: [{ topologyKey: 'zone', maxSkew: 1, whenUnsatisfiable: 'DoNotSchedule' }],
      },
    };
    const compare = scaleInOrder({ template, nodes, minReadySeconds: 0, now: NOW });
    // b pods are newest, but zone a holds three pods: its newest two go first (ranks 3w and 2w vs 2w for b2).
    const chosen = choosePodsToDelete({ total: 1, oldRevisionCount: 0, notUpdated: [], updated: pods, compare });
    expect(names(chosen)).toEqual(['a3']);
    // Second pick: a3 (3w) first; a2 and b2 both rank 2w and b2 is newer.
    expect(
      names(choosePodsToDelete({ total: 2, oldRevisionCount: 0, notUpdated: [], updated: pods, compare })),
    ).toEqual(['a3', 'b2']);
  });

  it('uses the availability test it is given before ranks', () => {
    const pods = [pod({ name: 'x', node: 'n1' }), pod({ name: 'y', node: 'n1' }), pod({ name: 'z', node: 'n2' })];
    const compare = scaleInOrder({
      template: undefined,
      minReadySeconds: 0,
      now: NOW,
      isAvailable: (p) => p.metadata?.name !== 'z',
    });
    expect(
      names(choosePodsToDelete({ total: 1, oldRevisionCount: 0, notUpdated: [], updated: pods, compare })),
    ).toEqual(['z']);
  });
});
