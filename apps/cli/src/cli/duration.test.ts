import { describe, expect, it } from 'vitest';

import { parseDuration } from './duration.ts';

describe('parseDuration', () => {
  it.each([
    ['90s', 90_000],
    ['10m', 600_000],
    ['1h30m', 5_400_000],
    ['1.5h', 5_400_000],
    ['1.5s', 1500],
    ['250ms', 250],
    ['1500us', 1.5],
  ])('%s', (value, ms) => {
    expect(parseDuration(value, false)).toBe(ms);
  });

  it('takes 0 only where it means no limit', () => {
    expect(parseDuration('0', true)).toBe(0);
    expect(parseDuration('0s', true)).toBe(0);
    expect(() => parseDuration('0s', false)).toThrow('it must be longer than 0.');
    expect(() => parseDuration('0', false)).toThrow('it must be longer than 0.');
  });

  it('refuses a negative duration', () => {
    expect(() => parseDuration('-1s', true)).toThrow('it must not be negative.');
    expect(() => parseDuration('-1s', false)).toThrow('it must be longer than 0.');
  });

  it.each([
    ['5', 'time: missing unit in duration "5"'],
    ['1d', 'time: unknown unit "d" in duration "1d"'],
    ['s', 'time: invalid duration "s"'],
    ['1 m', 'time: unknown unit " m" in duration "1 m"'],
    ['', 'time: invalid duration ""'],
  ])('refuses %j', (value, reason) => {
    expect(() => parseDuration(value, true)).toThrow(`it must be a duration such as 30s, 10m or 1h30m (${reason}).`);
  });
});
