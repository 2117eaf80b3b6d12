import { describe, expect, it } from 'vitest';

import type { Pod, UpdatePriorityStrategy, UpdatePriorityWeightTerm } from '@kruise-ts/api';

import { names, pod } from '../test/fixtures/pods.ts';
import {
  priorityComparator,
  priorityOrder,
  priorityWeight,
  sortByPriority,
  trailingInteger,
} from './update-priority.ts';

function labelled(name: string, labels: Record<string, string> = {}): Pod {
  return pod({ name, labels });
}

const fooBar: UpdatePriorityStrategy = {
  weightPriority: [
    { weight: 20, matchSelector: { matchLabels: { key: 'foo' } } },
    { weight: 10, matchSelector: { matchLabels: { key: 'bar' } } },
  ],
};
const threeKeys = (third: number): UpdatePriorityStrategy => ({
  weightPriority: [
    { weight: 20, matchSelector: { matchLabels: { key1: 'foo' } } },
    { weight: 10, matchSelector: { matchLabels: { key2: 'bar' } } },
    { weight: third, matchSelector: { matchLabels: { key3: 'baz' } } },
  ],
});
const key1Key2: UpdatePriorityStrategy = { orderPriority: [{ orderedKey: 'key1' }, { orderedKey: 'key2' }] };

describe('priorityComparator (vectors of OpenKruise priority_sort_test.go TestCompare)', () => {
  // sign: −1 = a is updated first, 1 = b first, 0 = equal (the stable sort keeps the input order).
  it.for([
    ['weight: neither matches', fooBar, {}, {}, 0],
    ['weight: both match the same term', fooBar, { key: 'foo' }, { key: 'foo' }, 0],
    ['weight: 10 after 20', fooBar, { key: 'bar' }, { key: 'foo' }, 1],
    ['weight: 0 after 10', fooBar, {}, { key: 'bar' }, 1],
    ['weight: 0 after 20', fooBar, {}, { key: 'foo' }, 1],
    [
      'weight: sums the matching terms (20 after 10 + 15)',
      threeKeys(15),
      { key1: 'foo' },
      { key2: 'bar', key3: 'baz' },
      1,
    ],
    [
      'weight: sums the matching terms (10 + 5 after 20)',
      threeKeys(5),
      { key2: 'bar', key3: 'baz' },
      { key1: 'foo' },
      1,
    ],
    ['order: neither has a key', key1Key2, {}, {}, 0],
    ['order: higher number first (10 before 5)', key1Key2, { key1: 'o-10' }, { key1: 'o-5' }, -1],
    ['order: equal numbers', key1Key2, { key1: 'o-10' }, { key1: 'o-10' }, 0],
    ['order: 10 after 20', key1Key2, { key1: 'o-10' }, { key1: 'o-20' }, 1],
    ['order: level 1 after level 0 whatever the number', key1Key2, { key2: 'o-20' }, { key1: 'o-10' }, 1],
    ['order: same level 1, higher number first', key1Key2, { key2: 'o-20' }, { key2: 'o-10' }, -1],
  ] as const)('%s', ([, strategy, a, b, sign]) => {
    const compare = priorityComparator(strategy);
    expect(compare).toBeDefined();
    expect(Math.sign(compare?.(labelled('a', a), labelled('b', b)) ?? Number.NaN)).toBe(sign);
  });

  it('is undefined for a strategy without terms', () => {
    expect(priorityComparator(undefined)).toBeUndefined();
    expect(priorityComparator({})).toBeUndefined();
    expect(priorityComparator({ weightPriority: [], orderPriority: [] })).toBeUndefined();
  });

  it('uses the weights when both kinds are set (the API forbids it; upstream does the same)', () => {
    const both: UpdatePriorityStrategy = {
      ...key1Key2,
      weightPriority: [{ weight: 1, matchSelector: { matchLabels: { w: 'x' } } }],
    };
    const compare = priorityComparator(both);
    expect(compare?.(labelled('a', { w: 'x' }), labelled('b', { key1: '99' }))).toBeLessThan(0);
  });

  it('keeps the quirk: pods lacking every orderedKey come before pods having the first key', () => {
    const compare = priorityComparator(key1Key2);
    expect(compare?.(labelled('none'), labelled('first', { key1: '100' }))).toBeLessThan(0);
    expect(compare?.(labelled('none'), labelled('second', { key2: '100' }))).toBeLessThan(0);
  });
});

describe('priorityWeight', () => {
  const terms: UpdatePriorityWeightTerm[] = [
    { weight: 50, matchSelector: { matchLabels: { tier: 'web' } } },
    { weight: 30, matchSelector: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a', 'b'] }] } },
    // An operator the schema rejects, as an object that bypassed validation could carry.
    { weight: 7, matchSelector: { matchExpressions: [{ key: 'zone', operator: 'Bogus' as 'In', values: ['a'] }] } },
    { weight: 3, matchSelector: { matchExpressions: [{ key: 'canary', operator: 'DoesNotExist' }] } },
  ];

  it.each([
    ['no term matches (canary set)', { canary: 'y' }, 0],
    ['only DoesNotExist matches', {}, 3],
    ['matchLabels and DoesNotExist', { tier: 'web' }, 53],
    ['all valid terms', { tier: 'web', zone: 'b' }, 83],
    ['the invalid selector (unknown operator) is skipped', { tier: 'web', zone: 'a', canary: 'y' }, 80],
  ] as const)('%s', (_, labels, weight) => {
    expect(priorityWeight(labelled('p', labels), terms)).toBe(weight);
  });

  it('counts an empty selector as matching every pod', () => {
    expect(priorityWeight(labelled('p'), [{ weight: 4, matchSelector: {} }])).toBe(4);
  });

  it('reads pods without labels as having none', () => {
    const bare: Pod = { metadata: { name: 'bare' } };
    expect(priorityWeight(bare, terms)).toBe(3);
  });
});

describe('priorityOrder and trailingInteger', () => {
  it.each([
    ['sts-10', 10n],
    ['5', 5n],
    ['o-007', 7n],
    ['a1b', 0n],
    ['abc', 0n],
    ['', 0n],
    ['x-9223372036854775807', 9223372036854775807n],
    ['x-9223372036854775808', 0n],
    ['99999999999999999999', 0n],
    ['v1.2.30', 30n],
  ] as const)('trailingInteger(%j) = %s', (value, expected) => {
    expect(trailingInteger(value)).toBe(expected);
  });

  it('takes the level of the first term (in spec order) whose key the pod has', () => {
    const terms = [{ orderedKey: 'a' }, { orderedKey: 'b' }, { orderedKey: 'c' }];
    expect(priorityOrder(labelled('p', { c: 'x-3', b: 'y-2' }), terms)).toEqual({ level: 1, order: 2n });
    expect(priorityOrder(labelled('p', { c: 'x-3' }), terms)).toEqual({ level: 2, order: 3n });
    expect(priorityOrder(labelled('p', { a: 'none' }), terms)).toEqual({ level: 0, order: 0n });
    expect(priorityOrder(labelled('p', { d: '1' }), terms)).toEqual({ level: -1, order: 0n });
  });

  it('does not find inherited object keys', () => {
    expect(priorityOrder(labelled('p'), [{ orderedKey: 'constructor' }])).toEqual({ level: -1, order: 0n });
  });

  it('compares orders beyond 2^53 exactly', () => {
    const compare = priorityComparator({ orderPriority: [{ orderedKey: 'k' }] });
    expect(compare?.(labelled('a', { k: '9007199254740993' }), labelled('b', { k: '9007199254740992' }))).toBeLessThan(
      0,
    );
  });
});

describe('sortByPriority (vectors of OpenKruise priority_sort_test.go Test_prioritySort_Sort)', () => {
  const pods = [
    labelled('pod-0', { hello: 'world' }),
    labelled('pod-1'),
    labelled('pod-2', { foo: 'bar' }),
    labelled('pod-3'),
  ];

  it.each([
    ['empty priority strategy', {}, ['pod-0', 'pod-1', 'pod-2', 'pod-3']],
    [
      'weights reorder; pods matching nothing keep their order',
      {
        weightPriority: [
          { weight: 100, matchSelector: { matchLabels: { foo: 'bar' } } },
          { weight: 90, matchSelector: { matchLabels: { hello: 'world' } } },
        ],
      },
      ['pod-2', 'pod-0', 'pod-1', 'pod-3'],
    ],
    [
      'no pod matches any term: original order',
      {
        weightPriority: [
          { weight: 100, matchSelector: { matchLabels: { not: 'match' } } },
          { weight: 90, matchSelector: { matchLabels: { not1: 'match1' } } },
        ],
      },
      ['pod-0', 'pod-1', 'pod-2', 'pod-3'],
    ],
  ] as const)('%s', (_, strategy, expected) => {
    expect(names(sortByPriority(pods, strategy))).toEqual(expected);
  });

  it('orders by level, then by the trailing number, stably', () => {
    const input = [
      labelled('none-1'),
      labelled('k1-5', { key1: 'o-5' }),
      labelled('k2-20', { key2: 'o-20' }),
      labelled('k1-10', { key1: 'o-10' }),
      labelled('none-2'),
      labelled('k1-10b', { key1: 'p10' }),
    ];
    expect(names(sortByPriority(input, key1Key2))).toEqual(['none-1', 'none-2', 'k1-10', 'k1-10b', 'k1-5', 'k2-20']);
  });

  it('returns a new array and leaves the input alone', () => {
    const input = [labelled('a'), labelled('b', { key: 'foo' })];
    const frozen = Object.freeze([...input]);
    const sorted = sortByPriority(frozen, fooBar);
    expect(names(sorted)).toEqual(['b', 'a']);
    expect(names(frozen)).toEqual(['a', 'b']);
    expect(sortByPriority(frozen, undefined)).not.toBe(frozen);
  });
});
