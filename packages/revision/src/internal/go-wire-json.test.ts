import { describe, expect, it } from 'vitest';

import { marshalGoJson } from './go-json.ts';
import { goWireValue } from './go-wire-json.ts';

describe('goWireValue: JSON.stringify writes Go bytes', () => {
  it.each<[string, unknown]>([
    ['plain data', { spec: { template: { $patch: 'replace', metadata: { labels: { app: 'x' } } } } }],
    ['HTML characters and separators', { a: '<b>&</b>', b: ['\u2028', '\u2029'] }],
    ['integer-like keys', { labels: { '10': 'a', '9': 'b', '1': 'c', '01': 'd', z: 'e' } }],
    ['nested integer-like keys in arrays', [{ '2': 1, '1': 2 }, { b: { '100': null, '20': true } }]],
    ['negative zero and floats', { n: -0, f: 1e21, g: 0.5 }],
    ['control characters', { c: '\u0001\b\u007f' }],
    ['astral and private-use keys', { '\uE000': 1, '\u{1F600}': 2 }],
  ])('%s', (_name, value) => {
    expect(JSON.stringify(goWireValue(value))).toBe(marshalGoJson(value));
  });

  it('leaves values that need no help as plain values', () => {
    const value = { a: 'x', b: [1, 2] };
    const wire = goWireValue(value);
    expect(wire).toEqual(value);
    expect(wire).not.toBe(value);
  });
});
