import { describe, expect, it } from 'vitest';

import { inRange, liveOrdinals, parseReserveOrdinals, podOrdinal, replicaRange } from './ordinals.ts';

describe('parseReserveOrdinals', () => {
  it.each([
    [
      [1, '3-4'],
      [1, 3, 4],
    ],
    [
      ['2', '5-5', 0],
      [0, 2, 5],
    ],
    [[], []],
    [undefined, []],
  ])('%j reserves %j', (entries, expected) => {
    const parsed = parseReserveOrdinals(entries);
    expect(parsed.kind).toBe('valid');
    expect([0, 1, 2, 3, 4, 5, 6].filter((ordinal) => parsed.reserved.has(ordinal))).toEqual(expected);
  });

  it.each([[['4-2']], [['a-b']], [[-1]], [[1, '3-x']], [[1.5]]])('%j is invalid', (entries) => {
    expect(parseReserveOrdinals(entries).kind).toBe('invalid');
  });

  it('keeps a huge range as an interval', () => {
    const parsed = parseReserveOrdinals(['0-1000000000']);
    expect(parsed.reserved.has(999_999_999)).toBe(true);
    expect(liveOrdinals(replicaRange({ replicas: 2, start: 0, reserved: parsed.reserved }))).toEqual([
      1_000_000_001, 1_000_000_002,
    ]);
  });
});

describe('replicaRange', () => {
  it.each([
    // replicas, start, reserved ⇒ live ordinals
    [3, 0, [1, 3, 4], [0, 2, 5]],
    [4, 2, [1, 3], [2, 4, 5, 6]],
    [0, 0, [0], []],
    [3, 0, [], [0, 1, 2]],
    [2, 5, [], [5, 6]],
  ])('%i replicas from %i reserving %j run %j', (...row) => {
    const [replicas, start, reserved, live] = row;
    const parsed = parseReserveOrdinals(reserved);
    const range = replicaRange({ replicas, start, reserved: parsed.reserved });
    expect(liveOrdinals(range)).toEqual(live);
    for (const ordinal of live) {
      expect(inRange(range, ordinal)).toBe(true);
    }
    for (const ordinal of reserved) {
      expect(inRange(range, ordinal)).toBe(false);
    }
  });
});

describe('podOrdinal', () => {
  it.each([
    ['web', 'web-0', 0],
    ['web', 'web-12', 12],
    ['web-1', 'web-1-3', 3],
    ['web', 'web-1-3', undefined],
    ['web', 'other-2', undefined],
    ['web', 'web-x', undefined],
    ['web', 'web', undefined],
  ])('%s: %s ⇒ %s', (setName, name, ordinal) => {
    expect(podOrdinal(setName, name)).toBe(ordinal);
  });
});

describe('ReservedOrdinals.nthFree', () => {
  it.each([
    // start, count, reserved: the count-th ordinal replicaRange runs last
    [0, 3, [1, 3, 4]],
    [2, 4, [1, 3]],
    [0, 1, [0]],
    [0, 5, []],
    [5, 2, []],
    [0, 2, ['0-10', '5-20', 22]],
    [3, 3, ['0-2', '4-4']],
  ])('from %i, the %i-th free ordinal reserving %j is the last replicaRange runs', (start, count, reserved) => {
    const parsed = parseReserveOrdinals(reserved);
    const range = replicaRange({ replicas: count, start, reserved: parsed.reserved });
    expect(parsed.reserved.nthFree(start, count)).toBe(range.end - 1);
  });

  it('skips a huge range at once', () => {
    expect(parseReserveOrdinals(['0-1000000000']).reserved.nthFree(0, 2)).toBe(1_000_000_002);
  });
});
