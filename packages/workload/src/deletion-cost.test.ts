import { describe, expect, it } from 'vitest';

import { pod } from '../test/fixtures/pods.ts';
import { parseDeletionCost, podDeletionCost } from './deletion-cost.ts';

describe('parseDeletionCost', () => {
  it.each([
    [undefined, 0],
    ['', 0],
    ['0', 0],
    ['10', 10],
    ['-10', -10],
    ['+10', 0],
    ['008', 0],
    ['00', 0],
    ['-007', -7],
    ['-0', 0],
    ['-', 0],
    ['1.5', 0],
    ['1e3', 0],
    [' 1', 0],
    ['1 ', 0],
    ['abc', 0],
    ['2147483647', 2_147_483_647],
    ['2147483648', 0],
    ['-2147483648', -2_147_483_648],
    ['-2147483649', 0],
    ['99999999999999999999', 0],
  ])('%j ⇒ %d', (value, expected) => {
    expect(parseDeletionCost(value)).toBe(expected);
  });

  it('reads the annotation of a pod', () => {
    expect(podDeletionCost(pod({ name: 'p', cost: '-5' }))).toBe(-5);
    expect(podDeletionCost(pod({ name: 'p' }))).toBe(0);
  });
});
