/**
 * The shape of the generated field table (pod-template-fields.generated.ts) and the parser of its type
 * expressions. The table is written by tools/gen-field-table with Go reflection, so it says what
 * encoding/json does with each field rather than what the API documentation says.
 */

/** One JSON field of a Go struct. */
export interface GoField {
  /** The JSON name (encoding/json matches it case-sensitively in Kubernetes' decoder). */
  readonly json: string;
  /** Go type expression: `string`, `int32`, `*bool`, `[]Container`, `map[string]Quantity`, a struct name, ... */
  readonly type: string;
  /** `omitempty`: dropped when false, 0, "", a nil pointer, or an empty slice or map; never for structs. */
  readonly omitempty: boolean;
  /** `omitzero` (Go 1.24); present only in newer k8s.io/api versions, which this package refuses. */
  readonly omitzero?: boolean;
}

/** Struct name → its JSON fields (embedded structs already flattened). */
export type GoStructTable = Readonly<Record<string, readonly GoField[]>>;

/** Types whose JSON form comes from their own (un)marshaller. */
export type GoSpecialKind = 'Quantity' | 'Time' | 'IntOrString' | 'RawJSON';

/** A parsed Go type expression. */
export type GoType =
  | { readonly kind: 'string' | 'bool' | 'float' | GoSpecialKind }
  | { readonly kind: 'int'; readonly min: number; readonly max: number }
  | { readonly kind: 'pointer' | 'slice' | 'map'; readonly elem: GoType }
  | { readonly kind: 'struct'; readonly name: string };

const SCALARS: Readonly<Record<string, GoType>> = {
  string: { kind: 'string' },
  bool: { kind: 'bool' },
  float32: { kind: 'float' },
  float64: { kind: 'float' },
  int8: { kind: 'int', min: -(2 ** 7), max: 2 ** 7 - 1 },
  int16: { kind: 'int', min: -(2 ** 15), max: 2 ** 15 - 1 },
  int32: { kind: 'int', min: -(2 ** 31), max: 2 ** 31 - 1 },
  // 64-bit bounds are approximate: JSON numbers reach JavaScript as float64 anyway.
  int: { kind: 'int', min: -(2 ** 63), max: 2 ** 63 },
  int64: { kind: 'int', min: -(2 ** 63), max: 2 ** 63 },
  uint8: { kind: 'int', min: 0, max: 2 ** 8 - 1 },
  uint16: { kind: 'int', min: 0, max: 2 ** 16 - 1 },
  uint32: { kind: 'int', min: 0, max: 2 ** 32 - 1 },
  uint: { kind: 'int', min: 0, max: 2 ** 64 },
  uint64: { kind: 'int', min: 0, max: 2 ** 64 },
  Quantity: { kind: 'Quantity' },
  Time: { kind: 'Time' },
  IntOrString: { kind: 'IntOrString' },
  RawJSON: { kind: 'RawJSON' },
};

const parsed = new Map<string, GoType>();

/** Parses a type expression of the table (`*[]map[string]Quantity`, ...); results are memoised. */
export function parseGoType(expression: string): GoType {
  let type = parsed.get(expression);
  if (type === undefined) {
    type = parseUncached(expression);
    parsed.set(expression, type);
  }
  return type;
}

function parseUncached(expression: string): GoType {
  if (expression.startsWith('*')) {
    return { kind: 'pointer', elem: parseGoType(expression.slice(1)) };
  }
  if (expression.startsWith('[]')) {
    return { kind: 'slice', elem: parseGoType(expression.slice(2)) };
  }
  if (expression.startsWith('map[string]')) {
    return { kind: 'map', elem: parseGoType(expression.slice('map[string]'.length)) };
  }
  if (Object.hasOwn(SCALARS, expression)) {
    return SCALARS[expression] ?? { kind: 'string' };
  }
  if (/^[A-Z][A-Za-z0-9]*$/.test(expression)) {
    return { kind: 'struct', name: expression };
  }
  throw new Error(`unknown Go type expression ${JSON.stringify(expression)} in the field table`);
}

/** The struct names a type expression refers to (for checking that the table is closed). */
export function referencedStructs(type: GoType): string[] {
  if (type.kind === 'struct') {
    return [type.name];
  }
  return type.kind === 'pointer' || type.kind === 'slice' || type.kind === 'map' ? referencedStructs(type.elem) : [];
}
