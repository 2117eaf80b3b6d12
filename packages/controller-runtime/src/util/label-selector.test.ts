import { describe, expect, it } from 'vitest';

import { isEmptyLabelSelector, labelSelectorToString, matchesLabelSelector } from './label-selector.ts';
import type { LabelSelector } from './label-selector.ts';

describe('matchesLabelSelector', () => {
  const labels = { app: 'web', tier: 'front', version: 'v1' };
  it.each<[string, LabelSelector, boolean]>([
    ['empty selects all', {}, true],
    ['matchLabels equal', { matchLabels: { app: 'web' } }, true],
    ['matchLabels different', { matchLabels: { app: 'db' } }, false],
    ['In', { matchExpressions: [{ key: 'tier', operator: 'In', values: ['front', 'back'] }] }, true],
    ['In missing key', { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }, false],
    ['NotIn', { matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['back'] }] }, true],
    ['NotIn missing key matches', { matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['a'] }] }, true],
    ['Exists', { matchExpressions: [{ key: 'version', operator: 'Exists' }] }, true],
    ['DoesNotExist', { matchExpressions: [{ key: 'version', operator: 'DoesNotExist' }] }, false],
    ['unknown operator matches nothing', { matchExpressions: [{ key: 'app', operator: 'Gt', values: ['1'] }] }, false],
    [
      'all requirements ANDed',
      { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['back'] }] },
      false,
    ],
  ])('%s', (_, selector, expected) => {
    expect(matchesLabelSelector(selector, labels)).toBe(expected);
  });
});

describe('labelSelectorToString', () => {
  it.each<[LabelSelector, string]>([
    [{}, ''],
    [{ matchLabels: { b: '2', a: '1' } }, 'a=1,b=2'],
    [{ matchExpressions: [{ key: 'x', operator: 'In', values: ['b', 'a'] }] }, 'x in (a,b)'],
    [{ matchExpressions: [{ key: 'x', operator: 'NotIn', values: ['a', 'c'] }] }, 'x notin (a,c)'],
    [
      {
        matchExpressions: [
          { key: 'x', operator: 'Exists' },
          { key: 'w', operator: 'DoesNotExist' },
        ],
      },
      '!w,x',
    ],
    [{ matchLabels: { app: 'sample' } }, 'app=sample'],
  ])('%o -> %s', (selector, expected) => {
    expect(labelSelectorToString(selector)).toBe(expected);
  });

  it('rejects an unknown operator naming the key', () => {
    expect(() => labelSelectorToString({ matchExpressions: [{ key: 'k', operator: 'Gt' }] })).toThrow(
      'unknown label selector operator "Gt" for key k',
    );
  });

  it('knows an empty selector', () => {
    expect([
      isEmptyLabelSelector(undefined),
      isEmptyLabelSelector({}),
      isEmptyLabelSelector({ matchLabels: { a: 'b' } }),
    ]).toEqual([true, true, false]);
  });
});
