/**
 * A structural JSON diff with the operations of the RFC 6902 diff OpenKruise takes between two
 * revisions (github.com/appscode/jsonpatch v1.0.1 CreatePatch), in the cases that decide an in-place
 * update:
 * - objects: `add` for a new key, `remove` for a missing key, recursion for common keys;
 * - `null` → value is an `add`; a change of JSON type is a `replace`; differing scalars a `replace`;
 * - arrays: element by element over the common length, `remove` for surplus old elements (last
 *   first) and `add` for surplus new ones.
 * appscode diffs "simple" arrays (scalars or flat objects such as `env` or `args`) by edit distance
 * instead; that changes which paths are reported inside such an array, never whether something under
 * `/spec` changed, so the in-place decision is the same.
 */
import { deepEqual } from '@kruise-ts/controller-runtime';

/** A path: object keys and array indexes from the root. */
export type JsonPath = readonly (string | number)[];

/** One difference between two documents. */
export interface DiffOperation {
  readonly op: 'add' | 'remove' | 'replace';
  readonly path: JsonPath;
  /** The new value (`add`, `replace`). */
  readonly value?: unknown;
}

type JsonKind = 'null' | 'object' | 'array' | 'string' | 'number' | 'boolean';

function kindOf(value: unknown): JsonKind {
  if (value === null || value === undefined) {
    return 'null';
  }
  if (Array.isArray(value)) {
    return 'array';
  }
  return typeof value === 'object' ? 'object' : (typeof value as 'string' | 'number' | 'boolean');
}

/** Where a comparison happens: the path so far and the list operations are appended to. */
interface At {
  readonly path: JsonPath;
  readonly out: DiffOperation[];
}

function child(at: At, part: string | number): At {
  return { path: [...at.path, part], out: at.out };
}

function diffObjects(from: Readonly<Record<string, unknown>>, to: Readonly<Record<string, unknown>>, at: At): void {
  for (const [key, value] of Object.entries(to)) {
    if (Object.hasOwn(from, key)) {
      diffValues(from[key], value, child(at, key));
    } else {
      at.out.push({ op: 'add', path: [...at.path, key], value });
    }
  }
  for (const key of Object.keys(from)) {
    if (!Object.hasOwn(to, key)) {
      at.out.push({ op: 'remove', path: [...at.path, key] });
    }
  }
}

function diffArrays(from: readonly unknown[], to: readonly unknown[], at: At): void {
  const common = Math.min(from.length, to.length);
  for (let index = from.length - 1; index >= common; index--) {
    at.out.push({ op: 'remove', path: [...at.path, index] });
  }
  for (let index = common; index < to.length; index++) {
    at.out.push({ op: 'add', path: [...at.path, index], value: to[index] });
  }
  for (let index = 0; index < common; index++) {
    diffValues(from[index], to[index], child(at, index));
  }
}

function diffValues(from: unknown, to: unknown, at: At): void {
  const fromKind = kindOf(from);
  const toKind = kindOf(to);
  if (fromKind === 'null' || toKind !== fromKind) {
    if (toKind !== 'null' || fromKind !== 'null') {
      at.out.push({ op: fromKind === 'null' ? 'add' : 'replace', path: at.path, value: to });
    }
    return;
  }
  if (fromKind === 'object') {
    diffObjects(from as Readonly<Record<string, unknown>>, to as Readonly<Record<string, unknown>>, at);
  } else if (fromKind === 'array') {
    diffArrays(from as readonly unknown[], to as readonly unknown[], at);
  } else if (!deepEqual(from, to)) {
    at.out.push({ op: 'replace', path: at.path, value: to });
  }
}

/**
 * The operations that turn `from` into `to`. Example: `{a:{b:1,c:2}}` → `{a:{b:3},d:[1]}` gives
 * `replace /a/b 3`, `remove /a/c`, `add /d [1]`.
 */
export function diffJson(from: unknown, to: unknown): DiffOperation[] {
  const out: DiffOperation[] = [];
  diffValues(from, to, { path: [], out });
  return out;
}

/** A path as a field reference for messages: `spec.containers[0].env`. */
export function describePath(path: JsonPath): string {
  return path
    .map((part, index) => (typeof part === 'number' ? `[${String(part)}]` : index === 0 ? part : `.${part}`))
    .join('');
}
