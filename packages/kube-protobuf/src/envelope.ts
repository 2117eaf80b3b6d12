/**
 * The `k8s\0` envelope of Kubernetes protobuf: four magic bytes, then runtime.Unknown {typeMeta=1
 * {apiVersion=1, kind=2}, raw=2, contentEncoding=3, contentType=4}, whose raw bytes are the object of
 * that kind. The object comes back as JSON has it: `kind` and `apiVersion` first, then its fields.
 */
import { decodeFields } from './decode-message.ts';
import { filteredTable } from './field-filter.ts';
import type { FieldFilter } from './field-filter.ts';
import type { JsonObject } from './decode-message.ts';
import { guarded } from './guarded.ts';
import type { DecodeOptions } from './guarded.ts';
import { Reader, WireType } from './reader.ts';
import { kindTable } from './tables.ts';
import type { MessageTable } from './tables.ts';

/** The media type of Kubernetes protobuf, as an Accept or Content-Type header names it. */
export const PROTOBUF_MEDIA_TYPE = 'application/vnd.kubernetes.protobuf';

const MAGIC = [0x6b, 0x38, 0x73, 0x00] as const;

const TYPE_META = (1 << 3) | WireType.bytes;
const RAW = (2 << 3) | WireType.bytes;
const API_VERSION = (1 << 3) | WireType.bytes;
const KIND = (2 << 3) | WireType.bytes;
/** Unknown's fields: 1-4, all length-delimited. */
const UNKNOWN_FIELDS = 4;

function checkMagic(r: Reader): void {
  for (let i = 0; i < MAGIC.length; i++) {
    if (r.pos + i >= r.end || r.bytes[r.pos + i] !== MAGIC[i]) {
      r.fail('not the k8s\\0 envelope of Kubernetes protobuf');
    }
  }
  r.pos += MAGIC.length;
}

/** Skips a field of a number above Unknown's; one of its numbers with another wire type is an error. */
function skipUnknown(r: Reader, tag: number): void {
  if (tag >>> 3 <= UNKNOWN_FIELDS && (tag & 7) !== WireType.bytes) {
    r.fail(`wire type ${tag & 7} for field ${tag >>> 3} of the envelope`);
  }
  r.skip(tag & 7);
}

interface Envelope {
  apiVersion: string;
  kind: string;
  /** Where the object's bytes are; -1 until the raw field is read. */
  rawStart: number;
  rawEnd: number;
}

function readTypeMeta(r: Reader, envelope: Envelope): void {
  const outer = r.enter();
  while (r.more()) {
    const tag = r.tag();
    if (tag === API_VERSION) {
      envelope.apiVersion = r.string();
    } else if (tag === KIND) {
      envelope.kind = r.string();
    } else {
      skipUnknown(r, tag);
    }
  }
  r.leave(outer);
}

/** Reads runtime.Unknown up to `r.end`: the type and where the raw object is. */
function readEnvelope(r: Reader): Envelope {
  checkMagic(r);
  const envelope: Envelope = { apiVersion: '', kind: '', rawStart: -1, rawEnd: -1 };
  while (r.more()) {
    const tag = r.tag();
    if (tag === TYPE_META) {
      readTypeMeta(r, envelope);
    } else if (tag === RAW) {
      envelope.rawEnd = r.delimited();
      envelope.rawStart = r.pos;
      r.pos = envelope.rawEnd;
    } else {
      skipUnknown(r, tag);
    }
  }
  return envelope;
}

/** The kind's object with its type first, as Go's JSON writes it. */
function typed(table: MessageTable, kind: string, apiVersion: string): JsonObject {
  const object = new table.construct();
  object['kind'] = kind;
  object['apiVersion'] = apiVersion;
  return object;
}

/** Decodes the envelope from `r.pos` to `r.end` (a whole answer, or a watch event's object). */
export function decodeEnvelope(r: Reader, filter: FieldFilter | undefined): JsonObject {
  const outerType = r.typeName;
  r.typeName = 'envelope';
  const start = r.pos;
  const end = r.end;
  const { apiVersion, kind, rawStart, rawEnd } = readEnvelope(r);
  const table =
    kindTable(apiVersion, kind) ??
    r.fail(`kind ${JSON.stringify(kind)} of ${JSON.stringify(apiVersion)}, which the wire tables do not cover`, start);
  if (rawStart < 0) {
    // Go would decode a zero object; the API server always writes the raw field (empty for an empty
    // object), so an envelope without one is an answer cut short, not an object.
    r.fail('an envelope without the object', start);
  }
  const filtered = filteredTable(table, filter);
  const object = typed(filtered, kind, apiVersion);
  r.pos = rawStart;
  r.end = rawEnd;
  decodeFields(filtered, r, object);
  // An empty list has no items on the wire, which Go decodes as nil (`null`); the API server's JSON of
  // a list has `[]` (apiserver's meta.SetList makes the slice), and so must ours.
  if (object['items'] === null && kind.endsWith('List')) {
    object['items'] = [];
  }
  r.pos = end;
  r.end = end;
  r.typeName = outerType;
  return object;
}

/**
 * An answer of the API server in protobuf (a get, a list, or the Status of an error) as the object
 * JSON.parse of its JSON answer gives. `options.resource` names what was read in a {@link DecodeError}.
 */
export function decodeObject(bytes: Uint8Array, options: DecodeOptions = {}): JsonObject {
  return guarded('envelope', options, () => {
    const r = new Reader(bytes, 'envelope', options.resource);
    return decodeEnvelope(r, options.filter);
  });
}
