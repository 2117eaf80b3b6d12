import { describe, expect, it } from 'vitest';

import { DEFAULT_EXPECTATION_TIMEOUT_MS, resolveExpectationTimeout } from './expectation-timeout.ts';

describe('resolveExpectationTimeout', () => {
  it('defaults to OpenKruise --expectation-timeout (5 min)', () => {
    expect(DEFAULT_EXPECTATION_TIMEOUT_MS).toBe(300_000);
    expect(resolveExpectationTimeout(undefined)).toBe(300_000);
    expect(resolveExpectationTimeout(1)).toBe(1);
  });

  it.each([0, -1, NaN, Infinity])('rejects %s, which would block owners forever or at once', (timeoutMs) => {
    expect(() => resolveExpectationTimeout(timeoutMs)).toThrow(RangeError);
  });
});
