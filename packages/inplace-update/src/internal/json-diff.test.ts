import { describe, expect, it } from 'vitest';

import { describePath, diffJson } from './json-diff.ts';
import type { DiffOperation } from './json-diff.ts';

describe('diffJson', () => {
  it.each<readonly [string, unknown, unknown, DiffOperation[]]>([
    ['equal documents', { a: [1, { b: 'x' }] }, { a: [1, { b: 'x' }] }, []],
    ['a changed scalar', { a: { b: 1 } }, { a: { b: 2 } }, [{ op: 'replace', path: ['a', 'b'], value: 2 }]],
    ['an added key', { a: {} }, { a: { b: 'x' } }, [{ op: 'add', path: ['a', 'b'], value: 'x' }]],
    ['a removed key', { a: { b: 'x' } }, { a: {} }, [{ op: 'remove', path: ['a', 'b'] }]],
    ['null to a value is an add', { a: null }, { a: { b: 1 } }, [{ op: 'add', path: ['a'], value: { b: 1 } }]],
    ['a value to null is a replace', { a: 'x' }, { a: null }, [{ op: 'replace', path: ['a'], value: null }]],
    ['null to null', { a: null }, { a: null }, []],
    ['a changed type', { a: 'x' }, { a: ['x'] }, [{ op: 'replace', path: ['a'], value: ['x'] }]],
    [
      'arrays element by element',
      { a: [{ n: 1 }, { n: 2 }] },
      { a: [{ n: 1 }, { n: 3 }] },
      [{ op: 'replace', path: ['a', 1, 'n'], value: 3 }],
    ],
    [
      'a longer array',
      { a: [{ n: 1 }] },
      { a: [{ n: 2 }, { n: 3 }] },
      [
        { op: 'add', path: ['a', 1], value: { n: 3 } },
        { op: 'replace', path: ['a', 0, 'n'], value: 2 },
      ],
    ],
    [
      'a shorter array removes from the end',
      { a: [1, 2, 3] },
      { a: [1] },
      [
        { op: 'remove', path: ['a', 2] },
        { op: 'remove', path: ['a', 1] },
      ],
    ],
  ])('%s', (...testCase) => {
    const [, from, to, expected] = testCase;
    expect(diffJson(from, to)).toEqual(expected);
  });
});

describe('describePath', () => {
  it.each<[(string | number)[], string]>([
    [['spec', 'containers', 0, 'env'], 'spec.containers[0].env'],
    [['metadata', 'labels', 'a/b'], 'metadata.labels.a/b'],
    [[], ''],
  ])('%j → %s', (path, expected) => {
    expect(describePath(path)).toBe(expected);
  });
});
