/**
 * RFC 6902 JSON patch as the API server applies it (evanphx/json-patch): add, remove, replace, move,
 * copy and test, `-` appends to an array, a `test` of an absent member with the value `null`
 * passes and a `replace` of an absent object member adds it (the API server accepts both, and the
 * claim code relies on them). A failing operation throws a
 * JsonPatchError, which the fake answers with 422 Invalid, as the API server does.
 */
import type { JsonPatchOperation } from '../client/client.ts';
import { isJsonObject, jsonCopy } from './json-value.ts';
import type { JsonObject, JsonValue } from './json-value.ts';

/** An operation that cannot be applied. */
export class JsonPatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonPatchError';
  }
}

/** RFC 6901 pointer tokens: `/a/b~1c` ⇒ `['a', 'b/c']`. */
function tokens(pointer: string): string[] {
  if (pointer === '') {
    return [];
  }
  if (!pointer.startsWith('/')) {
    throw new JsonPatchError(`invalid JSON pointer ${JSON.stringify(pointer)}`);
  }
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
}

type Container = JsonObject | JsonValue[];

/** The container holding the last token of `path`, and that token. */
function parentOf(document: JsonValue, path: string): { parent: Container; key: string } {
  const parts = tokens(path);
  const key = parts.pop();
  if (key === undefined) {
    throw new JsonPatchError('the document root cannot be changed by this fake');
  }
  let current: JsonValue | undefined = document;
  for (const part of parts) {
    current = Array.isArray(current) ? current[Number(part)] : isJsonObject(current) ? current[part] : undefined;
    if (current === undefined) {
      throw new JsonPatchError(`path ${path}: ${part} does not exist`);
    }
  }
  if (!Array.isArray(current) && !isJsonObject(current)) {
    throw new JsonPatchError(`path ${path}: the parent is not an object or array`);
  }
  return { parent: current, key };
}

function valueAt(document: JsonValue, path: string): JsonValue | undefined {
  let current: JsonValue | undefined = document;
  for (const part of tokens(path)) {
    current = Array.isArray(current) ? current[Number(part)] : isJsonObject(current) ? current[part] : undefined;
  }
  return current;
}

function index(array: JsonValue[], key: string, options: { forInsert: boolean }): number {
  const position = key === '-' && options.forInsert ? array.length : Number(key);
  const max = options.forInsert ? array.length : array.length - 1;
  if (!Number.isInteger(position) || position < 0 || position > max) {
    throw new JsonPatchError(`array index ${key} is out of range`);
  }
  return position;
}

function add(document: JsonValue, path: string, value: JsonValue): void {
  const { parent, key } = parentOf(document, path);
  if (Array.isArray(parent)) {
    parent.splice(index(parent, key, { forInsert: true }), 0, value);
  } else {
    parent[key] = value;
  }
}

function remove(document: JsonValue, path: string): JsonValue {
  const { parent, key } = parentOf(document, path);
  if (Array.isArray(parent)) {
    return parent.splice(index(parent, key, { forInsert: false }), 1)[0] ?? null;
  }
  if (!Object.hasOwn(parent, key)) {
    throw new JsonPatchError(`path ${path} does not exist`);
  }
  const removed = parent[key] ?? null;
  Reflect.deleteProperty(parent, key);
  return removed;
}

function test(document: JsonValue, operation: JsonPatchOperation): void {
  const actual = valueAt(document, operation.path);
  const expected = (operation.value ?? null) as JsonValue;
  if (JSON.stringify(actual ?? null) !== JSON.stringify(expected)) {
    throw new JsonPatchError(`testing value ${operation.path} failed`);
  }
}

const OPERATIONS: Readonly<
  Record<JsonPatchOperation['op'], (document: JsonValue, operation: JsonPatchOperation) => void>
> = {
  add: (document, operation) => {
    add(document, operation.path, valueOf(operation));
  },
  remove: (document, operation) => {
    remove(document, operation.path);
  },
  replace: (document, operation) => {
    const { parent, key } = parentOf(document, operation.path);
    // The API server (evanphx/json-patch v4) replaces an absent object member as if added; only an
    // array index must exist. A claim's ownerReferences, absent under Retain, are replaced so.
    if (Array.isArray(parent) || Object.hasOwn(parent, key)) {
      remove(document, operation.path);
    }
    add(document, operation.path, valueOf(operation));
  },
  move: (document, operation) => {
    add(document, operation.path, remove(document, operation.from ?? ''));
  },
  copy: (document, operation) => {
    add(document, operation.path, jsonCopy(valueAt(document, operation.from ?? '') ?? null));
  },
  test,
};

function valueOf(operation: JsonPatchOperation): JsonValue {
  return jsonCopy((operation.value ?? null) as JsonValue);
}

/** `document` after the operations, applied in order to a copy; throws JsonPatchError when one fails. */
export function applyJsonPatch(document: JsonValue, operations: readonly JsonPatchOperation[]): JsonValue {
  const result = jsonCopy(document);
  for (const operation of operations) {
    OPERATIONS[operation.op](result, operation);
  }
  return result;
}
