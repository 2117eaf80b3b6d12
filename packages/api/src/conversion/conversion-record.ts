/**
 * How a conversion keeps what the other version cannot hold, as Kubernetes' own conversions do
 * (autoscaling/v1 keeps v2's metrics in an annotation): converting from version X writes the fields it
 * changed, with their X values and the values it produced, into the annotation
 * `conversion.kruise-ts.io/<X>`; converting back to X puts the X values back when every changed field
 * still holds what was produced (all or nothing: a field edited in the other version since wins), and
 * removes the annotation. Only labels and annotations change in metadata, as the API server requires
 * of a conversion webhook.
 */
import { isDeepStrictEqual } from 'node:util';

import { z } from 'zod';

/** A JSON object as conversions handle it. */
export type JsonObject = Record<string, unknown>;

/** One field a conversion changed: its path from the object root, its value before and after (absent: undefined). */
export interface FieldChange {
  readonly path: readonly string[];
  readonly original?: unknown;
  readonly produced?: unknown;
}

/** The annotation prefix; the annotation of version X is `conversion.kruise-ts.io/<X>`. */
export const CONVERSION_ANNOTATION_PREFIX = 'conversion.kruise-ts.io/';

/** The annotation holding what converting from `version` changed. */
export function conversionAnnotation(version: string): string {
  return `${CONVERSION_ANNOTATION_PREFIX}${version}`;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value at `path`, undefined when a step is missing. */
export function valueAt(object: JsonObject, path: readonly string[]): unknown {
  let current: unknown = object;
  for (const key of path) {
    if (!isObject(current) || !Object.hasOwn(current, key)) return undefined;
    current = current[key];
  }
  return current;
}

/**
 * Sets (or, with undefined, removes) the value at `path` of an object the caller owns, creating the
 * objects on the way; labels or annotations left empty by a removal are removed too (the API server
 * does not keep an empty map there).
 */
export function setValueAt(object: JsonObject, path: readonly string[], value: unknown): void {
  const pruneEmpty = path[0] === 'metadata';
  const set = (at: JsonObject, rest: readonly string[]): void => {
    const [head, ...tail] = rest;
    if (head === undefined) return;
    if (tail.length === 0) {
      if (value === undefined) Reflect.deleteProperty(at, head);
      else at[head] = value;
      return;
    }
    let child = at[head];
    if (!isObject(child)) {
      if (value === undefined) return;
      child = {};
      at[head] = child;
    }
    set(child as JsonObject, tail);
    if (pruneEmpty && value === undefined && Object.keys(child as JsonObject).length === 0) Reflect.deleteProperty(at, head);
  };
  set(object, path);
}

function annotationsOf(object: JsonObject): JsonObject | undefined {
  const annotations = valueAt(object, ['metadata', 'annotations']);
  return isObject(annotations) ? annotations : undefined;
}

const recordSchema = z.object({
  changes: z.array(z.object({ path: z.array(z.string()).min(1), original: z.unknown().optional(), produced: z.unknown().optional() })),
});

function parseChanges(text: unknown): FieldChange[] | undefined {
  if (typeof text !== 'string') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const record = recordSchema.safeParse(parsed);
  // undefined and absent are the same here: a change recorded without `original` put back a removal.
  return record.success ? record.data.changes.map(({ path, original, produced }) => ({ path, ...(original === undefined ? {} : { original }), ...(produced === undefined ? {} : { produced }) })) : undefined;
}

/** The paths a restore put back, to be left alone by the rest of the conversion. */
export class RestoredPaths {
  readonly #keys: ReadonlySet<string>;

  constructor(paths: readonly (readonly string[])[]) {
    this.#keys = new Set(paths.map(pathKey));
  }

  /** Whether any of `paths` was put back. */
  includesAny(...paths: readonly (readonly string[])[]): boolean {
    return paths.some((path) => this.#keys.has(pathKey(path)));
  }
}

function pathKey(path: readonly string[]): string {
  return JSON.stringify(path);
}

/**
 * Puts back, into an object the caller owns, the values recorded when it was converted from
 * `targetVersion`, if every recorded field still holds what that conversion produced; removes the
 * record either way. A record that cannot be read is dropped: a conversion never fails on it.
 */
export function restoreRecordedFields(object: JsonObject, targetVersion: string): RestoredPaths {
  const key = conversionAnnotation(targetVersion);
  const annotations = annotationsOf(object);
  if (annotations === undefined || !Object.hasOwn(annotations, key)) return new RestoredPaths([]);
  const changes = parseChanges(annotations[key]);
  setValueAt(object, ['metadata', 'annotations', key], undefined);
  if (changes === undefined || !changes.every((change) => isDeepStrictEqual(valueAt(object, change.path), change.produced))) return new RestoredPaths([]);
  for (const change of changes) setValueAt(object, change.path, change.original);
  return new RestoredPaths(changes.map((change) => change.path));
}

/** Records `changes` made converting from `sourceVersion` in the object's annotation (replacing an older record), or removes it when there are none. */
export function recordChangedFields(object: JsonObject, sourceVersion: string, changes: readonly FieldChange[]): void {
  const key = conversionAnnotation(sourceVersion);
  if (changes.length === 0) {
    setValueAt(object, ['metadata', 'annotations', key], undefined);
    return;
  }
  setValueAt(object, ['metadata', 'annotations', key], JSON.stringify({ changes }));
}

/**
 * Changes `path` to `value` (undefined removes it) and returns the change; a field left as it was is
 * returned too (original and produced equal), so that the way back knows it was looked at.
 */
export function change(object: JsonObject, path: readonly string[], value: unknown): FieldChange | undefined {
  const original = valueAt(object, path);
  if (original === undefined && value === undefined) return undefined;
  setValueAt(object, path, value);
  return { path, ...(original === undefined ? {} : { original }), ...(value === undefined ? {} : { produced: value }) };
}
