import { describe, expect, it } from 'vitest';

import type { GoStructTable } from './go-struct-table.ts';
import { parseGoType } from './go-struct-table.ts';
import { encodeTyped, isGoEmpty, TemplateDecodeError } from './typed-round-trip.ts';

/** A miniature of the generated table, with one field of each kind. */
const TABLE: GoStructTable = {
  Root: [
    { json: 'name', type: 'string', omitempty: false },
    { json: 'image', type: 'string', omitempty: true },
    { json: 'port', type: 'int32', omitempty: false },
    { json: 'replicas', type: 'int32', omitempty: true },
    { json: 'stdin', type: 'bool', omitempty: true },
    { json: 'optional', type: '*bool', omitempty: true },
    { json: 'grace', type: '*int64', omitempty: true },
    { json: 'service', type: '*string', omitempty: false },
    { json: 'resources', type: 'Resources', omitempty: true },
    { json: 'security', type: '*Security', omitempty: true },
    { json: 'args', type: '[]string', omitempty: true },
    { json: 'items', type: '[]Item', omitempty: false },
    { json: 'labels', type: 'map[string]string', omitempty: true },
    { json: 'created', type: 'Time', omitempty: true },
    { json: 'deleted', type: '*Time', omitempty: true },
    { json: 'target', type: 'IntOrString', omitempty: false },
    { json: 'raw', type: '*RawJSON', omitempty: true },
  ],
  Resources: [
    { json: 'limits', type: 'map[string]Quantity', omitempty: true },
    { json: 'divisor', type: 'Quantity', omitempty: true },
  ],
  Security: [{ json: 'privileged', type: '*bool', omitempty: true }],
  Item: [{ json: 'key', type: 'string', omitempty: false }],
};

const ROOT = parseGoType('Root');
const ZERO_ROOT = {
  name: '',
  port: 0,
  service: null,
  resources: { divisor: '0' },
  items: null,
  created: null,
  target: 0,
};

function roundTrip(input: unknown): unknown {
  return encodeTyped(input, ROOT, { table: TABLE, path: '' });
}

describe('encodeTyped: the typed round trip of encoding/json', () => {
  it.each<[string, unknown, unknown]>([
    ['an absent object is the zero struct: non-omitempty fields and structs are written', undefined, ZERO_ROOT],
    ['null is the zero struct too', null, ZERO_ROOT],
    ['unknown and wrong-case fields are dropped', { Name: 'x', other: 1 }, ZERO_ROOT],
    ['omitempty drops "", 0 and false of non-pointers', { image: '', replicas: 0, stdin: false }, ZERO_ROOT],
    ['pointers set to false or 0 are kept', { optional: false, grace: 0 }, { ...ZERO_ROOT, optional: false, grace: 0 }],
    ['a pointer to an empty struct is {}', { security: {} }, { ...ZERO_ROOT, security: {} }],
    ['empty slices and maps with omitempty are dropped', { args: [], labels: {} }, ZERO_ROOT],
    ['an empty slice without omitempty is []', { items: [] }, { ...ZERO_ROOT, items: [] }],
    [
      'null list elements and map values become zero values',
      { items: [null], labels: { a: null } },
      { ...ZERO_ROOT, items: [{ key: '' }], labels: { a: '' } },
    ],
    [
      'quantities are canonical; a missing divisor is "0"',
      { resources: { limits: { cpu: '1000m', memory: 0.5 } } },
      { ...ZERO_ROOT, resources: { limits: { cpu: '1', memory: '500m' }, divisor: '0' } },
    ],
    [
      'times are UTC without fractions; a set pointer to the zero time is null',
      { created: '2024-01-01T02:00:00.5+02:00', deleted: '0001-01-01T00:00:00Z' },
      { ...ZERO_ROOT, created: '2024-01-01T00:00:00Z', deleted: null },
    ],
    ['int-or-string keeps its kind', { target: 'http' }, { ...ZERO_ROOT, target: 'http' }],
    [
      'raw JSON is kept as it is',
      { raw: { 'f:a': {}, n: [1, 'x'] } },
      { ...ZERO_ROOT, raw: { 'f:a': {}, n: [1, 'x'] } },
    ],
  ])('%s', (_name, input, expected) => {
    expect(roundTrip(input)).toEqual(expected);
  });

  it.each<[string, unknown, string]>([
    ['a string where an int is expected', { port: '80' }, 'port'],
    ['a fraction in an int field', { port: 1.5 }, 'port'],
    ['an int32 out of range', { port: 2 ** 31 }, 'port'],
    ['an object where a string is expected', { name: {} }, 'name'],
    ['a string where a list is expected', { items: 'x' }, 'items'],
    ['a wrong element deep inside', { items: [{ key: 'a' }, { key: 1 }] }, 'items[1].key'],
    ['an unparseable quantity', { resources: { limits: { cpu: 'lots' } } }, 'resources.limits["cpu"]'],
    ['a bad time', { created: 'yesterday' }, 'created'],
    ['a fractional int-or-string', { target: 2.5 }, 'target'],
    ['an array where an object is expected', [], ''],
  ])('fails like Go on %s, naming the path', (_name, input, path) => {
    expect(() => roundTrip(input)).toThrow(TemplateDecodeError);
    try {
      roundTrip(input);
    } catch (error) {
      expect((error as TemplateDecodeError).path).toBe(path);
    }
  });
});

describe('the table guard', () => {
  it('refuses a table that uses omitzero or lacks a struct', () => {
    const table: GoStructTable = { Root: [{ json: 'created', type: 'Time', omitempty: true, omitzero: true }] };
    expect(() => encodeTyped({}, ROOT, { table, path: '' })).toThrow(/omitzero/);
    expect(() => encodeTyped({}, parseGoType('Missing'), { table: TABLE, path: '' })).toThrow(/no struct Missing/);
  });
});

describe('isGoEmpty', () => {
  it.each<[string, unknown, boolean]>([
    ['string', '', true],
    ['string', 'x', false],
    ['int32', 0, true],
    ['bool', false, true],
    ['*bool', false, false],
    ['*bool', null, true],
    ['[]string', [], true],
    ['map[string]string', {}, true],
    ['map[string]string', { a: '' }, false],
    ['Time', undefined, false],
    ['Quantity', undefined, false],
    ['Item', undefined, false],
  ])('%s %j → %s', (type, input, empty) => {
    expect(isGoEmpty(input, parseGoType(type))).toBe(empty);
  });
});
