/**
 * How a conversion keeps what the other version cannot hold, as Kubernetes' own conversions do
 * (autoscaling/v1 keeps v2's metrics in an annotation): converting from version X writes the fields it
 * changed, with their X values and the values it produced, into the annotation
 * `conversion.kruise-ts.io/<X>`; converting back to X puts the X values back when every changed field
 * still holds what was produced (all or nothing: a field edited in the other version since wins), and
 * removes the annotation. Only labels and annotations change in metadata, as the API server requires
 * of a conversion webhook.
 *
 * The annotation is user-writable, so a restore trusts nothing in it: only the fields its rule lists
 * (restorable-fields.ts), each value checked against its field's schema (record-reader.ts), and only
 * from a record that is not stale for the object (record-origin.ts).
 */
import { isDeepStrictEqual } from 'node:util';

import { isJsonObject, setValueAt, valueAt } from './json-path.ts';
import type { JsonObject } from './json-path.ts';
import { isStale, originOf } from './record-origin.ts';
import { readRecord } from './record-reader.ts';
import type { FieldChange } from './record-reader.ts';
import type { RestoreRule } from './restorable-fields.ts';

export type { JsonObject } from './json-path.ts';
export type { FieldChange } from './record-reader.ts';

/** The annotation prefix; the annotation of version X is `conversion.kruise-ts.io/<X>`. */
export const CONVERSION_ANNOTATION_PREFIX = 'conversion.kruise-ts.io/';

/** The annotation holding what converting from `version` changed. */
export function conversionAnnotation(version: string): string {
  return `${CONVERSION_ANNOTATION_PREFIX}${version}`;
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

/** What a restore put back, and how many entries of the record it ignored (not allowed, invalid, stale, or an unreadable record as one). */
export interface Restored {
  readonly paths: RestoredPaths;
  readonly ignored: number;
}

const NONE = new RestoredPaths([]);

/**
 * Puts back, into an object the caller owns, the values recorded when it was converted from the
 * rule's version, if the record is not stale and every recorded field still holds what that
 * conversion produced; removes the record either way. What the rule does not allow is ignored and
 * counted: a conversion never fails on a record.
 */
export function restoreRecordedFields(object: JsonObject, rule: RestoreRule): Restored {
  const key = conversionAnnotation(rule.version);
  const annotations = valueAt(object, ['metadata', 'annotations']);
  if (!isJsonObject(annotations) || !Object.hasOwn(annotations, key)) {
    return { paths: NONE, ignored: 0 };
  }
  const record = readRecord(annotations[key], rule);
  setValueAt(object, ['metadata', 'annotations', key], undefined);
  if (isStale(record.origin, object)) {
    return { paths: NONE, ignored: record.ignored + record.changes.length };
  }
  if (!record.changes.every((change) => isDeepStrictEqual(valueAt(object, change.path), change.produced))) {
    return { paths: NONE, ignored: record.ignored };
  }
  for (const change of record.changes) {
    setValueAt(object, change.path, change.original);
  }
  return { paths: new RestoredPaths(record.changes.map((change) => change.path)), ignored: record.ignored };
}

/**
 * Records `changes` made converting from the rule's version in the object's annotation (replacing an
 * older record), stamped as the rule says, or removes it when there are none.
 */
export function recordChangedFields(object: JsonObject, rule: RestoreRule, changes: readonly FieldChange[]): void {
  const key = conversionAnnotation(rule.version);
  if (changes.length === 0) {
    setValueAt(object, ['metadata', 'annotations', key], undefined);
    return;
  }
  setValueAt(object, ['metadata', 'annotations', key], JSON.stringify({ changes, ...originOf(object, rule.stamp) }));
}

/**
 * Changes `path` to `value` (undefined removes it) and returns the change; a field left as it was is
 * returned too (original and produced equal), so that the way back knows it was looked at.
 */
export function change(object: JsonObject, path: readonly string[], value: unknown): FieldChange | undefined {
  const original = valueAt(object, path);
  if (original === undefined && value === undefined) {
    return undefined;
  }
  setValueAt(object, path, value);
  return { path, ...(original === undefined ? {} : { original }), ...(value === undefined ? {} : { produced: value }) };
}
