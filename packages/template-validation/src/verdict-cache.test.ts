import { describe, expect, it } from 'vitest';

import { digestOf, VerdictCache } from './verdict-cache.ts';

describe('VerdictCache', () => {
  it('keeps at most maxEntries, dropping the least recently used', () => {
    const cache = new VerdictCache<string>({ maxEntries: 2 });
    cache.set('a', 'A');
    cache.set('b', 'B');
    expect(cache.get('a')).toBe('A');
    cache.set('c', 'C');
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe('A');
    expect(cache.get('c')).toBe('C');
    expect(cache.size).toBe(2);
  });

  it('forgets a verdict after ttlMs', () => {
    let now = 1000;
    const cache = new VerdictCache<string>({ ttlMs: 100, now: () => now });
    cache.set('a', 'A');
    now += 99;
    expect(cache.get('a')).toBe('A');
    now += 200;
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});

describe('digestOf', () => {
  it('is equal for equal JSON and differs otherwise', () => {
    expect(digestOf({ a: [1, 2] })).toBe(digestOf({ a: [1, 2] }));
    expect(digestOf({ a: [1, 2] })).not.toBe(digestOf({ a: [2, 1] }));
  });
});
