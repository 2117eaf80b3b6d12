/**
 * Go's typed JSON round trip, replayed from the field table: decode JSON into Go structs (Kubernetes'
 * case-sensitive decoder, unknown fields dropped, null leaving the zero value) and encode them again
 * with encoding/json. The result is a JSON tree whose keys are not yet sorted; marshalGoJson does that.
 *
 * What survives the trip: every known field that is non-empty, or that has no `omitempty`, written as
 * its Go zero value when absent (`"name":""`, `"containerPort":0`, `"service":null`); structs always
 * (`"resources":{}`, `"creationTimestamp":null`), because omitempty never drops a struct; pointers that
 * are set, even to false or 0. Quantities, times and IntOrStrings go through their own marshallers.
 */
import type { JsonValue } from './go-json.ts';
import type { GoStructTable, GoType } from './go-struct-table.ts';
import { parseGoType } from './go-struct-table.ts';
import { canonicalTime } from './go-time.ts';
import { canonicalQuantity } from './quantity.ts';

/** Raised where Go's decoder would fail, so OpenKruise could not have read the object either. */
export class TemplateDecodeError extends Error {
  readonly path: string;

  constructor(path: string, message: string, options?: ErrorOptions) {
    super(`${path === '' ? '<root>' : path}: ${message}`, options);
    this.name = 'TemplateDecodeError';
    this.path = path;
  }
}

interface Context {
  readonly table: GoStructTable;
  readonly path: string;
}

type Encoder = (input: unknown, type: GoType, at: Context) => JsonValue;

/** The JSON that Go writes after decoding `input` into a value of `type`. */
export function encodeTyped(input: unknown, type: GoType, at: Context): JsonValue {
  return ENCODERS[type.kind](input, type, at);
}

/** Go's isEmptyValue for the value `input` decodes into: what `omitempty` drops. */
export function isGoEmpty(input: unknown, type: GoType): boolean {
  const isEmpty = IS_EMPTY[type.kind];
  return isEmpty === undefined ? false : input == null || isEmpty(input);
}

/**
 * For the kinds omitempty can drop, whether a present (non-null) input decodes into an empty value.
 * Structs, including Quantity, Time and IntOrString, are absent: encoding/json never treats them as empty.
 */
const IS_EMPTY: Readonly<Partial<Record<GoType['kind'], (input: unknown) => boolean>>> = {
  pointer: () => false,
  slice: (input) => Array.isArray(input) && input.length === 0,
  map: (input) => isObject(input) && Object.keys(input).length === 0,
  string: (input) => input === '',
  bool: (input) => input === false,
  int: (input) => input === 0,
  float: (input) => input === 0,
};

const ENCODERS: Readonly<Record<GoType['kind'], Encoder>> = {
  pointer: (input, type, at) => (input == null ? null : encodeTyped(input, elemOf(type), at)),
  slice: encodeSlice,
  map: encodeMap,
  struct: encodeStruct,
  string: (input, _type, at) => (input == null ? '' : expect(input, 'string', at)),
  bool: (input, _type, at) => (input == null ? false : expect(input, 'boolean', at)),
  float: (input, _type, at) => (input == null ? 0 : expect(input, 'number', at)),
  int: encodeInt,
  Quantity: (input, _type, at) =>
    input == null ? '0' : guarded(at, () => canonicalQuantity(expectQuantity(input, at))),
  Time: (input, _type, at) => (input == null ? null : guarded(at, () => canonicalTime(expect(input, 'string', at)))),
  IntOrString: (input, _type, at) =>
    input == null ? 0 : typeof input === 'string' ? input : encodeInt(input, INT32, at),
  // FieldsV1 keeps its raw bytes; the generic round trip that follows normalises them like any JSON.
  RawJSON: (input) => (input === undefined ? null : (input as JsonValue)),
};

const INT32 = parseGoType('int32');

function encodeSlice(input: unknown, type: GoType, at: Context): JsonValue {
  if (input == null) {
    return null;
  }
  if (!Array.isArray(input)) {
    throw new TemplateDecodeError(at.path, `cannot unmarshal ${jsonKind(input)} into a Go slice`);
  }
  return input.map((item: unknown, index) =>
    encodeTyped(item, elemOf(type), { ...at, path: `${at.path}[${String(index)}]` }),
  );
}

function encodeMap(input: unknown, type: GoType, at: Context): JsonValue {
  if (input == null) {
    return null;
  }
  const object = expectObject(input, 'map', at);
  return Object.fromEntries(
    Object.entries(object).map(([key, value]) => [
      key,
      encodeTyped(value, elemOf(type), { ...at, path: `${at.path}[${JSON.stringify(key)}]` }),
    ]),
  );
}

function encodeStruct(input: unknown, type: GoType, at: Context): JsonValue {
  const name = type.kind === 'struct' ? type.name : '';
  const fields = at.table[name];
  if (fields === undefined || fields.some((field) => field.omitzero === true)) {
    // omitzero exists from Go 1.24 on; OpenKruise v1.9 is built with Go 1.23, which ignores it.
    throw new Error(
      `the field table has no struct ${name}, or uses omitzero (see the package README on k8s.io/api versions)`,
    );
  }
  const object = input == null ? {} : expectObject(input, `Go struct ${name}`, at);
  const entries: [string, JsonValue][] = [];
  for (const field of fields) {
    const value = Object.hasOwn(object, field.json) ? object[field.json] : undefined;
    const fieldType = parseGoType(field.type);
    if (!(field.omitempty && isGoEmpty(value, fieldType))) {
      entries.push([
        field.json,
        encodeTyped(value, fieldType, { ...at, path: at.path === '' ? field.json : `${at.path}.${field.json}` }),
      ]);
    }
  }
  return Object.fromEntries(entries);
}

function encodeInt(input: unknown, type: GoType, at: Context): JsonValue {
  if (input == null) {
    return 0;
  }
  const value = expect(input, 'number', at);
  const range = type.kind === 'int' ? type : { min: 0, max: 0 };
  if (!Number.isInteger(value) || value < range.min || value > range.max) {
    throw new TemplateDecodeError(
      at.path,
      `cannot unmarshal number ${String(value)} into a Go integer in [${String(range.min)}, ${String(range.max)}]`,
    );
  }
  return value;
}

function elemOf(type: GoType): GoType {
  if (type.kind === 'pointer' || type.kind === 'slice' || type.kind === 'map') {
    return type.elem;
  }
  throw new Error(`${type.kind} has no element type`);
}

function expect<K extends 'string' | 'number' | 'boolean'>(
  input: unknown,
  kind: K,
  at: Context,
): K extends 'string' ? string : K extends 'number' ? number : boolean;
function expect(input: unknown, kind: 'string' | 'number' | 'boolean', at: Context): string | number | boolean {
  if (typeof input !== kind) {
    throw new TemplateDecodeError(
      at.path,
      `cannot unmarshal ${jsonKind(input)} into a Go ${kind === 'boolean' ? 'bool' : kind}`,
    );
  }
  return input as string | number | boolean;
}

function expectQuantity(input: unknown, at: Context): string | number {
  if (typeof input !== 'string' && typeof input !== 'number') {
    throw new TemplateDecodeError(at.path, `cannot unmarshal ${jsonKind(input)} into a quantity`);
  }
  return input;
}

function expectObject(input: unknown, what: string, at: Context): Readonly<Record<string, unknown>> {
  if (!isObject(input)) {
    throw new TemplateDecodeError(at.path, `cannot unmarshal ${jsonKind(input)} into a ${what}`);
  }
  return input;
}

function guarded<T>(at: Context, encode: () => T): T {
  try {
    return encode();
  } catch (error) {
    if (error instanceof TemplateDecodeError) {
      throw error;
    }
    throw new TemplateDecodeError(at.path, error instanceof Error ? error.message : String(error), { cause: error });
  }
}

function isObject(input: unknown): input is Readonly<Record<string, unknown>> {
  return typeof input === 'object' && input !== null && !Array.isArray(input);
}

function jsonKind(input: unknown): string {
  return Array.isArray(input) ? 'array' : input === null ? 'null' : typeof input === 'object' ? 'object' : typeof input;
}
