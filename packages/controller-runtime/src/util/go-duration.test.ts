import { describe, expect, it } from 'vitest';

import { GoDurationError, parseGoDuration, parseGoDurationNanoseconds } from './go-duration.ts';

const NS = 1n;
const US = 1_000n * NS;
const MS = 1_000n * US;
const S = 1_000n * MS;
const MIN = 60n * S;
const H = 60n * MIN;

// Go's own table (src/time/time_test.go, parseDurationTests and parseDurationErrorTests).
describe('parseGoDurationNanoseconds, as Go time.ParseDuration', () => {
  it.each<[string, bigint]>([
    ['0', 0n],
    ['5s', 5n * S],
    ['30s', 30n * S],
    ['1478s', 1478n * S],
    ['-5s', -5n * S],
    ['+5s', 5n * S],
    ['-0', 0n],
    ['+0', 0n],
    ['5.0s', 5n * S],
    ['5.6s', 5n * S + 600n * MS],
    ['5.s', 5n * S],
    ['.5s', 500n * MS],
    ['1.0s', 1n * S],
    ['1.00s', 1n * S],
    ['1.004s', 1n * S + 4n * MS],
    ['1.0040s', 1n * S + 4n * MS],
    ['100.00100s', 100n * S + 1n * MS],
    ['10ns', 10n * NS],
    ['11us', 11n * US],
    ['12µs', 12n * US],
    ['12μs', 12n * US],
    ['13ms', 13n * MS],
    ['14s', 14n * S],
    ['15m', 15n * MIN],
    ['16h', 16n * H],
    ['3h30m', 3n * H + 30n * MIN],
    ['10.5s4m', 4n * MIN + 10n * S + 500n * MS],
    ['-2m3.4s', -(2n * MIN + 3n * S + 400n * MS)],
    ['1h2m3s4ms5us6ns', 1n * H + 2n * MIN + 3n * S + 4n * MS + 5n * US + 6n * NS],
    ['39h9m14.425s', 39n * H + 9n * MIN + 14n * S + 425n * MS],
    ['52763797000ns', 52763797000n * NS],
    ['0.3333333333333333333h', 20n * MIN],
    ['9007199254740993ns', (1n << 53n) + 1n],
    ['9223372036854775807ns', (1n << 63n) - 1n],
    ['9223372036854775.807us', (1n << 63n) - 1n],
    ['9223372036854ms775us807ns', (1n << 63n) - 1n],
    ['-9223372036854775808ns', -(1n << 63n)],
    ['-9223372036854775.808us', -(1n << 63n)],
    ['-9223372036854ms775us808ns', -(1n << 63n)],
    ['-2562047h47m16.854775808s', -(1n << 63n)],
    ['0.100000000000000000000h', 6n * MIN],
    ['0.830103483285477580700h', 49n * MIN + 48n * S + 372539827n * NS],
  ])('%s', (text, nanoseconds) => {
    expect(parseGoDurationNanoseconds(text)).toBe(nanoseconds);
  });

  it.each<[string, string]>([
    ['', 'time: invalid duration ""'],
    ['3', 'time: missing unit in duration "3"'],
    ['-', 'time: invalid duration "-"'],
    ['s', 'time: invalid duration "s"'],
    ['.', 'time: invalid duration "."'],
    ['-.', 'time: invalid duration "-."'],
    ['.s', 'time: invalid duration ".s"'],
    ['+.s', 'time: invalid duration "+.s"'],
    ['1d', 'time: unknown unit "d" in duration "1d"'],
    ['1m30', 'time: missing unit in duration "1m30"'],
    ['1 m', 'time: unknown unit " m" in duration "1 m"'],
    ['00', 'time: missing unit in duration "00"'],
    ['9223372036854775808ns', 'time: invalid duration "9223372036854775808ns"'],
    ['9223372036854775.808us', 'time: invalid duration "9223372036854775.808us"'],
    ['9223372036854ms775us808ns', 'time: invalid duration "9223372036854ms775us808ns"'],
    ['-9223372036854775809ns', 'time: invalid duration "-9223372036854775809ns"'],
    ['3000000h', 'time: invalid duration "3000000h"'],
  ])('refuses %j: %s', (text, message) => {
    expect(() => parseGoDurationNanoseconds(text)).toThrow(new GoDurationError(message));
  });
});

describe('parseGoDuration', () => {
  it.each<[string, number]>([
    ['1h30m', 5_400_000],
    ['1.5h', 5_400_000],
    ['300ms', 300],
    ['-1s', -1_000],
    ['0', 0],
    ['1500us', 1.5],
    ['1ns', 0.000001],
  ])('%s is %d ms', (text, milliseconds) => {
    expect(parseGoDuration(text)).toBe(milliseconds);
  });
});
