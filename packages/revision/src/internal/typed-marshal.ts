/**
 * encoding/json of a typed Go value: struct fields in declaration order (not sorted, unlike the
 * generic maps of revision data), map keys sorted. Takes the output of encodeTyped, which already
 * applied omitempty and zero values, and only decides the order of keys from the Go type.
 */
import { goSortedKeys, goQuote, marshalGoJson } from './go-json.ts';
import type { JsonValue } from './go-json.ts';
import { parseGoType } from './go-struct-table.ts';
import type { GoStructTable, GoType } from './go-struct-table.ts';
import { encodeTyped } from './typed-round-trip.ts';

/**
 * Marshals `value` (an encodeTyped result of `type`) as Go marshals the typed value. Example: a
 * PersistentVolumeClaimSpec `{resources:{requests:{storage:'1Gi'}}, accessModes:['ReadWriteOnce']}` →
 * `{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}}}` (declaration order).
 */
export function marshalTypedGoJson(value: JsonValue, type: GoType, table: GoStructTable): string {
  return value === null ? 'null' : MARSHALLERS[type.kind](value, type, table);
}

type Marshaller = (value: JsonValue, type: GoType, table: GoStructTable) => string;

const plain: Marshaller = (value) => marshalGoJson(value);

const MARSHALLERS: Readonly<Record<GoType['kind'], Marshaller>> = {
  pointer: (value, type, table) => marshalTypedGoJson(value, elemOf(type), table),
  slice: (value, type, table) =>
    Array.isArray(value)
      ? `[${value.map((item: JsonValue) => marshalTypedGoJson(item, elemOf(type), table)).join(',')}]`
      : marshalGoJson(value),
  map: (value, type, table) => marshalMap(value, elemOf(type), table),
  struct: (value, type, table) => marshalStruct(value, type.kind === 'struct' ? type.name : '', table),
  string: plain,
  bool: plain,
  float: plain,
  int: plain,
  Quantity: plain,
  Time: plain,
  IntOrString: plain,
  RawJSON: plain,
};

function elemOf(type: GoType): GoType {
  return type.kind === 'pointer' || type.kind === 'slice' || type.kind === 'map' ? type.elem : type;
}

function asRecord(value: JsonValue): Readonly<Record<string, JsonValue>> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Readonly<Record<string, JsonValue>>)
    : undefined;
}

function marshalMap(value: JsonValue, elem: GoType, table: GoStructTable): string {
  const record = asRecord(value);
  if (record === undefined) {
    return marshalGoJson(value);
  }
  const members = goSortedKeys(record).map(
    (key) => `${goQuote(key)}:${marshalTypedGoJson(record[key] ?? null, elem, table)}`,
  );
  return `{${members.join(',')}}`;
}

function marshalStruct(value: JsonValue, name: string, table: GoStructTable): string {
  const record = asRecord(value);
  const fields = table[name];
  if (record === undefined || fields === undefined) {
    return marshalGoJson(value);
  }
  const members = fields
    .filter((field) => Object.hasOwn(record, field.json))
    .map(
      (field) =>
        `${goQuote(field.json)}:${marshalTypedGoJson(record[field.json] ?? null, parseGoType(field.type), table)}`,
    );
  return `{${members.join(',')}}`;
}

/**
 * The bytes Go's `json.Marshal` writes for `input` decoded into the Go type `typeExpression`
 * (`[]SidecarContainer`, `PodTemplateSpec`, ...) whose structs `table` describes: the typed round trip
 * and this marshaller in one. Throws TemplateDecodeError where Go's decoder would fail.
 */
export function marshalTypedJson(input: unknown, typeExpression: string, table: GoStructTable): string {
  const type = parseGoType(typeExpression);
  return marshalTypedGoJson(encodeTyped(input, type, { table, path: '' }), type, table);
}
