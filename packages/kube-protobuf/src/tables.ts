/**
 * The generated wire tables, linked once at load into what the decoder walks: per message, its fields
 * in an array indexed by field number (one array read per field on the wire), each with its JSON name,
 * shape, value kind, wire type and the value JSON omits; and the fields JSON has even when the wire
 * does not (a zero Go field, written by Go's JSON encoder unless omitempty drops it).
 */
import type { JsonObject } from './decode-message.ts';
import type { WireField } from './wire-table-types.ts';
import { WIRE_KINDS, WIRE_STRUCTS } from './wire-tables.generated.ts';

/** What one value is, on the wire and in JSON. */
export const ValueKind = {
  string: 0,
  bool: 1,
  int32: 2,
  int64: 3,
  uint32: 4,
  uint64: 5,
  double: 6,
  bytes: 7,
  message: 8,
  time: 9,
  microTime: 10,
  quantity: 11,
  intOrString: 12,
  rawJson: 13,
  object: 14,
} as const;
export type ValueKind = (typeof ValueKind)[keyof typeof ValueKind];

/** How a field holds its values: one (a Go value or pointer), a list, a map, or a struct inlined into its parent's JSON. */
export const Shape = { value: 0, pointer: 1, repeated: 2, map: 3, inline: 4 } as const;
export type Shape = (typeof Shape)[keyof typeof Shape];

/** A JSON value a zero field can have without building anything. */
type Scalar = string | number | boolean | null;

export interface FieldTable {
  readonly name: string;
  readonly shape: Shape;
  /** The kind of one value (of a map: of its values). */
  readonly kind: ValueKind;
  /** The wire type of one value. */
  readonly wire: number;
  /** Numbers and booleans in a list: also accepted packed (one length-delimited run). */
  readonly packable: boolean;
  /** The value JSON leaves out (omitempty's zero of a Go value; null for an omitzero time); undefined: never left out. */
  readonly omitted: Scalar | undefined;
  /** The JSON of Go's zero of one value (kind message: built from `message` instead). */
  readonly valueZero: Scalar;
  /** JSON has the field even when the wire does not: Go writes every field that omitempty and omitzero do not drop. */
  readonly inJsonWhenAbsent: boolean;
  readonly message: MessageTable | undefined;
}

export interface MessageTable {
  readonly name: string;
  readonly fields: readonly (FieldTable | undefined)[];
  /** Fields that JSON has even when the wire does not (inlined structs' included). */
  readonly zeros: readonly FieldTable[];
  /** The names of the list fields, whose lists the decoder trims to their length once the message is read. */
  readonly lists: readonly string[];
  /** Builds the message's object: a plain object, sized by V8 to what this message's objects hold. */
  readonly construct: PlainObjectConstructor;
}

/** `new` of it gives an empty plain object (prototype Object.prototype). */
export type PlainObjectConstructor = new () => JsonObject;

/**
 * A constructor of plain objects of its own. Why not `{}`: an object literal has room for 4
 * properties in the object, and a message with more keeps the rest in a separate, over-allocated
 * property array; V8 sizes a constructor's objects to what its first objects came to hold (slack
 * tracking), as JSON.parse sizes each object to its keys. One constructor per message table, so that
 * each learns one struct's size. The prototype is Object.prototype: the objects are the plain
 * objects JSON.parse gives (deep equality compares prototypes).
 */
export function plainObjectConstructor(): PlainObjectConstructor {
  const construct = function PlainObject(): void {
    // Properties are added by the decoder.
  };
  construct.prototype = Object.prototype;
  return construct as unknown as PlainObjectConstructor;
}

/** The names of the list fields of a message (not of its inlined structs: they are decoded as messages of their own). */
export function listsOf(fields: readonly (FieldTable | undefined)[]): string[] {
  return fields.flatMap((field) => (field?.shape === Shape.repeated ? [field.name] : []));
}

const SCALARS: Readonly<Record<string, ValueKind>> = {
  string: ValueKind.string,
  bool: ValueKind.bool,
  int32: ValueKind.int32,
  int64: ValueKind.int64,
  uint32: ValueKind.uint32,
  uint64: ValueKind.uint64,
  double: ValueKind.double,
  bytes: ValueKind.bytes,
  Time: ValueKind.time,
  MicroTime: ValueKind.microTime,
  Quantity: ValueKind.quantity,
  IntOrString: ValueKind.intOrString,
  RawJSON: ValueKind.rawJson,
  Object: ValueKind.object,
};

/** Go's zero value of a kind, as JSON (encoding/json, and the MarshalJSON of the special types). */
const ZERO: Readonly<Record<ValueKind, Scalar>> = {
  [ValueKind.string]: '',
  [ValueKind.bool]: false,
  [ValueKind.int32]: 0,
  [ValueKind.int64]: 0,
  [ValueKind.uint32]: 0,
  [ValueKind.uint64]: 0,
  [ValueKind.double]: 0,
  // A nil []byte; omitempty compares with '' (an empty one, base64).
  [ValueKind.bytes]: null,
  // Built from the message table instead.
  [ValueKind.message]: null,
  [ValueKind.time]: null,
  [ValueKind.microTime]: null,
  [ValueKind.quantity]: '0',
  [ValueKind.intOrString]: 0,
  [ValueKind.rawJson]: null,
  [ValueKind.object]: null,
};

function wireOf(kind: ValueKind): number {
  if (kind === ValueKind.double) {
    return 1;
  }
  return kind >= ValueKind.bool && kind <= ValueKind.uint64 ? 0 : 2;
}

interface ParsedType {
  readonly shape: Shape;
  readonly base: string;
}

function parseType(type: string, options: readonly string[]): ParsedType {
  if (type.startsWith('*')) {
    return { shape: Shape.pointer, base: type.slice(1) };
  }
  if (type.startsWith('[]')) {
    return { shape: Shape.repeated, base: type.slice(2) };
  }
  if (type.startsWith('map[string]')) {
    return { shape: Shape.map, base: type.slice('map[string]'.length) };
  }
  return { shape: options.includes('inline') ? Shape.inline : Shape.value, base: type };
}

/** The value JSON leaves out: a zero Go value under omitempty (structs are never empty), a zero time under omitzero. */
function omittedValue(shape: Shape, kind: ValueKind, options: readonly string[]): Scalar | undefined {
  if (shape !== Shape.value) {
    return undefined;
  }
  if (options.includes('omitzero')) {
    return null;
  }
  if (!options.includes('omitempty') || kind > ValueKind.bytes) {
    return undefined;
  }
  return kind === ValueKind.bytes ? '' : ZERO[kind];
}

function linkField(row: WireField, messages: ReadonlyMap<string, MessageTable>, owner: string): FieldTable {
  const [number, name, type, optionText] = row;
  const options = optionText === '' ? [] : optionText.split(' ');
  const { shape, base } = parseType(type, options);
  const message = messages.get(base);
  const kind = message === undefined ? SCALARS[base] : ValueKind.message;
  if (kind === undefined) {
    throw new Error(`wire tables: ${owner} field ${number} has type ${type}, which the decoder does not know`);
  }
  const omitted = omittedValue(shape, kind, options);
  // A nil pointer, list or map is left out under omitempty and written as null without it.
  const nilOmitted = shape !== Shape.value && options.includes('omitempty');
  return {
    name,
    shape,
    kind,
    wire: wireOf(kind),
    packable: shape === Shape.repeated && kind >= ValueKind.bool && kind <= ValueKind.double,
    omitted,
    valueZero: ZERO[kind],
    inJsonWhenAbsent: shape !== Shape.inline && omitted === undefined && !nilOmitted,
    message,
  };
}

interface MutableMessage {
  readonly name: string;
  fields: (FieldTable | undefined)[];
  zeros: FieldTable[];
  lists: string[];
  readonly construct: PlainObjectConstructor;
}

/** The fields JSON has when the wire lacks them (an inlined struct's included); `done`: tables whose zeros are set. */
export function zerosOf(message: MessageTable, done: Set<MessageTable>): FieldTable[] {
  const zeros: FieldTable[] = [];
  for (const field of message.fields) {
    if (field?.shape === Shape.inline && field.message !== undefined) {
      zeros.push(...(done.has(field.message) ? field.message.zeros : zerosOf(field.message, done)));
    } else if (field?.inJsonWhenAbsent === true) {
      zeros.push(field);
    }
  }
  return zeros;
}

function link(): ReadonlyMap<string, MessageTable> {
  const messages = new Map<string, MutableMessage>();
  for (const name of Object.keys(WIRE_STRUCTS)) {
    messages.set(name, { name, fields: [], zeros: [], lists: [], construct: plainObjectConstructor() });
  }
  for (const [name, rows] of Object.entries(WIRE_STRUCTS)) {
    const message = messages.get(name);
    const highest = rows.reduce((max, row) => Math.max(max, row[0]), 0);
    const fields: (FieldTable | undefined)[] = Array.from({ length: highest + 1 }, () => undefined);
    for (const row of rows) {
      fields[row[0]] = linkField(row, messages, name);
    }
    if (message !== undefined) {
      message.fields = fields;
      message.lists = listsOf(fields);
    }
  }
  const done = new Set<MessageTable>();
  for (const message of messages.values()) {
    message.zeros = zerosOf(message, done);
    done.add(message);
  }
  return messages;
}

const MESSAGES = link();

const KINDS = new Map<string, MessageTable>(
  WIRE_KINDS.map(([apiVersion, kind, typeName]) => [`${apiVersion}/${kind}`, messageTable(typeName)]),
);

/** The linked table of a Go struct by its table name (`core/v1.Pod`). */
export function messageTable(typeName: string): MessageTable {
  const table = MESSAGES.get(typeName);
  if (table === undefined) {
    throw new Error(`wire tables: no struct ${typeName}`);
  }
  return table;
}

/** The table of the object an envelope names, undefined for a kind the tables do not cover. */
export function kindTable(apiVersion: string, kind: string): MessageTable | undefined {
  return KINDS.get(`${apiVersion}/${kind}`);
}

/** The kinds an envelope may carry, as [apiVersion, kind]. */
export const PROTOBUF_KINDS: readonly (readonly [apiVersion: string, kind: string])[] = WIRE_KINDS.map(
  ([apiVersion, kind]) => [apiVersion, kind] as const,
);
