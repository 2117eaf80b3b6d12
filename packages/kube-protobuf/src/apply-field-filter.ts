/**
 * A field filter applied to an object from JSON: the same fields left out as the decoder skips, so
 * that a cache fed from JSON holds what one fed from filtered protobuf does. Copies only the objects
 * on the filter's paths that lose a field; returns its input itself when nothing is to be left out
 * (an object decoded with the same filter), so that applying it again costs a walk, not a copy.
 */
import type { JsonObject } from './decode-message.ts';
import type { FieldFilter } from './field-filter.ts';
import type { PathNode } from './field-path.ts';

type Mode = FieldFilter['mode'];

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The items filtered; the same list when none changed. */
function applyList(list: readonly unknown[], node: PathNode, mode: Mode): readonly unknown[] {
  let items: unknown[] | undefined;
  for (let index = 0; index < list.length; index++) {
    const item: unknown = list[index];
    const filtered = applyNode(item, node, mode);
    if (filtered !== item) {
      items ??= list.slice();
      items[index] = filtered;
    }
  }
  return items ?? list;
}

/** The items of a list, or the values of a map, filtered; the same list or map when none changed. */
function applyItems(value: unknown, node: PathNode, mode: Mode): unknown {
  if (Array.isArray(value)) {
    return applyList(value, node, mode);
  }
  if (!isObject(value)) {
    return value;
  }
  let copy: JsonObject | undefined;
  for (const key of Object.keys(value)) {
    const filtered = applyNode(value[key], node, mode);
    if (filtered !== value[key]) {
      copy ??= { ...value };
      copy[key] = filtered;
    }
  }
  return copy ?? value;
}

/** The value a kept or descended-into field has after filtering. */
function applyChild(value: unknown, child: PathNode, mode: Mode): unknown {
  if (child.end) {
    return value;
  }
  return child.items ? applyItems(value, child, mode) : applyNode(value, child, mode);
}

/** Whether the object's own key stays. */
function keeps(node: PathNode, key: string, mode: Mode): boolean {
  const child = node.children.get(key);
  return mode === 'drop' ? child?.end !== true : child !== undefined;
}

/** The filtered values of the fields the node names, by name; undefined for a field left out. */
function filteredChildren(value: JsonObject, node: PathNode, mode: Mode): Map<string, unknown> | undefined {
  let changes: Map<string, unknown> | undefined;
  for (const [key, child] of node.children) {
    if (!Object.hasOwn(value, key)) {
      continue;
    }
    const kept = mode === 'drop' && child.end ? undefined : applyChild(value[key], child, mode);
    if (kept !== value[key]) {
      changes ??= new Map();
      changes.set(key, kept);
    }
  }
  return changes;
}

function applyNode(value: unknown, node: PathNode, mode: Mode): unknown {
  if (!isObject(value)) {
    return value;
  }
  const changes = filteredChildren(value, node, mode);
  if (changes === undefined && (mode === 'drop' || Object.keys(value).every((key) => keeps(node, key, mode)))) {
    return value;
  }
  const copy: JsonObject = {};
  for (const key of Object.keys(value)) {
    if (keeps(node, key, mode)) {
      copy[key] = changes?.has(key) === true ? changes.get(key) : value[key];
    }
  }
  return copy;
}

/**
 * The object without what the filter leaves out (an object of the filter's kind, as JSON.parse of the
 * API server's JSON gives it). Not changed: the objects that lose a field are copies.
 */
export function applyFieldFilter<T extends object>(object: T, filter: FieldFilter): T {
  return applyNode(object, filter.jsonTree, filter.mode) as T;
}
