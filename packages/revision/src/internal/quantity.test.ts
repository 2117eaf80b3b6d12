import { describe, expect, it } from 'vitest';

import { canonicalQuantity, QuantityError, quantityValue } from './quantity.ts';

// Expected values come from k8s.io/apimachinery v0.32.10 (Quantity UnmarshalJSON then MarshalJSON).
describe('canonicalQuantity', () => {
  it.each<[string | number, string]>([
    ['1000m', '1'],
    ['0.5', '500m'],
    ['1.5Gi', '1536Mi'],
    ['1.5Mi', '1536Ki'],
    ['1536Ki', '1536Ki'],
    ['1e3', '1e3'],
    ['1E3', '1E3'],
    ['1e+3', '1e+3'],
    ['1.5e3', '1500'],
    ['3e6', '3e6'],
    ['1e-3', '1e-3'],
    ['100M', '100M'],
    ['1G', '1G'],
    ['1T', '1T'],
    ['1P', '1P'],
    ['10E', '10E'],
    ['1000', '1k'],
    ['1000000', '1M'],
    ['1500000k', '1500M'],
    ['0', '0'],
    ['0.0', '0'],
    ['-0', '0'],
    ['1', '1'],
    ['1.0', '1'],
    ['-1', '-1'],
    ['+1k', '+1k'],
    ['01Ki', '01Ki'],
    ['1Ki', '1Ki'],
    ['8Ki', '8Ki'],
    ['1024Ki', '1Mi'],
    ['1025Ki', '1025Ki'],
    ['2048Mi', '2Gi'],
    ['0.1Ki', '102400m'],
    ['0.5Ki', '512'],
    ['1.1Ki', '1126400m'],
    ['-1.5Gi', '-1536Mi'],
    ['7Ei', '7Ei'],
    ['8Ei', '9223372036854775807'],
    ['12.5m', '12500u'],
    ['100u', '100u'],
    ['250m', '250m'],
    ['0.001', '1m'],
    ['1n', '1n'],
    ['1.5n', '2n'],
    ['0.0000000001', '1n'],
    ['2e-10', '1e-9'],
    ['1e-12', '1e-9'],
    ['1000E', '1'],
    ['5.', '5.'],
    ['.5', '500m'],
    ['00.50', '500m'],
    ['0e-10', '0'],
    ['999999999999999999', '999999999999999999'],
    ['1000000000000000000', '1E'],
    ['123456789012345678901234567890', '123456789012345678901234567890'],
    ['1.234567891234e3', '1.234567891234e3'],
    [' 2Gi ', '2Gi'],
    [2, '2'],
    [0.25, '250m'],
    [12.5, '12500m'],
    [1e21, '1e+21'],
    ['1e-100', '1e-9'],
    ['123e-50', '1e-9'],
    // Go's inf.Dec needs 10^2000000000 here and does not finish; the value rounds up to 1n all the same.
    ['1e-2000000000', '1e-9'],
    ['1e2000000000', '100e1999999998'],
    ['5e2147483647', '50e2147483646'],
    ['1e9223372036854775807', '100e-3'],
  ])('%j → %s', (input, expected) => {
    expect(canonicalQuantity(input)).toBe(expected);
  });

  it.each<string>(['', 'abc', '1e', 'e-10', '2Gi\t', '1Mii', '1.5.5', '--1', '1 Gi', '<1>', '1e9223372036854775808'])(
    'rejects %j as ParseQuantity does',
    (input) => {
      expect(() => canonicalQuantity(input)).toThrow(QuantityError);
    },
  );
});

describe('quantityValue', () => {
  it.each<[string, bigint, number]>([
    ['1.5Gi', 16106127360n, -1],
    ['250m', 250n, -3],
    ['0.5n', 1n, -9],
    ['1e3', 1n, 3],
    ['-2k', -2n, 3],
    ['0', 0n, 0],
  ])('%s → %d × 10^%d', (text, mantissa, exponent) => {
    expect(quantityValue(text)).toEqual({ mantissa, exponent });
  });

  it('rejects what ParseQuantity rejects', () => {
    expect(() => quantityValue('abc')).toThrow(QuantityError);
  });
});
