import { describe, expect, it } from 'vitest';

import { pick, seededRandom } from '@kruise-ts/controller-runtime/testing';
import type { Random } from '@kruise-ts/controller-runtime/testing';

import { applyJsonPatch } from '@kruise-ts/controller-runtime/testing';
import type { JsonValue } from '@kruise-ts/controller-runtime';
import { createJsonPatch, escapeJsonPointerToken } from './json-patch.ts';

describe('createJsonPatch', () => {
  it.each([
    { name: 'no change', original: { a: 1, b: [1, { c: 'x' }] }, mutated: { a: 1, b: [1, { c: 'x' }] }, patch: [] },
    { name: 'key order does not matter', original: { a: 1, b: 2 }, mutated: { b: 2, a: 1 }, patch: [] },
    { name: 'undefined members count as absent', original: { a: 1 }, mutated: { a: 1, b: undefined }, patch: [] },
    { name: 'add a key', original: { a: 1 }, mutated: { a: 1, b: 2 }, patch: [{ op: 'add', path: '/b', value: 2 }] },
    { name: 'remove a key', original: { a: 1, b: 2 }, mutated: { a: 1 }, patch: [{ op: 'remove', path: '/b' }] },
    {
      name: 'replace a value',
      original: { a: 1 },
      mutated: { a: 'one' },
      patch: [{ op: 'replace', path: '/a', value: 'one' }],
    },
    {
      name: 'replace null',
      original: { a: null },
      mutated: { a: {} },
      patch: [{ op: 'replace', path: '/a', value: {} }],
    },
    {
      name: 'keys with / and ~',
      original: { metadata: { labels: { 'app.kubernetes.io/name': 'a', 'x~y': '1' } } },
      mutated: { metadata: { labels: { 'app.kubernetes.io/name': 'b', 'x~1y': '2' } } },
      patch: [
        { op: 'replace', path: '/metadata/labels/app.kubernetes.io~1name', value: 'b' },
        { op: 'remove', path: '/metadata/labels/x~0y' },
        { op: 'add', path: '/metadata/labels/x~01y', value: '2' },
      ],
    },
    {
      name: 'nested objects',
      original: { spec: { template: { spec: { containers: [{ name: 'a', image: 'x:1' }] } } } },
      mutated: { spec: { template: { spec: { containers: [{ name: 'a', image: 'x:2', env: [] }] } } } },
      patch: [
        { op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'x:2' },
        { op: 'add', path: '/spec/template/spec/containers/0/env', value: [] },
      ],
    },
    {
      name: 'array grows',
      original: { c: [{ name: 'app' }] },
      mutated: { c: [{ name: 'app' }, { name: 'sidecar' }, { name: 'other' }] },
      patch: [
        { op: 'add', path: '/c/1', value: { name: 'sidecar' } },
        { op: 'add', path: '/c/2', value: { name: 'other' } },
      ],
    },
    {
      name: 'array shrinks (removed from the end)',
      original: { c: [1, 2, 3, 4] },
      mutated: { c: [1] },
      patch: [
        { op: 'remove', path: '/c/3' },
        { op: 'remove', path: '/c/2' },
        { op: 'remove', path: '/c/1' },
      ],
    },
    {
      name: 'insertion at the front',
      original: { c: ['b', 'c'] },
      mutated: { c: ['a', 'b', 'c'] },
      patch: [
        { op: 'replace', path: '/c/0', value: 'a' },
        { op: 'replace', path: '/c/1', value: 'b' },
        { op: 'add', path: '/c/2', value: 'c' },
      ],
    },
    {
      name: 'array to object',
      original: { a: [1] },
      mutated: { a: { 0: 1 } },
      patch: [{ op: 'replace', path: '/a', value: { 0: 1 } }],
    },
    { name: 'empty key', original: { '': 1 }, mutated: { '': 2 }, patch: [{ op: 'replace', path: '/', value: 2 }] },
    { name: 'root replaced', original: { a: 1 }, mutated: [1], patch: [{ op: 'replace', path: '', value: [1] }] },
  ])('$name', ({ original, mutated, patch }) => {
    const operations = createJsonPatch(original, mutated);
    expect(operations).toEqual(patch);
    if (!Array.isArray(mutated)) {
      expect(applyJsonPatch(original as JsonValue, operations)).toEqual(JSON.parse(JSON.stringify(mutated)));
    }
  });

  it.each([
    ['a/b', 'a~1b'],
    ['a~b', 'a~0b'],
    ['~1', '~01'],
    ['/~', '~1~0'],
  ])('escapes %j as %j', (token, escaped) => {
    expect(escapeJsonPointerToken(token)).toBe(escaped);
  });

  it('patches that the API server would apply turn the original into the mutated value (500 random pairs)', () => {
    const random = seededRandom(20_260_101);
    let changed = 0;
    for (let run = 0; run < 500; run++) {
      const original = randomObject(random, 3);
      const mutated = mutate(random, structuredClone(original), 3);
      const operations = createJsonPatch(original, mutated);
      expect(applyJsonPatch(original, operations), JSON.stringify({ original, mutated, operations })).toEqual(mutated);
      expect(createJsonPatch(mutated, mutated)).toEqual([]);
      changed += operations.length > 0 ? 1 : 0;
    }
    // The generator is meant to change most pairs; a generator that changes nothing proves nothing.
    expect(changed).toBeGreaterThan(300);
  });
});

type JsonObject = { [key: string]: JsonValue };
const KEYS = ['a', 'b', 'a/b', 'c~d', '~1', '/', '', 'x.y/z', '0'];

function randomValue(random: Random, depth: number): JsonValue {
  const kind = depth <= 0 ? Math.floor(random() * 4) : Math.floor(random() * 6);
  switch (kind) {
    case 0:
      return null;
    case 1:
      return random() < 0.5;
    case 2:
      return Math.floor(random() * 10);
    case 3:
      return pick(random, ['', 'x', 'y/z', '~']);
    case 4:
      return Array.from({ length: Math.floor(random() * 4) }, () => randomValue(random, depth - 1));
    default:
      return randomObject(random, depth - 1);
  }
}

function randomObject(random: Random, depth: number): JsonObject {
  const object: JsonObject = {};
  for (let i = 1 + Math.floor(random() * 4); i > 0; i--) {
    object[pick(random, KEYS)] = randomValue(random, depth);
  }
  return object;
}

/** Random changes: add, remove or replace members and items, grow and shrink arrays, recurse. */
function mutate(random: Random, value: JsonValue, depth: number): JsonValue {
  if (Array.isArray(value)) {
    const items = value.map((item) => (random() < 0.3 ? mutate(random, item, depth - 1) : item));
    const change = random();
    if (change < 0.25) {
      items.splice(Math.floor(random() * (items.length + 1)), 0, randomValue(random, depth - 1));
    } else if (change < 0.5 && items.length > 0) {
      items.splice(Math.floor(random() * items.length), 1);
    }
    return items;
  }
  if (value !== null && typeof value === 'object') {
    for (const key of Object.keys(value)) {
      const change = random();
      if (change < 0.2) {
        Reflect.deleteProperty(value, key);
      } else if (change < 0.5) {
        value[key] = mutate(random, value[key] ?? null, depth - 1);
      }
    }
    if (random() < 0.5) {
      value[pick(random, KEYS)] = randomValue(random, depth - 1);
    }
    return value;
  }
  return random() < 0.3 ? randomValue(random, depth) : value;
}
