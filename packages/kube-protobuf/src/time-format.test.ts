import { describe, expect, it } from 'vitest';

import { formatMicros, formatSeconds, GO_ZERO_TIME_SECONDS } from './time-format.ts';

describe('formatSeconds', () => {
  it.each([
    [0, '1970-01-01T00:00:00Z'],
    [-1, '1969-12-31T23:59:59Z'],
    [1795935509, '2026-11-29T06:58:29Z'],
    [GO_ZERO_TIME_SECONDS + 1, '0001-01-01T00:00:01Z'],
    [253402300799, '9999-12-31T23:59:59Z'],
    // Outside 0000-9999 Go writes the year with as many digits as it has, a sign before negative ones.
    [253402300800, '10000-01-01T00:00:00Z'],
    [-62167219201, '-0001-12-31T23:59:59Z'],
    [-62167219200, '0000-01-01T00:00:00Z'],
  ])('%d s is %s', (seconds, expected) => {
    expect(formatSeconds(seconds)).toBe(expected);
    // Twice: the second comes from the one-entry cache.
    expect(formatSeconds(seconds)).toBe(expected);
  });

  it('has nothing for a time a Date cannot hold', () => {
    expect(formatSeconds(9e12)).toBeUndefined();
    expect(formatSeconds(-9e12)).toBeUndefined();
  });
});

describe('formatMicros', () => {
  it.each([
    [0, 0, '1970-01-01T00:00:00.000000Z'],
    [1795935509, 123456, '2026-11-29T06:58:29.123456Z'],
    [-1, 1, '1969-12-31T23:59:59.000001Z'],
  ])('%d s %d µs is %s', (seconds, micros, expected) => {
    expect(formatMicros(seconds, micros)).toBe(expected);
  });
});
