import { describe, expect, it } from 'vitest';

import type { Pod } from '@kruise-ts/api';

import { names, pod } from '../test/fixtures/pods.ts';
import type { PodFixture } from '../test/fixtures/pods.ts';
import { sortUpdateCandidates } from './update-order.ts';

const STATE_LABEL = 'lifecycle.apps.kruise.io/state';
const base: Omit<PodFixture, 'name'> = {
  node: 'node-1',
  phase: 'Running',
  ready: true,
  readySince: '2026-01-01T00:00:00Z',
  created: '2025-12-31T00:00:00Z',
};

const isPreparingUpdate = (p: {
  readonly metadata?: { readonly labels?: Readonly<Record<string, string>> };
}): boolean => p.metadata?.labels?.[STATE_LABEL] === 'PreparingUpdate';

function make(name: string, fixture: Partial<PodFixture> = {}): Pod {
  return pod({ ...base, name, ...fixture });
}

/** Sorts with no strategies; all candidates are the workload's pods. */
function baseOrder(pods: readonly Pod[]): string[] {
  return names(sortUpdateCandidates(pods, { allPods: pods, isPreparingUpdate }));
}

describe('sortUpdateCandidates: the ActivePods base order (first handled first)', () => {
  // Each pair differs in one rule only, and is given in the opposite order.
  it.each([
    ['unscheduled before scheduled', { node: 'node-1' }, { node: '' }],
    ['Pending before Unknown', { phase: 'Unknown' }, { phase: 'Pending' }],
    ['Unknown before Running', { phase: 'Running' }, { phase: 'Unknown' }],
    ['other phases rank as Pending (Failed before Unknown)', { phase: 'Unknown' }, { phase: 'Failed' }],
    ['not Ready before Ready', { ready: true }, { ready: false }],
    ['more recently Ready first', { readySince: '2026-01-01T00:00:00Z' }, { readySince: '2026-01-01T00:10:00Z' }],
    ['more restarts first', { restarts: [1] }, { restarts: [0, 2] }],
    ['newer first', { created: '2025-12-31T00:00:00Z' }, { created: '2026-01-01T00:00:00Z' }],
  ] as const)('%s', (_, later, earlier) => {
    expect(baseOrder([make('later', later), make('earlier', earlier)])).toEqual(['earlier', 'later']);
  });

  it('applies the rules in turn (earlier rules win)', () => {
    const pods = [
      make('old-ready', { created: '2025-01-01T00:00:00Z' }),
      make('restarting', { restarts: [5] }),
      make('fresh-ready', { readySince: '2026-01-01T00:30:00Z' }),
      make('running-unready', { ready: false, restarts: [9] }),
      make('unknown', { phase: 'Unknown', ready: false }),
      make('pending', { phase: 'Pending', ready: false }),
      make('unscheduled', { node: '', phase: 'Running', ready: true }),
    ];
    expect(baseOrder(pods)).toEqual([
      'unscheduled',
      'pending',
      'unknown',
      'running-unready',
      'fresh-ready',
      'restarting',
      'old-ready',
    ]);
  });

  it('keeps the input order of pods equal under every rule (Go sorts unstably here)', () => {
    const pods = ['x', 'y', 'z', 'w'].map((name) => make(name, { node: `node-${name}` }));
    expect(baseOrder(pods)).toEqual(['x', 'y', 'z', 'w']);
    expect(baseOrder([...pods].reverse())).toEqual(['w', 'z', 'y', 'x']);
  });

  it('matches OpenKruise cloneset_update_test.go TestSortUpdateIndexes', () => {
    // Candidates 0, 1, 3, 4 of five bare pods (no node, no creation time); pod 2 is not a candidate.
    const readyCondition = [{ type: 'Ready', status: 'True' }];
    const pods: Pod[] = [
      { metadata: { name: '0' }, status: { phase: 'Pending', conditions: readyCondition } },
      { metadata: { name: '1' }, status: { phase: 'Pending' } },
      { metadata: { name: '2' }, status: { phase: 'Pending' } },
      { metadata: { name: '3' }, status: { phase: 'Running', conditions: readyCondition } },
      { metadata: { name: '4' }, status: { phase: 'Running' } },
    ];
    const candidates = [pods[0], pods[1], pods[3], pods[4]].filter((p) => p !== undefined);
    expect(names(sortUpdateCandidates(candidates, { allPods: pods, isPreparingUpdate }))).toEqual(['1', '0', '4', '3']);
  });
});

describe('sortUpdateCandidates: strategies and PreparingUpdate', () => {
  it('applies the priority after the base order; equal priorities keep the base order', () => {
    const pods = [
      make('old-a', { created: '2025-01-01T00:00:00Z', labels: { tier: 'a' } }),
      make('new-b', { created: '2025-12-01T00:00:00Z', labels: { tier: 'b' } }),
      make('new-a', { created: '2025-12-01T00:00:00Z', labels: { tier: 'a' } }),
      make('unready-b', { ready: false, labels: { tier: 'b' } }),
    ];
    const order = sortUpdateCandidates(pods, {
      priorityStrategy: { weightPriority: [{ weight: 10, matchSelector: { matchLabels: { tier: 'a' } } }] },
      allPods: pods,
      isPreparingUpdate,
    });
    expect(names(order)).toEqual(['new-a', 'old-a', 'unready-b', 'new-b']);
  });

  it('applies the order priority with its quirk: pods without the key before those with it', () => {
    const pods = [
      make('sts-1', { labels: { ord: 'sts-1' } }),
      make('plain'),
      make('sts-10', { labels: { ord: 'sts-10' } }),
    ];
    const order = sortUpdateCandidates(pods, {
      priorityStrategy: { orderPriority: [{ orderedKey: 'ord' }] },
      allPods: pods,
      isPreparingUpdate,
    });
    expect(names(order)).toEqual(['plain', 'sts-10', 'sts-1']);
  });

  it('scatters the seed example after the base order: the 3 labelled pods of 10 become the 1st, 6th and 10th', () => {
    const pods = Array.from({ length: 10 }, (_, index) =>
      make(`p${String(index)}`, {
        created: `2025-12-${String(10 + index)}T00:00:00Z`,
        ...(index % 3 === 0 && index > 0 ? { labels: { foo: 'bar' } } : {}),
      }),
    );
    const order = sortUpdateCandidates(pods, {
      scatterStrategy: [{ key: 'foo', value: 'bar' }],
      allPods: pods,
      isPreparingUpdate,
    });
    // Base order: newest first (p9 … p0); labelled p9, p6, p3.
    expect(names(order)).toEqual(['p9', 'p8', 'p7', 'p5', 'p4', 'p6', 'p2', 'p1', 'p0', 'p3']);
  });

  it('scatters with totals over all pods, not only the candidates', () => {
    const candidates = [
      make('m1', { labels: { foo: 'bar' } }),
      make('u1'),
      make('u2'),
      make('u3'),
      make('u4'),
      make('m2', { labels: { foo: 'bar' } }),
    ];
    const moreMatched = ['x', 'y', 'z'].map((name) => make(name, { labels: { foo: 'bar' } }));
    const options = { scatterStrategy: [{ key: 'foo', value: 'bar' }], isPreparingUpdate };
    expect(names(sortUpdateCandidates(candidates, { ...options, allPods: candidates }))).toEqual([
      'm1',
      'u1',
      'u2',
      'u3',
      'u4',
      'm2',
    ]);
    expect(names(sortUpdateCandidates(candidates, { ...options, allPods: [...candidates, ...moreMatched] }))).toEqual([
      'u1',
      'u2',
      'u3',
      'm1',
      'u4',
      'm2',
    ]);
  });

  it('moves PreparingUpdate pods to the front, stably, after every other step', () => {
    const preparing = { [STATE_LABEL]: 'PreparingUpdate' };
    const pods = [
      make('prep-old', { created: '2025-01-01T00:00:00Z', labels: preparing }),
      make('heavy', { labels: { tier: 'a' } }),
      make('unready', { ready: false }),
      make('prep-unready', { ready: false, labels: preparing }),
      make('normal', { labels: { [STATE_LABEL]: 'Normal' } }),
    ];
    const order = sortUpdateCandidates(pods, {
      priorityStrategy: { weightPriority: [{ weight: 1, matchSelector: { matchLabels: { tier: 'a' } } }] },
      allPods: pods,
      isPreparingUpdate,
    });
    expect(names(order)).toEqual(['prep-unready', 'prep-old', 'heavy', 'unready', 'normal']);
  });

  it('accepts now and returns a new array without touching the input', () => {
    const pods = Object.freeze([make('b', { ready: true }), make('a', { ready: false })]);
    const order = sortUpdateCandidates(pods, { allPods: pods, isPreparingUpdate, now: Date.now() });
    expect(names(order)).toEqual(['a', 'b']);
    expect(names(pods)).toEqual(['b', 'a']);
    expect(sortUpdateCandidates([], { allPods: [], isPreparingUpdate })).toEqual([]);
  });
});
