import { describe, expect, it } from 'vitest';

import {
  currentRevisionFor,
  equalRevision,
  liveRevisionNames,
  nextRevisionNumber,
  planUpdateRevision,
  revisionsToTruncate,
  sortRevisions,
} from './revision-history.ts';
import type { RevisionLike } from './revision-history.ts';

interface TestRevision extends RevisionLike {
  readonly metadata: { readonly name: string; readonly creationTimestamp?: string };
}

const rev = (name: string, revision: number, extra: { data?: unknown; created?: string } = {}): TestRevision => ({
  metadata: extra.created === undefined ? { name } : { name, creationTimestamp: extra.created },
  revision,
  data: 'data' in extra ? extra.data : { v: name },
});
const names = (revisions: readonly TestRevision[]): string[] => revisions.map((revision) => revision.metadata.name);

describe('sortRevisions', () => {
  it.each<[string, TestRevision[], string[]]>([
    ['by revision number', [rev('c', 3), rev('a', 1), rev('b', 2)], ['a', 'b', 'c']],
    [
      'ties by older creationTimestamp',
      [rev('x', 1, { created: '2024-01-02T00:00:00Z' }), rev('y', 1, { created: '2024-01-01T00:00:00Z' })],
      ['y', 'x'],
    ],
    ['a missing timestamp is oldest', [rev('x', 1, { created: '2024-01-01T00:00:00Z' }), rev('y', 1)], ['y', 'x']],
    [
      'then by name',
      [rev('b', 1, { created: '2024-01-01T00:00:00Z' }), rev('a', 1, { created: '2024-01-01T00:00:00Z' })],
      ['a', 'b'],
    ],
  ])('%s', (_name, input, expected) => {
    const before = names(input);
    expect(names(sortRevisions(input))).toEqual(expected);
    expect(names(input)).toEqual(before);
  });
});

describe('nextRevisionNumber', () => {
  it.each<[number[], number]>([
    [[], 1],
    [[1], 2],
    [[1, 5, 3], 6],
  ])('%j → %d', (numbers, expected) => {
    expect(nextRevisionNumber(numbers.map((revision, index) => rev(String(index), revision)))).toBe(expected);
  });
});

describe('equalRevision', () => {
  it.each<{ name: string; data: unknown; candidate: string; expected: boolean }>([
    {
      name: 'same data re-serialised the Go way',
      data: { b: '<', a: 1 },
      candidate: '{"a":1,"b":"\\u003c"}',
      expected: true,
    },
    { name: 'other data', data: { a: 2 }, candidate: '{"a":1}', expected: false },
    {
      name: 'other key order in the candidate text',
      data: { a: 1, b: 2 },
      candidate: '{"b":2,"a":1}',
      expected: false,
    },
    { name: 'no data', data: undefined, candidate: 'null', expected: false },
  ])('$name', ({ data, candidate, expected }) => {
    expect(equalRevision(rev('r', 1, { data }), candidate)).toBe(expected);
  });
});

describe('planUpdateRevision', () => {
  const A = '{"v":"A"}';
  const B = '{"v":"B"}';
  const [r1, r2, r3] = [
    rev('r1', 1, { data: { v: 'A' } }),
    rev('r2', 2, { data: { v: 'B' } }),
    rev('r3', 3, { data: { v: 'C' } }),
  ];
  const o2 = rev('o2', 2, { data: { v: 'A' } });

  it.each<{ name: string; revisions: TestRevision[]; candidate: string; expected: unknown }>([
    {
      name: 'empty history: create revision 1',
      revisions: [],
      candidate: A,
      expected: { kind: 'create', nextRevision: 1 },
    },
    {
      name: 'the latest is equal: use it',
      revisions: [r1, r2],
      candidate: B,
      expected: { kind: 'existing-latest', revision: r2 },
    },
    {
      name: 'an older one is equal: renumber it (rollback)',
      revisions: [r1, r2, r3],
      candidate: A,
      expected: { kind: 'reuse-older', revision: r1, nextRevision: 4 },
    },
    {
      name: 'the newest of several equal older ones is reused',
      revisions: [rev('o1', 1, { data: { v: 'A' } }), o2, r3],
      candidate: A,
      expected: { kind: 'reuse-older', revision: o2, nextRevision: 4 },
    },
    {
      name: 'nothing equal: create the next',
      revisions: [r1, r2, r3],
      candidate: '{"v":"D"}',
      expected: { kind: 'create', nextRevision: 4 },
    },
    {
      name: 'unsorted input is sorted first',
      revisions: [r3, r1, r2],
      candidate: '{"v":"C"}',
      expected: { kind: 'existing-latest', revision: r3 },
    },
  ])('$name', ({ revisions, candidate, expected }) => {
    expect(planUpdateRevision({ revisions, candidate })).toEqual(expected);
  });
});

describe('currentRevisionFor', () => {
  const revisions = [rev('r1', 1), rev('r2', 2)];
  const update = rev('r2', 2);

  it.each<[string, string | undefined, string]>([
    ['the revision named by status', 'r1', 'r1'],
    ['the update revision when status names none', undefined, 'r2'],
    ['the update revision when the named one is gone', 'r0', 'r2'],
  ])('%s', (_name, statusCurrentRevision, expected) => {
    expect(currentRevisionFor({ revisions, statusCurrentRevision, updateRevision: update }).metadata.name).toBe(
      expected,
    );
  });
});

describe('liveRevisionNames', () => {
  it('keeps current, update, and every revision a pod is at (full or short label)', () => {
    const revisions = [rev('cs-a', 1), rev('cs-b', 2), rev('cs-c', 3), rev('cs-d', 4), rev('cs-e', 5)];
    const pods = [
      { metadata: { labels: { 'controller-revision-hash': 'cs-b' } } },
      { metadata: { labels: { 'controller-revision-hash': 'c' } } },
      { metadata: {} },
    ];
    expect([...liveRevisionNames({ revisions, currentRevision: 'cs-d', updateRevision: 'cs-e', pods })].sort()).toEqual(
      ['cs-b', 'cs-c', 'cs-d', 'cs-e'],
    );
  });
});

describe('revisionsToTruncate', () => {
  const fourteen = Array.from({ length: 14 }, (_, index) => rev(`r${String(index + 1)}`, index + 1));

  it.each<{ name: string; live: Set<string>; limit: number | undefined; expected: string[] }>([
    {
      name: 'limit undefined means 10: 14 revisions, 2 live → the 2 oldest non-live',
      live: new Set(['r14', 'r13']),
      limit: undefined,
      expected: ['r1', 'r2'],
    },
    {
      name: 'live revisions are skipped, not counted',
      live: new Set(['r1', 'r14']),
      limit: 10,
      expected: ['r2', 'r3'],
    },
    {
      name: 'limit 0 deletes every non-live revision',
      live: new Set(['r14']),
      limit: 0,
      expected: names(fourteen.slice(0, 13)),
    },
    { name: 'under the limit nothing goes', live: new Set(['r14']), limit: 20, expected: [] },
    { name: 'a negative limit acts as 0', live: new Set(names(fourteen.slice(1))), limit: -3, expected: ['r1'] },
  ])('$name', ({ live, limit, expected }) => {
    expect(names(revisionsToTruncate({ revisions: [...fourteen].reverse(), live, limit }))).toEqual(expected);
  });
});
