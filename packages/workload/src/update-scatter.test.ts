import { describe, expect, it } from 'vitest';

import type { Pod, UpdateScatterStrategy } from '@kruise-ts/api';

import { names, pod } from '../test/fixtures/pods.ts';
import { scatterGroups, scatterSort, scatterTerms } from './update-scatter.ts';

type Labels = Record<string, string>;

/** Pods named "0", "1", … with the given labels. */
function indexed(labels: readonly Labels[]): Pod[] {
  return labels.map((podLabels, index) => pod({ name: String(index), labels: podLabels }));
}

/** "labelA=AAA,labelB=BBB" ⇒ labels; parts without "=" are ignored (as in the upstream test). */
function parseLabels(spec: string): Labels {
  return Object.fromEntries(
    spec
      .split(',')
      .map((part) => part.split('='))
      .filter((pair): pair is [string, string] => pair.length === 2),
  );
}

const termA: UpdateScatterStrategy = [{ key: 'labelA', value: 'AAA' }];
const termAB: UpdateScatterStrategy = [
  { key: 'labelA', value: 'AAA' },
  { key: 'labelB', value: 'BBB' },
];
const termABC: UpdateScatterStrategy = [...termAB, { key: 'labelC', value: 'CCC' }];

describe('scatterTerms (vectors of OpenKruise scatter_sort_test.go TestGenerateRules, and more)', () => {
  it('uses a single term as it is', () => {
    const pods = indexed([{}, {}, {}, {}, { labelA: 'AAA' }, { labelA: 'AAA' }]);
    expect(scatterTerms(termA, pods)).toEqual(termA);
    expect(scatterTerms([{ key: 'nobody', value: 'x' }], pods)).toEqual([{ key: 'nobody', value: 'x' }]);
  });

  it('keeps the spec order for equal counts', () => {
    const pods = indexed([{}, {}, { labelB: 'B' }, { labelB: 'BBB' }, { labelA: 'AAA' }, { labelA: 'AAA' }]);
    expect(scatterTerms(termAB, pods)).toEqual([
      { key: 'labelA', value: 'AAA' },
      { key: 'labelB', value: 'BBB' },
    ]);
  });

  it('orders several terms by how many candidates carry each, most first, and drops terms nobody carries', () => {
    const pods = indexed([
      { labelA: 'AAA' },
      { labelB: 'BBB' },
      { labelB: 'BBB' },
      { labelC: 'CCC' },
      { labelC: 'CCC' },
      { labelC: 'CCC' },
    ]);
    expect(scatterTerms([...termAB, { key: 'labelC', value: 'CCC' }, { key: 'labelD', value: 'DDD' }], pods)).toEqual([
      { key: 'labelC', value: 'CCC' },
      { key: 'labelB', value: 'BBB' },
      { key: 'labelA', value: 'AAA' },
    ]);
  });

  it('counts only pods that carry the label, even for the value ""', () => {
    const pods = indexed([{ labelA: '' }, {}, {}]);
    expect(scatterTerms([{ key: 'labelA', value: '' }, ...termAB], pods)).toEqual([{ key: 'labelA', value: '' }]);
  });
});

describe('one term (vectors of OpenKruise scatter_sort_test.go TestScatterPodsByRule)', () => {
  it.each([
    ['no label', [''], [0]],
    ['only one scattered pod', ['labelA=AAA'], [0]],
    ['odd scattered pod + odd ordinary pod', ['labelA=AAA', 'bbb'], [0, 1]],
    ['even scattered pods + even ordinary pods', ['', '', '', '', 'labelA=AAA', 'labelA=AAA'], [4, 0, 1, 2, 3, 5]],
    [
      'odd scattered pods + odd ordinary pods',
      ['', '', '', 'labelA=AAA', 'labelA=AAA', 'labelA=AAA'],
      [3, 0, 1, 4, 2, 5],
    ],
    [
      'even scattered pods + odd ordinary pods',
      ['', '', '', 'labelA=AAA', '', '', 'labelA=AAA'],
      [3, 0, 1, 2, 4, 5, 6],
    ],
    [
      'odd scattered pods + even ordinary pods',
      ['', '', '', '', '', '', 'labelA=AAA', 'labelA=AAA', 'labelA=AAA'],
      [6, 0, 1, 2, 7, 3, 4, 5, 8],
    ],
    [
      'even scattered + even ordinary, more scattered',
      ['', '', 'labelA=AAA', 'labelA=AAA', 'labelA=AAA', 'labelA=AAA'],
      [2, 3, 0, 4, 1, 5],
    ],
    [
      'odd scattered + odd ordinary, more scattered',
      ['', '', '', 'labelA=AAA', 'labelA=AAA', 'labelA=AAA', 'labelA=AAA', 'labelA=AAA'],
      [3, 0, 1, 4, 2, 5],
    ],
    [
      'even scattered + odd ordinary, more scattered',
      ['', '', 'labelA=AAA', '', 'labelA=AAA', 'labelA=AAA', 'labelA=AAA', 'labelA=AAA', 'labelA=AAA'],
      [2, 4, 0, 5, 6, 1, 7, 3, 8],
    ],
    [
      'odd scattered + even ordinary, more scattered',
      ['', 'labelA=AAA', '', 'labelA=AAA', '', '', 'labelA=AAA', 'labelA=AAA', 'labelA=AAA'],
      [1, 0, 3, 2, 6, 4, 7, 5, 8],
    ],
    [
      'labels without "=" and a second label',
      ['', '', '', '', 'ee', 'a', '', 'labelA=AAA', 'labelA=AAA', 'labelA=AAA,labelB=BBB'],
      [7, 0, 1, 2, 3, 8, 4, 5, 6, 9],
    ],
  ] as const)('%s', (_, specs, expected) => {
    // As upstream, only as many pods as expected indexes are built (one vector lists more labels).
    const pods = indexed(specs.slice(0, expected.length).map(parseLabels));
    expect(names(scatterSort(pods, { strategy: termA, allPods: pods }))).toEqual(expected.map(String));
  });
});

describe('scatterSort (vectors of OpenKruise scatter_sort_test.go TestSort)', () => {
  // Go builds the candidates from the first entries (null: no pod, as a missing ordinal) until there are
  // as many as expected; the remaining entries are pods of the workload that are not candidates.
  it.for([
    ['a single candidate', [{ labelA: 'AAA', labelB: 'BBB' }], termA, [0]],
    ['no terms', [{}, {}, {}, {}, {}, {}], [], [0, 1, 2, 3, 4, 5]],
    ['one term', [{}, {}, {}, {}, { labelA: 'AAA' }, { labelA: 'AAA' }], termA, [4, 0, 1, 2, 3, 5]],
    [
      'one term, other labels around',
      [
        {},
        {},
        {},
        {},
        { sdfb: 'eee' },
        { dsf: 'same' },
        { labelB: 'BBB' },
        { labelA: 'AAA' },
        { labelA: 'AAA' },
        { labelA: 'AAA', labelB: 'BBB' },
      ],
      [{ key: 'labelB', value: 'BBB' }],
      [6, 0, 1, 2, 3, 4, 5, 7, 8, 9],
    ],
    [
      '2 terms, one label per pod',
      [{ labelB: 'BBB' }, { labelB: 'BBB' }, {}, {}, { labelA: 'AAA' }, { labelA: 'AAA' }],
      termAB,
      [0, 4, 2, 3, 5, 1],
    ],
    [
      '2 terms, a pod with both',
      [{}, {}, {}, { labelB: 'BBB' }, { labelA: 'AAA', labelB: 'BBB' }, { labelA: 'AAA' }],
      termAB,
      [4, 0, 1, 2, 5, 3],
    ],
    [
      '2 terms of equal count, spec order B, A',
      [
        {},
        {},
        {},
        {},
        { sdfb: 'eee' },
        { dsf: 'same' },
        { labelB: 'BBB' },
        { labelA: 'AAA' },
        { labelA: 'AAA' },
        { labelB: 'BBB' },
      ],
      [
        { key: 'labelB', value: 'BBB' },
        { key: 'labelA', value: 'AAA' },
      ],
      [7, 6, 0, 1, 2, 3, 4, 5, 9, 8],
    ],
    [
      '2 terms of equal count, spec order A, B',
      [
        {},
        {},
        {},
        {},
        { sdfb: 'eee' },
        { dsf: 'same' },
        { labelB: 'BBB' },
        { labelA: 'AAA' },
        { labelA: 'AAA' },
        { labelB: 'BBB' },
      ],
      termAB,
      [6, 7, 0, 1, 2, 3, 4, 5, 8, 9],
    ],
    [
      '2 terms on the same pods, even + even',
      [
        {},
        {},
        {},
        {},
        { sdfb: 'eee' },
        { dsf: 'same' },
        { labelA: 'AAA', labelB: 'BBB' },
        {},
        {},
        { labelB: 'BBB', labelA: 'AAA' },
      ],
      termAB,
      [6, 0, 1, 2, 3, 4, 5, 7, 8, 9],
    ],
    [
      '2 terms on the same pods, even + odd',
      [
        {},
        {},
        {},
        { sdfb: 'eee' },
        { dsf: 'same' },
        { labelA: 'AAA', labelB: 'BBB' },
        {},
        {},
        { labelB: 'BBB', labelA: 'AAA' },
      ],
      termAB,
      [5, 0, 1, 2, 3, 4, 6, 7, 8],
    ],
    [
      '2 terms, odd + odd, a matched pod outside the candidates',
      [{}, {}, {}, { labelA: 'AAA' }, { sdfb: 'eee' }, { dsf: 'same' }, { labelA: 'AAA', labelB: 'BBB' }, {}, {}, {}],
      termAB,
      [3, 0, 1, 2, 4, 5, 7, 6],
    ],
    [
      '2 terms, odd + odd, several pods outside the candidates',
      [
        {},
        {},
        {},
        { labelA: 'AAA' },
        {},
        {},
        { sdfb: 'eee' },
        { dsf: 'same' },
        { labelA: 'AAA', labelB: 'BBB' },
        {},
        {},
        { labelB: 'BBB', labelA: 'AAA' },
      ],
      termAB,
      [0, 1, 2, 4, 3, 5, 6, 7, 9, 10, 8],
    ],
    [
      '2 terms, even + even, more scattered',
      [
        {},
        {},
        {},
        { labelA: 'AAA' },
        { sdfb: 'eee', labelA: 'AAA' },
        { dsf: 'same' },
        { labelA: 'AAA', labelB: 'BBB' },
        {},
        {},
        { labelB: 'BBB', labelA: 'AAA' },
      ],
      termAB,
      [6, 3, 0, 1, 4, 2, 5, 7, 8, 9],
    ],
    [
      '2 terms, even + odd, more scattered',
      [
        {},
        { labelA: 'AAA' },
        { labelA: 'AAA' },
        { sdfb: 'eee' },
        { dsf: 'same' },
        { labelA: 'AAA', labelB: 'BBB' },
        {},
        {},
        { labelB: 'BBB', labelA: 'AAA' },
      ],
      termAB,
      [5, 1, 0, 3, 2, 4, 6, 7, 8],
    ],
    [
      '2 terms, odd + odd, more scattered',
      [
        { labelA: 'AAA' },
        {},
        {},
        { labelA: 'AAA' },
        { sdfb: 'eee', labelA: 'AAA' },
        { dsf: 'same' },
        { labelA: 'AAA', labelB: 'BBB' },
        {},
        {},
        { labelB: 'BBB', labelA: 'AAA' },
      ],
      termAB,
      [1, 0, 2, 3, 5, 4, 7, 6],
    ],
    [
      '2 terms, odd + odd, more scattered, pods outside the candidates',
      [
        {},
        {},
        { labelA: 'AAA' },
        { labelA: 'AAA' },
        {},
        { labelA: 'AAA' },
        { sdfb: 'eee' },
        { dsf: 'same' },
        { labelA: 'AAA', labelB: 'BBB' },
        {},
        {},
        { labelB: 'BBB', labelA: 'AAA' },
      ],
      termAB,
      [0, 2, 1, 4, 3, 6, 7, 5, 9, 10, 8],
    ],
    [
      '3 terms, one label per pod',
      [
        {},
        { labelA: 'AAA' },
        { labelA: 'AAA' },
        { labelB: 'BBB' },
        { labelB: 'BBB' },
        { labelC: 'CCC' },
        { labelC: 'CCC' },
        { labelC: 'CCC' },
        { labelC: 'CCC' },
        { labelC: 'CCC' },
      ],
      termABC,
      [3, 1, 5, 0, 6, 7, 8, 9, 2, 4],
    ],
    [
      '3 terms, pods with several labels',
      [
        {},
        { labelA: 'AAA' },
        { labelA: 'AAA', labelC: 'CCC' },
        { labelB: 'BBB', labelC: 'CCC' },
        { labelB: 'BBB' },
        {},
        {},
        { labelC: 'CCC' },
        { labelC: 'CCC' },
        { labelC: 'CCC' },
      ],
      termABC,
      [3, 2, 0, 7, 8, 5, 6, 9, 1, 4],
    ],
    [
      'continuous sort 1',
      [{}, {}, {}, {}, { labelA: 'AAA' }, { labelA: 'AAA' }, { labelA: 'AAA' }],
      termA,
      [0, 1, 4, 2, 3, 5],
    ],
    [
      'continuous sort 2',
      [{ labelA: 'AAA' }, { labelA: 'AAA' }, {}, {}, {}, {}, {}, {}, {}, { labelA: 'AAA' }],
      termA,
      [2, 0, 3, 4, 5, 6, 1],
    ],
    [
      'a missing pod (null) in the list',
      [
        {},
        { labelA: 'AAA' },
        { labelA: 'AAA', labelC: 'CCC' },
        { labelB: 'BBB', labelC: 'CCC' },
        { labelB: 'BBB' },
        null,
        {},
        {},
        { labelC: 'CCC' },
        { labelC: 'CCC' },
        { labelC: 'CCC' },
      ],
      termABC,
      [3, 2, 0, 8, 9, 6, 7, 10, 1, 4],
    ],
  ] as const)('%s', ([, labels, strategy, expected]) => {
    const entries = labels.map((podLabels, index) =>
      podLabels === null ? undefined : pod({ name: String(index), labels: { ...podLabels } }),
    );
    const allPods = entries.filter((entry) => entry !== undefined);
    const candidates = allPods.slice(0, expected.length);
    expect(names(scatterSort(candidates, { strategy, allPods }))).toEqual(expected.map(String));
  });
});

describe('scatterSort: the rules', () => {
  it('scatters the seed example: 10 pods, 3 labelled foo=bar ⇒ updated 1st, 6th and 10th', () => {
    const foo: UpdateScatterStrategy = [{ key: 'foo', value: 'bar' }];
    for (const labelledAt of [
      [0, 1, 2],
      [7, 8, 9],
      [1, 4, 8],
    ]) {
      const pods = indexed(
        Array.from({ length: 10 }, (_, index): Labels => (labelledAt.includes(index) ? { foo: 'bar' } : {})),
      );
      const order = scatterSort(pods, { strategy: foo, allPods: pods });
      const positions = order.flatMap((p, index) => (p.metadata?.labels?.['foo'] === 'bar' ? [index + 1] : []));
      expect(positions).toEqual([1, 6, 10]);
      expect(names(order).sort()).toEqual(names(pods).sort());
    }
  });

  it('leaves the order unchanged with at most one matched or at most one unmatched candidate', () => {
    const oneMatched = indexed([{}, { labelA: 'AAA' }, {}, {}]);
    expect(names(scatterSort(oneMatched, { strategy: termA, allPods: oneMatched }))).toEqual(['0', '1', '2', '3']);
    const oneUnmatched = indexed([{ labelA: 'AAA' }, { labelA: 'AAA' }, {}, { labelA: 'AAA' }]);
    expect(names(scatterSort(oneUnmatched, { strategy: termA, allPods: oneUnmatched }))).toEqual(['0', '1', '2', '3']);
  });

  it('always puts the last matched candidate at the very end', () => {
    const pods = indexed([{ labelA: 'AAA' }, { labelA: 'AAA' }, { labelA: 'AAA' }, {}, {}, {}, {}]);
    const order = names(scatterSort(pods, { strategy: termA, allPods: pods }));
    expect(order.at(-1)).toBe('2');
  });

  it('counts the totals over all pods, not only the candidates', () => {
    // Candidates: 2 matched, 4 unmatched. With 6 more unmatched pods in the workload, unmatched pods are
    // denser overall than among the candidates, so the candidates are grouped among themselves: one
    // group M U U U U, then the held-back M.
    const candidates = indexed([{ labelA: 'AAA' }, {}, {}, {}, {}, { labelA: 'AAA' }]);
    const others = Array.from({ length: 6 }, (_, index) => pod({ name: `other-${String(index)}` }));
    expect(names(scatterSort(candidates, { strategy: termA, allPods: [...candidates, ...others] }))).toEqual([
      '0',
      '1',
      '2',
      '3',
      '4',
      '5',
    ]);
    // With 3 more matched pods in the workload the totals are 4 matched / 4 unmatched (sizes 1 and 1):
    // 1 group of M U, then the 3 remaining unmatched go first.
    const matchedOthers = Array.from({ length: 3 }, (_, index) =>
      pod({ name: `m-${String(index)}`, labels: { labelA: 'AAA' } }),
    );
    expect(names(scatterSort(candidates, { strategy: termA, allPods: [...candidates, ...matchedOthers] }))).toEqual([
      '1',
      '2',
      '3',
      '0',
      '4',
      '5',
    ]);
  });

  it('matches pods lacking the key for a term with value "" (a missing label reads as "")', () => {
    const pods = indexed([{ labelA: 'x' }, { labelA: 'x' }, {}, {}, { labelA: 'x' }]);
    expect(names(scatterSort(pods, { strategy: [{ key: 'labelA', value: '' }], allPods: pods }))).toEqual([
      '2',
      '0',
      '1',
      '4',
      '3',
    ]);
  });

  it('returns a new array and leaves the input alone', () => {
    const pods = Object.freeze(indexed([{}, {}, {}, {}, { labelA: 'AAA' }, { labelA: 'AAA' }]));
    const sorted = scatterSort(pods, { strategy: termA, allPods: pods });
    expect(names(sorted)).toEqual(['4', '0', '1', '2', '3', '5']);
    expect(names(pods)).toEqual(['0', '1', '2', '3', '4', '5']);
    expect(scatterSort(pods, { strategy: undefined, allPods: pods })).not.toBe(pods);
  });
});

describe('scatterGroups', () => {
  it.for([
    [
      'even groups of the candidates when unmatched are as dense overall (2/7 vs 2/7)',
      [2, 7],
      [2, 7],
      { groups: 2, matchedSize: 1, unmatchedSize: 4, unmatchedRemainder: 0 },
    ],
    [
      'even groups of the candidates when unmatched are denser overall (1/9 vs 3/3)',
      [1, 9],
      [3, 3],
      { groups: 3, matchedSize: 1, unmatchedSize: 1, unmatchedRemainder: 0 },
    ],
    [
      'sizes from the totals when the candidates hold more unmatched (2/7 vs 1/5)',
      [2, 7],
      [1, 5],
      { groups: 1, matchedSize: 1, unmatchedSize: 4, unmatchedRemainder: 1 },
    ],
    [
      'sizes from the totals, groups limited by the matched (4/4 vs 1/3)',
      [4, 4],
      [1, 3],
      { groups: 1, matchedSize: 1, unmatchedSize: 1, unmatchedRemainder: 2 },
    ],
    [
      'sizes from the totals, groups limited by the unmatched (4/10 vs 3/8)',
      [4, 10],
      [3, 8],
      { groups: 2, matchedSize: 1, unmatchedSize: 3, unmatchedRemainder: 2 },
    ],
    [
      'sizes from the totals, matched groups of 3 (6/2 vs 5/2)',
      [6, 2],
      [5, 2],
      { groups: 1, matchedSize: 3, unmatchedSize: 1, unmatchedRemainder: 1 },
    ],
    [
      'rounds halves up (5/2 = 2.5 ⇒ 3)',
      [2, 5],
      [2, 5],
      { groups: 2, matchedSize: 1, unmatchedSize: 3, unmatchedRemainder: 0 },
    ],
  ] as const)('%s', ([, [totalMatched, totalUnmatched], [updateMatched, updateUnmatched], expected]) => {
    expect(
      scatterGroups(
        { matched: totalMatched, unmatched: totalUnmatched },
        { matched: updateMatched, unmatched: updateUnmatched },
      ),
    ).toEqual(expected);
  });
});
