/**
 * Reading a conversion record from its annotation, which anyone who may write the object may write:
 * bounded before it is parsed, each entry taken only when its path is one the rule lists and its value
 * passes that field's schema; everything else is ignored and counted, never an error.
 */
import { z } from 'zod';

import { jsonShapeProblem } from './json-path.ts';
import type { RestorableField, RestoreRule } from './restorable-fields.ts';

/** One field a conversion changed: its path from the object root, its value before and after (absent: undefined). */
export interface FieldChange {
  readonly path: readonly string[];
  readonly original?: unknown;
  readonly produced?: unknown;
}

/** Which object, at which generation and spec, a record was written from (absent: the object had none, as at a create). */
export interface RecordOrigin {
  readonly uid?: string;
  readonly generation?: number;
  /** A hash of the spec of the view the record was written with (record-origin.ts). */
  readonly specHash?: string;
}

/** A record as read: the entries it may restore, where it came from, and how many entries were ignored. */
export interface ReadRecord {
  readonly changes: readonly FieldChange[];
  readonly origin: RecordOrigin;
  readonly ignored: number;
}

/**
 * The longest annotation read: 256 KiB, the API server's limit on all annotations of an object
 * together, so a record an object can carry is never refused for its size; the bound keeps the parse
 * of a hostile one cheap.
 */
export const MAX_RECORD_LENGTH = 256 * 1024;

/** The deepest entry read; the restorable values are a few levels deep (a label selector, a lifecycle hook). */
export const MAX_ENTRY_DEPTH = 32;

/** Longer than any restorable path; a longer one is refused before it is looked at. */
const MAX_PATH_STEPS = 8;

const envelopeSchema = z.object({
  changes: z.array(z.unknown()),
  uid: z.string().optional(),
  generation: z.int().optional(),
  specHash: z.string().max(64).optional(),
});
const entrySchema = z.object({
  path: z.array(z.string()).min(1).max(MAX_PATH_STEPS),
  original: z.unknown().optional(),
  produced: z.unknown().optional(),
});

const UNREADABLE: ReadRecord = { changes: [], origin: {}, ignored: 1 };

function pathKey(path: readonly string[]): string {
  return JSON.stringify(path);
}

function parseBounded(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The entry as a change the rule allows, or undefined when it is not one. */
function allowedChange(entry: unknown, fields: ReadonlyMap<string, RestorableField>): FieldChange | undefined {
  if (jsonShapeProblem(entry, { maxDepth: MAX_ENTRY_DEPTH, refusePrototypeKeys: true }) !== undefined) {
    return undefined;
  }
  const parsed = entrySchema.safeParse(entry);
  if (!parsed.success) {
    return undefined;
  }
  const { path, original, produced } = parsed.data;
  const field = fields.get(pathKey(path));
  // undefined is a removal, which every restorable field allows; a value must be one the field can hold.
  if (field === undefined || (original !== undefined && !field.schema.safeParse(original).success)) {
    return undefined;
  }
  return {
    path: field.path,
    ...(original === undefined ? {} : { original }),
    ...(produced === undefined ? {} : { produced }),
  };
}

/** The record of `text` under `rule`; an annotation that is not a readable record counts as one ignored entry. */
export function readRecord(text: unknown, rule: RestoreRule): ReadRecord {
  if (typeof text !== 'string' || text.length > MAX_RECORD_LENGTH) {
    return UNREADABLE;
  }
  const envelope = envelopeSchema.safeParse(parseBounded(text));
  if (!envelope.success) {
    return UNREADABLE;
  }
  const fields = new Map(rule.fields.map((field) => [pathKey(field.path), field]));
  const changes: FieldChange[] = [];
  for (const entry of envelope.data.changes) {
    const change = allowedChange(entry, fields);
    if (change === undefined) {
      continue;
    }
    // A path listed twice: the first entry holds (no write of ours lists one twice).
    fields.delete(pathKey(change.path));
    changes.push(change);
  }
  const { uid, generation, specHash } = envelope.data;
  const origin = {
    ...(uid === undefined ? {} : { uid }),
    ...(generation === undefined ? {} : { generation }),
    ...(specHash === undefined ? {} : { specHash }),
  };
  return { changes, origin, ignored: envelope.data.changes.length - changes.length };
}
