import { describe, expect, it } from 'vitest';

import { deepEqual } from './deep-equal.ts';

describe('deepEqual', () => {
  it.each([
    [{ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 }, true],
    [{ a: 1, b: undefined }, { a: 1 }, true],
    [[1, 2], [2, 1], false],
    [{ a: null }, { a: undefined }, false],
    [{ a: 1 }, { a: '1' }, false],
    ['x', 'x', true],
    [[{ type: 'A', status: 'True' }], [{ status: 'True', type: 'A' }], true],
  ])('%j vs %j', (a, b, expected) => {
    expect(deepEqual(a, b)).toBe(expected);
  });
});
