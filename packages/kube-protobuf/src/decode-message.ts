/**
 * A protobuf message decoded by its table straight into the object JSON.parse of Go's JSON of it
 * gives: JSON names, omitempty's zeros left out, Go's zero values written for fields the wire lacks,
 * inlined structs merged into their parent, and the special types in their JSON form. No intermediate
 * message objects; unknown fields are skipped by their length.
 */
import type { Reader } from './reader.ts';
import { readIntOrString, readMicroTime, readQuantity, readRawJson, readTime } from './specials.ts';
import { Shape, ValueKind } from './tables.ts';
import type { FieldTable, MessageTable } from './tables.ts';

/** A JSON object as JSON.parse builds it. */
export type JsonObject = Record<string, unknown>;

function readMessage(r: Reader, field: FieldTable): JsonObject {
  const table = field.message ?? r.fail(`no table for ${field.name}`);
  const target = new table.construct();
  decodeNested(table, r, target);
  return target;
}

function readBytes(r: Reader): string {
  const valueEnd = r.delimited();
  const text = r.bytes.toString('base64', r.pos, valueEnd);
  r.pos = valueEnd;
  return text;
}

/** A scalar (branches, not a table of functions: one call site per kind keeps V8's calls monomorphic). */
function readScalar(r: Reader, kind: ValueKind): unknown {
  if (kind === ValueKind.string) {
    return r.string();
  }
  if (kind === ValueKind.int32) {
    return r.int32();
  }
  if (kind === ValueKind.bool) {
    return r.bool();
  }
  if (kind === ValueKind.int64) {
    return r.int64();
  }
  if (kind === ValueKind.uint32) {
    return r.uint32();
  }
  if (kind === ValueKind.uint64) {
    return r.uint64();
  }
  return kind === ValueKind.double ? r.double() : readBytes(r);
}

function readSpecial(r: Reader, field: FieldTable): unknown {
  const kind = field.kind;
  if (kind === ValueKind.message) {
    return readMessage(r, field);
  }
  if (kind === ValueKind.time) {
    return readTime(r);
  }
  if (kind === ValueKind.quantity) {
    return readQuantity(r);
  }
  if (kind === ValueKind.intOrString) {
    return readIntOrString(r);
  }
  if (kind === ValueKind.microTime) {
    return readMicroTime(r);
  }
  if (kind === ValueKind.rawJson) {
    return readRawJson(r);
  }
  // Only a watch event holds a whole object; decodeWatchEvent reads it.
  return r.fail('an embedded object outside a watch event');
}

function readValue(r: Reader, field: FieldTable): unknown {
  return field.kind <= ValueKind.bytes ? readScalar(r, field.kind) : readSpecial(r, field);
}

/** Sets a map key as JSON.parse would, also `__proto__` (an own property, not the prototype). */
function setKey(target: JsonObject, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

/** Go's zero of one value of the field, as JSON: a struct's is an object of its own zero fields. */
function zeroValueOf(field: FieldTable): unknown {
  if (field.kind === ValueKind.message && field.message !== undefined) {
    const target = new field.message.construct();
    fillZeros(field.message, target);
    return target;
  }
  return field.valueZero;
}

/** Writes the Go zero values JSON has for fields the wire did not carry (nil pointers, lists and maps: null). */
function fillZeros(table: MessageTable, target: JsonObject): void {
  for (const field of table.zeros) {
    if (target[field.name] === undefined) {
      target[field.name] = field.shape === Shape.value ? zeroValueOf(field) : null;
    }
  }
}

const MAP_KEY = (1 << 3) | 2;

/** A map entry {key=1, value=2}; a missing key or value is its zero. */
function readMapEntry(r: Reader, field: FieldTable, map: JsonObject): void {
  const outer = r.enter();
  let key = '';
  let value: unknown = undefined;
  const valueTag = (2 << 3) | field.wire;
  while (r.more()) {
    const start = r.pos;
    const tag = r.tag();
    if (tag === MAP_KEY) {
      key = r.string();
    } else if (tag === valueTag) {
      value = readValue(r, field);
    } else if (tag >>> 3 <= 2) {
      r.fail(`wire type ${tag & 7} in an entry of map ${field.name}`, start);
    } else {
      r.skip(tag & 7);
    }
  }
  r.leave(outer);
  setKey(map, key, value === undefined ? zeroValueOf(field) : value);
}

/** The object of a map (`table` undefined) or message field, created when the field is first seen. */
function objectAt(target: JsonObject, name: string, table: MessageTable | undefined): JsonObject {
  const existing = target[name];
  if (typeof existing === 'object' && existing !== null && !Array.isArray(existing)) {
    return existing as JsonObject;
  }
  const created: JsonObject = table === undefined ? {} : new table.construct();
  target[name] = created;
  return created;
}

function push(target: JsonObject, name: string, value: unknown): void {
  const list = target[name];
  if (Array.isArray(list)) {
    list.push(value);
  } else {
    target[name] = [value];
  }
}

/** One value of a value or pointer field: as in Go, a later occurrence replaces a scalar and merges into a message. */
function setValue(r: Reader, field: FieldTable, target: JsonObject): void {
  if (field.kind === ValueKind.message && field.message !== undefined) {
    decodeNested(field.message, r, objectAt(target, field.name, field.message));
    return;
  }
  const value = readValue(r, field);
  if (value !== field.omitted) {
    target[field.name] = value;
  } else if (field.name in target) {
    // A zero after a value: Go keeps the zero, which JSON then leaves out.
    Reflect.deleteProperty(target, field.name);
  }
}

function readField(r: Reader, field: FieldTable, target: JsonObject): void {
  switch (field.shape) {
    case Shape.value:
    case Shape.pointer:
      setValue(r, field, target);
      return;
    case Shape.repeated:
      push(target, field.name, readValue(r, field));
      return;
    case Shape.map:
      readMapEntry(r, field, objectAt(target, field.name, undefined));
      return;
    case Shape.inline:
      decodeNested(field.message ?? r.fail(`no table for inlined ${field.name}`), r, target);
      return;
  }
}

/** A packed run of numbers or booleans (proto2 writes them unpacked, but a decoder must accept both). */
function readPacked(r: Reader, field: FieldTable, target: JsonObject): void {
  const outer = r.enter();
  while (r.more()) {
    push(target, field.name, readValue(r, field));
  }
  r.leave(outer);
}

/** Decodes a length-delimited message at `r.pos` into `target`. */
function decodeNested(table: MessageTable, r: Reader, target: JsonObject): void {
  const outer = r.enter();
  decodeFields(table, r, target);
  r.leave(outer);
}

/** Decodes the fields of the message from `r.pos` to `r.end` into `target`, then writes the zeros JSON has. */
export function decodeFields(table: MessageTable, r: Reader, target: JsonObject): void {
  const outerType = r.typeName;
  r.typeName = table.name;
  const fields = table.fields;
  while (r.pos < r.end) {
    const start = r.pos;
    const tag = r.tag();
    const field = fields[tag >>> 3];
    const wireType = tag & 7;
    if (field === undefined) {
      r.skip(wireType);
    } else if (wireType === field.wire) {
      readField(r, field, target);
    } else if (field.packable && wireType === 2) {
      readPacked(r, field, target);
    } else {
      r.fail(`wire type ${wireType} for field ${tag >>> 3} (${field.name || 'inline'})`, start);
    }
  }
  fillZeros(table, target);
  trimLists(table, target);
  r.typeName = outerType;
}

/**
 * Each list at its length: a list grown by push has room for more (17 items once it holds 2), which
 * the cache would keep for as long as it holds the object; JSON.parse sizes its arrays exactly.
 */
function trimLists(table: MessageTable, target: JsonObject): void {
  for (const name of table.lists) {
    const list = target[name];
    if (Array.isArray(list) && list.length > 1) {
      target[name] = list.slice();
    }
  }
}
