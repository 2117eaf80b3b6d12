import { describe, expect, it } from 'vitest';

import {
  formatGiB,
  formatLatency,
  formatMiB,
  formatNumber,
  formatRatio,
  formatSeconds,
  groupThousands,
  MISSING,
  orMissing,
} from './format.ts';

describe('groupThousands', () => {
  it.each([
    { value: 0, text: '0' },
    { value: 999, text: '999' },
    { value: 1000, text: '1,000' },
    { value: 1234567.4, text: '1,234,567' },
    { value: 999.5, text: '1,000' },
    { value: -12345, text: '-12,345' },
  ])('$value ⇒ $text', ({ value, text }) => {
    expect(groupThousands(value)).toBe(text);
  });
});

describe('formatNumber', () => {
  it.each([
    { value: 0, text: '0.00' },
    { value: 0.004, text: '0.00' },
    { value: 0.5234, text: '0.52' },
    { value: 1.5, text: '1.50' },
    { value: 9.994, text: '9.99' },
    { value: 9.996, text: '10.0' },
    { value: 12.34, text: '12.3' },
    { value: 99.94, text: '99.9' },
    { value: 99.96, text: '100' },
    { value: 123.4, text: '123' },
    { value: 12345, text: '12,345' },
    { value: -2.5, text: '-2.50' },
    { value: NaN, text: MISSING },
    { value: Infinity, text: MISSING },
  ])('$value ⇒ $text', ({ value, text }) => {
    expect(formatNumber(value)).toBe(text);
  });
});

describe('units', () => {
  it.each([
    { text: formatSeconds(12.34), expected: '12.3 s' },
    { text: formatLatency(0.0042), expected: '4.20 ms' },
    { text: formatLatency(0.25), expected: '250 ms' },
    { text: formatLatency(0.9996), expected: '1.00 s' },
    { text: formatLatency(1.5), expected: '1.50 s' },
    { text: formatMiB(150 * 1024 ** 2), expected: '150 MiB' },
    { text: formatMiB(1.5 * 1024 ** 2), expected: '1.50 MiB' },
    { text: formatGiB(8 * 1024 ** 3), expected: '8.00 GiB' },
    { text: formatRatio(0.5234), expected: '0.52×' },
    { text: formatRatio(12), expected: '12.0×' },
  ])('$expected', ({ text, expected }) => {
    expect(text).toBe(expected);
  });
});

describe('orMissing', () => {
  it.each([
    { value: 1.5, text: '1.50 s' },
    { value: undefined, text: MISSING },
    { value: NaN, text: MISSING },
  ])('$value ⇒ $text', ({ value, text }) => {
    expect(orMissing(value, formatSeconds)).toBe(text);
  });
});
