import { describe, expect, it } from 'vitest';

import type { JsonPatchOperation } from '../client/client.ts';
import { applyJsonPatch, JsonPatchError } from './json-patch.ts';

describe('applyJsonPatch (RFC 6902 examples)', () => {
  it.each<[string, object, JsonPatchOperation[], unknown]>([
    ['adds an object member', { foo: 'bar' }, [{ op: 'add', path: '/baz', value: 'qux' }], { foo: 'bar', baz: 'qux' }],
    [
      'adds an array element',
      { foo: ['bar', 'baz'] },
      [{ op: 'add', path: '/foo/1', value: 'qux' }],
      { foo: ['bar', 'qux', 'baz'] },
    ],
    ['appends with -', { foo: ['bar'] }, [{ op: 'add', path: '/foo/-', value: 'qux' }], { foo: ['bar', 'qux'] }],
    ['removes an object member', { baz: 'qux', foo: 'bar' }, [{ op: 'remove', path: '/baz' }], { foo: 'bar' }],
    [
      'removes an array element',
      { foo: ['bar', 'qux', 'baz'] },
      [{ op: 'remove', path: '/foo/1' }],
      { foo: ['bar', 'baz'] },
    ],
    [
      'replaces a value',
      { baz: 'qux', foo: 'bar' },
      [{ op: 'replace', path: '/baz', value: 'boo' }],
      { baz: 'boo', foo: 'bar' },
    ],
    [
      'moves a value',
      { foo: { bar: 'baz', waldo: 'fred' }, qux: { corge: 'grault' } },
      [{ op: 'move', from: '/foo/waldo', path: '/qux/thud' }],
      { foo: { bar: 'baz' }, qux: { corge: 'grault', thud: 'fred' } },
    ],
    ['copies a value', { a: { b: 1 } }, [{ op: 'copy', from: '/a', path: '/c' }], { a: { b: 1 }, c: { b: 1 } }],
    [
      'escapes ~1 and ~0',
      { 'a/b': 1, 'm~n': 2 },
      [
        { op: 'replace', path: '/a~1b', value: 3 },
        { op: 'remove', path: '/m~0n' },
      ],
      { 'a/b': 3 },
    ],
    [
      'passes a test of an equal value',
      { a: [1, { b: 2 }] },
      [{ op: 'test', path: '/a', value: [1, { b: 2 }] }],
      { a: [1, { b: 2 }] },
    ],
    [
      'passes a test of an absent member with null (as the API server does)',
      { a: 1 },
      [{ op: 'test', path: '/metadata/ownerReferences', value: null }],
      { a: 1 },
    ],
    [
      'replaces an absent object member by adding it (as the API server does)',
      { metadata: { uid: 'u' } },
      [{ op: 'replace', path: '/metadata/ownerReferences', value: [] }],
      { metadata: { uid: 'u', ownerReferences: [] } },
    ],
  ])('%s', (...[, document, operations, expected]) => {
    expect(applyJsonPatch(document as never, operations)).toEqual(expected);
  });

  it.each<[string, object, JsonPatchOperation[]]>([
    ['a failed test', { a: 1 }, [{ op: 'test', path: '/a', value: 2 }]],
    ['removing what is absent', { a: 1 }, [{ op: 'remove', path: '/b' }]],
    ['an index out of range', { a: [1] }, [{ op: 'add', path: '/a/5', value: 2 }]],
    ['replacing an array element that is absent', { a: [1] }, [{ op: 'replace', path: '/a/1', value: 2 }]],
    ['a missing parent', { a: 1 }, [{ op: 'add', path: '/b/c', value: 2 }]],
  ])('rejects %s, leaving the document alone', (_name, document, operations) => {
    const before = JSON.stringify(document);
    expect(() => applyJsonPatch(document as never, operations)).toThrow(JsonPatchError);
    expect(JSON.stringify(document)).toBe(before);
  });
});
