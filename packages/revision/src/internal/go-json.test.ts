import { describe, expect, it } from 'vitest';

import { compareGoStrings, goNumber, goQuote, marshalGoJson } from './go-json.ts';

// Expected texts are what Go 1.22+ encoding/json writes (json.Marshal with its default HTML escaping).
describe('goQuote', () => {
  it.each<[string, string]>([
    ['plain', '"plain"'],
    ['', '""'],
    ['<script>', '"\\u003cscript\\u003e"'],
    ['a & b', '"a \\u0026 b"'],
    ['say "hi" \\ bye', '"say \\"hi\\" \\\\ bye"'],
    ['\b\f\n\r\t', '"\\b\\f\\n\\r\\t"'],
    ['\u0000\u0001\u001f', '"\\u0000\\u0001\\u001f"'],
    ['\u007f', '"\u007f"'],
    ['line\u2028para\u2029', '"line\\u2028para\\u2029"'],
    ['caf\u00e9 \u4e2d \u{1f680}', '"caf\u00e9 \u4e2d \u{1f680}"'],
    ['lone \ud800 surrogate', '"lone \ufffd surrogate"'],
    ["/slash'", '"/slash\'"'],
  ])('%j → %s', (input, expected) => {
    expect(goQuote(input)).toBe(expected);
  });
});

describe('goNumber', () => {
  it.each<[number, string]>([
    [0, '0'],
    [-0, '-0'],
    [30, '30'],
    [-5, '-5'],
    [0.5, '0.5'],
    [1.5e-7, '1.5e-7'],
    [0.000001, '0.000001'],
    [1e20, '100000000000000000000'],
    [1e21, '1e+21'],
    [Number('9007199254740993'), '9007199254740992'],
    [0.1 + 0.2, '0.30000000000000004'],
  ])('%d → %s', (input, expected) => {
    expect(goNumber(input)).toBe(expected);
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY])('rejects %d as Go does', (input) => {
    expect(() => goNumber(input)).toThrow(/unsupported value/);
  });
});

describe('compareGoStrings (UTF-8 byte order)', () => {
  it.each<[string, string, number]>([
    ['a', 'b', -1],
    ['B', 'a', -1],
    ['10', '9', -1],
    ['$patch', 'metadata', -1],
    ['abc', 'ab', 1],
    ['\uE000', '\u{1F600}', -1],
    ['\u{1F600}', '\uFFFF', 1],
    ['same', 'same', 0],
  ])('%j vs %j', (a, b, sign) => {
    expect(Math.sign(compareGoStrings(a, b))).toBe(sign);
  });
});

describe('marshalGoJson', () => {
  it.each<[string, unknown, string]>([
    ['sorts keys at every level', { b: 1, a: { d: true, c: null } }, '{"a":{"c":null,"d":true},"b":1}'],
    [
      'sorts integer-like keys as strings',
      { '9': 'x', '10': 'y', a: 'z', '1': 'w' },
      '{"1":"w","10":"y","9":"x","a":"z"}',
    ],
    ['keeps array order', [3, 'b', [false]], '[3,"b",[false]]'],
    ['writes empty containers', { a: {}, b: [] }, '{"a":{},"b":[]}'],
    ['escapes keys too', { '<k>': '&' }, '{"\\u003ck\\u003e":"\\u0026"}'],
    ['puts $ before letters', { spec: 1, $patch: 'replace' }, '{"$patch":"replace","spec":1}'],
    ['keeps a __proto__ key as data', JSON.parse('{"__proto__":1,"a":2}'), '{"__proto__":1,"a":2}'],
    ['formats floats as Go', { f: 1e21, g: 2.5 }, '{"f":1e+21,"g":2.5}'],
  ])('%s', (_name, input, expected) => {
    expect(marshalGoJson(input)).toBe(expected);
  });

  it.each([undefined, 1n, Symbol('s'), () => 1])('rejects %s', (input) => {
    expect(() => marshalGoJson(input)).toThrow(TypeError);
  });
});
