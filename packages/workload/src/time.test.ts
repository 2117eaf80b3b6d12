import { describe, expect, it } from 'vitest';

import { compareAfterOrZero, parseTimestamp } from './time.ts';

describe('parseTimestamp', () => {
  it.each([
    ['2026-11-21T21:06:34Z', Date.UTC(2026, 10, 21, 21, 6, 34)],
    ['2026-11-21T21:06:34.250Z', Date.UTC(2026, 10, 21, 21, 6, 34, 250)],
    ['not a time', undefined],
    ['', undefined],
    [null, undefined],
    [undefined, undefined],
  ])('%s → %s, the same when asked again', (text, ms) => {
    expect(parseTimestamp(text)).toBe(ms);
    expect(parseTimestamp(text)).toBe(ms);
  });

  it('stays right past the size of its memo', () => {
    const base = Date.UTC(2026, 0, 1);
    for (let i = 0; i < 20_000; i++) {
      const at = base + i * 1000;
      expect(parseTimestamp(new Date(at).toISOString().replace('.000Z', 'Z'))).toBe(at);
    }
  });
});

describe('compareAfterOrZero', () => {
  it('puts zero first, then the more recent', () => {
    // Wrapped: Array.prototype.sort moves bare undefined to the end without asking the comparator.
    const times = [3, undefined, 1, 2].map((at) => ({ at }));
    expect(times.sort((a, b) => compareAfterOrZero(a.at, b.at)).map((time) => time.at)).toEqual([undefined, 3, 2, 1]);
  });
});
