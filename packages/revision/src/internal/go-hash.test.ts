import { describe, expect, it } from 'vitest';

import { deepHashJsonBytes, fnv1aHash32, spewByteSlice } from './go-hash.ts';

describe('fnv1aHash32', () => {
  // Published FNV-1a 32-bit test vectors.
  it.each<[string, number]>([
    ['', 0x811c9dc5],
    ['a', 0xe40c292c],
    ['foobar', 0xbf9cf968],
  ])('%j → %d', (text, expected) => {
    expect(fnv1aHash32(new TextEncoder().encode(text))).toBe(expected);
  });
});

describe('spewByteSlice', () => {
  it.each<[string, string]>([
    ['null', '([]uint8)[110 117 108 108]'],
    ['[]', '([]uint8)[91 93]'],
    ['é', '([]uint8)[195 169]'],
  ])('%j → %s', (text, expected) => {
    expect(spewByteSlice(new TextEncoder().encode(text))).toBe(expected);
  });
});

describe('deepHashJsonBytes', () => {
  it('hashes the spew text, not the JSON itself', () => {
    expect(deepHashJsonBytes('null')).toBe(fnv1aHash32(new TextEncoder().encode('([]uint8)[110 117 108 108]')));
    expect(deepHashJsonBytes('null')).not.toBe(fnv1aHash32(new TextEncoder().encode('null')));
  });
});
