import { Buffer } from 'node:buffer';

import { describe, expect, it } from 'vitest';

import { decodeUtf8 } from './utf8.ts';

function decode(input: readonly number[] | string): string {
  const buffer = typeof input === 'string' ? Buffer.from(input, 'utf8') : Buffer.from(input);
  return decodeUtf8(buffer, 0, buffer.length);
}

describe('decodeUtf8', () => {
  it.each([
    ['', ''],
    ['short ascii', 'short ascii'],
    ['a longer ASCII string beyond the short path', 'a longer ASCII string beyond the short path'],
    ['ünïcødé', 'ünïcødé'],
    ['😀 and U+2028 \u2028', '😀 and U+2028 \u2028'],
    ['a real \uFFFD stays one', 'a real \uFFFD stays one'],
  ])('decodes valid UTF-8: %s', (input, expected) => {
    expect(decode(input)).toBe(expected);
  });

  // Go's JSON encoder writes U+FFFD per byte that starts no valid sequence (utf8.DecodeRune's size 1).
  it.each([
    ['a lone 0xff', [0x61, 0xff, 0x62], 'a\uFFFDb'],
    ['a truncated 3-byte sequence', [0x61, 0xe2, 0x82, 0x63], 'a\uFFFD\uFFFDc'],
    ['a surrogate (ED A0 80)', [0xed, 0xa0, 0x80], '\uFFFD\uFFFD\uFFFD'],
    ['an overlong encoding (C0 80)', [0xc0, 0x80], '\uFFFD\uFFFD'],
    ['an overlong 3-byte encoding (E0 80 80)', [0xe0, 0x80, 0x80], '\uFFFD\uFFFD\uFFFD'],
    ['beyond U+10FFFF (F4 90 80 80)', [0xf4, 0x90, 0x80, 0x80], '\uFFFD\uFFFD\uFFFD\uFFFD'],
    ['a truncated 4-byte sequence at the end', [0xf0, 0x9f, 0x98], '\uFFFD\uFFFD\uFFFD'],
    [
      'valid around invalid, long',
      [...Buffer.from('ünïcødé long enough '), 0xff, ...Buffer.from('😀')],
      'ünïcødé long enough \uFFFD😀',
    ],
  ])('replaces invalid bytes as Go does: %s', (_, input, expected) => {
    expect(decode(input)).toBe(expected);
  });

  it('returns the same string for repeated bytes from the cache, and never a cached string for other bytes', () => {
    expect(decode('web-00001')).toBe(decode('web-00001'));
    expect(decode([0xc3, 0x83, 0xc2, 0xa9])).toBe('Ã©');
    expect(decode([0xc3, 0xa9])).toBe('é');
    for (let i = 0; i < 20000; i++) {
      expect(decode(`s${i}`)).toBe(`s${i}`);
    }
    expect(decode('a'.repeat(48))).toBe('a'.repeat(48));
    expect(decode('a'.repeat(49))).toBe('a'.repeat(49));
  });
});
