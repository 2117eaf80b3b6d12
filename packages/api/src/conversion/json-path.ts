/**
 * Reading and writing JSON objects by path, safe for values that came from outside the process: only
 * own properties are read, writes define own data properties (an assignment to `__proto__` would
 * replace a prototype), the steps that lead to a prototype are refused, and nothing recurses, so no
 * depth of input can exhaust the stack.
 */

/** A JSON object as conversions handle it. */
export type JsonObject = Record<string, unknown>;

/** Keys that reach a prototype from a plain object or a function: never a step of a path, never a key of a restored value. */
const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** Whether `key` leads to a prototype (see PROTOTYPE_KEYS). */
export function isPrototypeKey(key: string): boolean {
  return PROTOTYPE_KEYS.has(key);
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value at `path`, undefined when a step is missing, not an own property, or a prototype key. */
export function valueAt(object: JsonObject, path: readonly string[]): unknown {
  let current: unknown = object;
  for (const key of path) {
    if (!isJsonObject(current) || isPrototypeKey(key) || !Object.hasOwn(current, key)) {
      return undefined;
    }
    current = current[key];
  }
  return current;
}

function defineOwn(at: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(at, key, { value, writable: true, enumerable: true, configurable: true });
}

/** The objects from the root to the parent of the last step, created on the way when `create`; undefined when a step is missing. */
function parentsOf(object: JsonObject, path: readonly string[], create: boolean): JsonObject[] | undefined {
  const chain = [object];
  let at = object;
  for (const key of path.slice(0, -1)) {
    let child = Object.hasOwn(at, key) ? at[key] : undefined;
    if (!isJsonObject(child)) {
      if (!create) {
        return undefined;
      }
      child = {};
      defineOwn(at, key, child);
    }
    at = child as JsonObject;
    chain.push(at);
  }
  return chain;
}

/**
 * Sets (or, with undefined, removes) the value at `path` of an object the caller owns, creating the
 * objects on the way; labels or annotations left empty by a removal are removed too (the API server
 * does not keep an empty map there). A path with a prototype key is left alone: no caller has one.
 */
export function setValueAt(object: JsonObject, path: readonly string[], value: unknown): void {
  const last = path.at(-1);
  if (last === undefined || path.some(isPrototypeKey)) {
    return;
  }
  const chain = parentsOf(object, path, value !== undefined);
  if (chain === undefined) {
    return;
  }
  const parent = chain.at(-1) ?? object;
  if (value !== undefined) {
    defineOwn(parent, last, value);
    return;
  }
  Reflect.deleteProperty(parent, last);
  if (path[0] === 'metadata') {
    pruneEmpty(chain, path);
  }
}

/** Removes, from the deepest up, the objects of `chain` (the parents along `path`) a removal left empty. */
function pruneEmpty(chain: readonly JsonObject[], path: readonly string[]): void {
  for (let level = chain.length - 1; level > 0; level--) {
    const emptied = chain[level];
    const holder = chain[level - 1];
    const step = path[level - 1];
    if (emptied === undefined || holder === undefined || step === undefined || Object.keys(emptied).length > 0) {
      return;
    }
    Reflect.deleteProperty(holder, step);
  }
}

/**
 * Why a JSON value cannot be taken as it is: nested deeper than `maxDepth` (a scalar is depth 0, `{}`
 * and `[]` depth 1) or, with `refusePrototypeKeys`, an object with a prototype key at any depth.
 * Walks with its own stack, so a value too deep for recursion is measured, not thrown on.
 */
export function jsonShapeProblem(
  value: unknown,
  limits: { readonly maxDepth: number; readonly refusePrototypeKeys: boolean },
): string | undefined {
  const pending: { readonly value: unknown; readonly depth: number }[] = [{ value, depth: 0 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (typeof next.value !== 'object' || next.value === null) {
      continue;
    }
    const depth = next.depth + 1;
    if (depth > limits.maxDepth) {
      return `nested deeper than ${limits.maxDepth} levels`;
    }
    const keys = Object.keys(next.value);
    if (limits.refusePrototypeKeys && !Array.isArray(next.value) && keys.some(isPrototypeKey)) {
      return 'a prototype key';
    }
    for (const child of Object.values(next.value)) {
      pending.push({ value: child, depth });
    }
  }
  return undefined;
}
