import { describe, expect, it } from 'vitest';

import {
  addDecimals,
  compareDecimals,
  parseQuantityText,
  quantitiesEqual,
  resourceListsEqual,
} from './quantity-math.ts';

const value = (text: string): NonNullable<ReturnType<typeof parseQuantityText>> => {
  const parsed = parseQuantityText(text);
  if (parsed === undefined) {
    throw new Error(`bad fixture ${text}`);
  }
  return parsed;
};

describe('quantity math', () => {
  it.each<[string, string, number]>([
    ['1', '1000m', 0],
    ['1Gi', '1024Mi', 0],
    ['1Gi', '1G', 1],
    ['100m', '0.1', 0],
    ['-1', '1', -1],
    ['0', '-0', 0],
    ['1e3', '1k', 0],
    ['999', '1k', -1],
    ['1e100', '1', 1],
    ['1n', '1e-9', 0],
  ])('compare %s with %s → %d', (a, b, expected) => {
    expect(compareDecimals(value(a), value(b))).toBe(expected);
  });

  it('adds exactly', () => {
    expect(compareDecimals(addDecimals(value('100m'), value('1.5')), value('1600m'))).toBe(0);
    expect(compareDecimals(addDecimals(value('1Gi'), value('512Mi')), value('1536Mi'))).toBe(0);
  });

  it('compares texts and lists', () => {
    expect(quantitiesEqual('500m', '0.5')).toBe(true);
    expect(quantitiesEqual('bad', 'bad')).toBe(true);
    expect(quantitiesEqual('bad', '1')).toBe(false);
    expect(resourceListsEqual({ cpu: '1', memory: '1Gi' }, { memory: '1024Mi', cpu: '1000m' })).toBe(true);
    expect(resourceListsEqual(undefined, {})).toBe(true);
    expect(resourceListsEqual({ cpu: '1' }, { cpu: '1', memory: '1Gi' })).toBe(false);
    expect(resourceListsEqual({ cpu: '1' }, { memory: '1' })).toBe(false);
  });
});
