/**
 * Converts a zod schema into the structural OpenAPI v3 schema of a CustomResourceDefinition.
 *
 * Structural means: every node has a type (int-or-string nodes excepted, as Kubernetes requires), no
 * `$ref`, no general unions, no `additionalProperties` next to `properties`. zod constructs that a
 * structural schema cannot express (transforms, general unions, recursion, dates) are rejected with
 * the path of the node, so a new kind fails at generation time rather than at `kubectl apply`.
 * Kubernetes-only facts (CEL rules, list types, pruning) come from {@link crdSchemaRegistry}.
 */
import { z } from 'zod';

import type { JsonValue, OpenApiSchema } from './openapi-types.ts';
import type { CrdSchemaMeta } from './schema-metadata.ts';
import { crdMetaOf } from './schema-metadata.ts';
import { lengthChecksOf } from './zod-checks.ts';

/** Thrown when a zod schema cannot be expressed as a structural CRD schema. */
export class CrdSchemaError extends Error {
  override readonly name = 'CrdSchemaError';
}

/** What the wrappers around a schema node (optional, default, nullable, ...) contribute to it. */
interface Unwrapped {
  readonly core: z.ZodType;
  readonly metas: readonly CrdSchemaMeta[];
  readonly defaultValue?: JsonValue;
  readonly nullable: boolean;
}

type Converter = (schema: z.ZodType, path: string) => OpenApiSchema;

const INT32_RANGE: readonly [number, number] = [-2147483648, 2147483647];

/**
 * Nesting beyond any Kubernetes object (a CloneSet's deepest field is about 15 levels down). A schema
 * that refers to itself through a getter (zod's way to write recursion) would otherwise be walked until
 * the stack overflows; it is refused here with its path, which shows the repetition.
 */
const MAX_DEPTH = 64;

/** Converts `schema` (the root of a version's object schema) into a structural OpenAPI v3 schema. */
export function toOpenApiSchema(schema: z.ZodType): OpenApiSchema {
  return convertNode(schema, '');
}

function convertNode(schema: z.ZodType, path: string): OpenApiSchema {
  if ((path.match(/\.|\[\*\]/g) ?? []).length > MAX_DEPTH) {
    throw new CrdSchemaError(
      `${path}: nested deeper than ${String(MAX_DEPTH)} levels; a recursive schema has no structural form`,
    );
  }
  const unwrapped = unwrap(schema, path);
  const meta = mergeMetas(unwrapped.metas);
  const body = meta.openApi === undefined ? convertCore(unwrapped.core, path) : structuredClone(meta.openApi);
  return decorate({ body, meta, unwrapped });
}

/** Peels optional/default/prefault/nullable/readonly wrappers, outermost first. */
function unwrap(schema: z.ZodType, path: string): Unwrapped {
  const metas: CrdSchemaMeta[] = [];
  let nullable = false;
  let defaultValue: JsonValue | undefined;
  let current = schema;
  for (;;) {
    metas.push(crdMetaOf(current));
    const def = current.def;
    if (def.type === 'default' || def.type === 'prefault') {
      defaultValue ??= toJsonValue(
        current instanceof z.ZodDefault || current instanceof z.ZodPrefault ? current.def.defaultValue : undefined,
        path,
      );
    }
    nullable ||= def.type === 'nullable';
    const inner = innerTypeOf(current);
    if (inner === undefined) {
      return { core: current, metas, nullable, ...(defaultValue === undefined ? {} : { defaultValue }) };
    }
    current = inner;
  }
}

function innerTypeOf(schema: z.ZodType): z.ZodType | undefined {
  if (
    schema instanceof z.ZodOptional ||
    schema instanceof z.ZodDefault ||
    schema instanceof z.ZodPrefault ||
    schema instanceof z.ZodNullable ||
    schema instanceof z.ZodReadonly
  ) {
    return schema.def.innerType as z.ZodType;
  }
  return undefined;
}

/** Merges the metadata of the wrapper layers: outer layers win, CEL rules of all layers are kept. */
function mergeMetas(metas: readonly CrdSchemaMeta[]): CrdSchemaMeta {
  const innermostFirst = [...metas].reverse();
  const validations = innermostFirst.flatMap((meta) => meta.validations ?? []);
  const merged: CrdSchemaMeta = Object.assign({}, ...innermostFirst) as CrdSchemaMeta;
  return { ...merged, ...(validations.length > 0 ? { validations } : {}) };
}

function toJsonValue(value: unknown, path: string): JsonValue {
  if (value === undefined) {
    throw new CrdSchemaError(`${pathLabel(path)}: default value is undefined`);
  }
  return JSON.parse(JSON.stringify(value)) as JsonValue;
}

interface DecorateInput {
  readonly body: OpenApiSchema;
  readonly meta: CrdSchemaMeta;
  readonly unwrapped: Unwrapped;
}

/** Adds the description, default and Kubernetes extensions of the node to its converted body. */
function decorate({ body, meta, unwrapped }: DecorateInput): OpenApiSchema {
  const node: OpenApiSchema = { ...body };
  if (meta.description !== undefined) {
    node.description = meta.description;
  }
  if (unwrapped.defaultValue !== undefined) {
    node.default = unwrapped.defaultValue;
  }
  if (unwrapped.nullable) {
    node.nullable = true;
  }
  if (meta.format !== undefined) {
    node.format = meta.format;
  }
  if (meta.maxProperties !== undefined) {
    node.maxProperties = meta.maxProperties;
  }
  return { ...node, ...kubernetesExtensions(meta) };
}

function kubernetesExtensions(meta: CrdSchemaMeta): OpenApiSchema {
  const extensions: OpenApiSchema = {};
  if (meta.preserveUnknownFields === true) {
    extensions['x-kubernetes-preserve-unknown-fields'] = true;
  }
  if (meta.embeddedResource === true) {
    extensions['x-kubernetes-embedded-resource'] = true;
  }
  if (meta.listType !== undefined) {
    extensions['x-kubernetes-list-type'] = meta.listType;
  }
  if (meta.listMapKeys !== undefined) {
    extensions['x-kubernetes-list-map-keys'] = [...meta.listMapKeys];
  }
  if (meta.mapType !== undefined) {
    extensions['x-kubernetes-map-type'] = meta.mapType;
  }
  if (meta.validations !== undefined) {
    extensions['x-kubernetes-validations'] = meta.validations.map((rule) => ({ ...rule }));
  }
  return extensions;
}

function convertCore(schema: z.ZodType, path: string): OpenApiSchema {
  const converter = converters[schema.def.type];
  if (converter === undefined) {
    throw new CrdSchemaError(`${pathLabel(path)}: zod type '${schema.def.type}' has no structural OpenAPI form`);
  }
  return converter(schema, path);
}

function pathLabel(path: string): string {
  return path === '' ? '<root>' : path;
}

function expect<T extends z.ZodType>(schema: z.ZodType, type: abstract new (...args: never[]) => T, path: string): T {
  if (schema instanceof type) {
    return schema;
  }
  throw new CrdSchemaError(`${pathLabel(path)}: unexpected zod schema class for type '${schema.def.type}'`);
}

const converters: Partial<Record<z.ZodType['def']['type'], Converter>> = {
  object: (schema, path) => convertObject(expect(schema, z.ZodObject, path), path),
  record: (schema, path) => convertRecord(expect(schema, z.ZodRecord, path), path),
  array: (schema, path) => convertArray(expect(schema, z.ZodArray, path), path),
  string: (schema, path) => convertString(expect(schema, z.ZodString, path), path),
  number: (schema, path) => convertNumber(expect(schema, z.ZodNumber, path)),
  boolean: () => ({ type: 'boolean' }),
  enum: (schema, path) => enumSchema(Object.values(expect(schema, z.ZodEnum, path).def.entries), path),
  literal: (schema, path) => enumSchema(expect(schema, z.ZodLiteral, path).def.values, path),
  union: (schema, path) => convertUnion(expect(schema, z.ZodUnion, path), path),
};

function convertObject(schema: z.ZodObject, path: string): OpenApiSchema {
  const catchall = schema.def.catchall;
  if (
    catchall !== undefined &&
    !(catchall instanceof z.ZodUnknown) &&
    !(catchall instanceof z.ZodAny) &&
    !(catchall instanceof z.ZodNever)
  ) {
    throw new CrdSchemaError(
      `${pathLabel(path)}: an object with a typed catchall cannot be structural; use z.record()`,
    );
  }
  const properties: Record<string, OpenApiSchema> = {};
  const required: string[] = [];
  for (const [name, property] of Object.entries(schema.shape)) {
    const child = property as z.ZodType;
    properties[name] = convertNode(child, `${path}.${name}`);
    if (child._zod.optin === undefined) {
      required.push(name);
    }
  }
  const node: OpenApiSchema = { type: 'object' };
  if (Object.keys(properties).length > 0) {
    node.properties = properties;
  }
  if (required.length > 0) {
    node.required = required.sort();
  }
  return node;
}

function convertRecord(schema: z.ZodRecord, path: string): OpenApiSchema {
  if (!(schema.def.keyType instanceof z.ZodString)) {
    throw new CrdSchemaError(`${pathLabel(path)}: record keys must be plain strings in a CRD schema`);
  }
  return { type: 'object', additionalProperties: convertNode(schema.def.valueType as z.ZodType, `${path}[*]`) };
}

function convertArray(schema: z.ZodArray, path: string): OpenApiSchema {
  const { minimum, maximum } = lengthChecksOf(schema);
  const node: OpenApiSchema = { type: 'array', items: convertNode(schema.def.element as z.ZodType, `${path}[*]`) };
  if (minimum !== undefined && minimum > 0) {
    node.minItems = minimum;
  }
  if (maximum !== undefined) {
    node.maxItems = maximum;
  }
  return node;
}

function convertString(schema: z.ZodString, path: string): OpenApiSchema {
  const { patterns } = lengthChecksOf(schema);
  if (patterns.length > 1) {
    throw new CrdSchemaError(`${pathLabel(path)}: at most one regex per string is supported`);
  }
  const node: OpenApiSchema = { type: 'string' };
  if (schema.minLength !== null && schema.minLength > 0) {
    node.minLength = schema.minLength;
  }
  if (schema.maxLength !== null) {
    node.maxLength = schema.maxLength;
  }
  const pattern = patterns[0];
  if (pattern !== undefined) {
    node.pattern = unescapeSlashes(pattern.source);
  }
  return node;
}

const INTEGER_FORMATS: ReadonlySet<string> = new Set(['int32', 'uint32', 'safeint']);

/** RegExp.source writes '/' as '\\/'; the pattern means the same without it (an escaped backslash before '/' stays). */
function unescapeSlashes(source: string): string {
  return source.replace(/(?<=(?:^|[^\\])(?:\\\\)*)\\\//g, '/');
}

function convertNumber(schema: z.ZodNumber): OpenApiSchema {
  const isInt32 = schema.format === 'int32';
  const isInteger = schema.format !== null && INTEGER_FORMATS.has(schema.format);
  const node: OpenApiSchema = isInteger ? { type: 'integer', format: isInt32 ? 'int32' : 'int64' } : { type: 'number' };
  return {
    ...node,
    ...numberBounds(schema, isInt32 ? INT32_RANGE : [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER]),
  };
}

/** minimum/maximum of a number, leaving out the bounds its format already implies (int32, safe integer). */
function numberBounds(schema: z.ZodNumber, [impliedMin, impliedMax]: readonly [number, number]): OpenApiSchema {
  const minimum = schema.minValue ?? -Infinity;
  const maximum = schema.maxValue ?? Infinity;
  return {
    ...(minimum > impliedMin && Number.isFinite(minimum) ? { minimum } : {}),
    ...(maximum < impliedMax && Number.isFinite(maximum) ? { maximum } : {}),
  };
}

function enumSchema(values: readonly unknown[], path: string): OpenApiSchema {
  if (values.every((value) => typeof value === 'string')) {
    return { type: 'string', enum: [...values] };
  }
  if (values.every((value): value is number => Number.isInteger(value))) {
    return { type: 'integer', enum: [...values] };
  }
  if (values.every((value) => typeof value === 'boolean')) {
    return { type: 'boolean', enum: [...values] };
  }
  throw new CrdSchemaError(`${pathLabel(path)}: enum values must all be strings, integers or booleans`);
}

/** Only integer | string unions are structural: Kubernetes' int-or-string. */
function convertUnion(schema: z.ZodUnion, path: string): OpenApiSchema {
  const types = schema.def.options
    .map((option) => convertCore(unwrap(option as z.ZodType, path).core, path).type)
    .sort();
  if (types.length === 2 && types[0] === 'integer' && types[1] === 'string') {
    return { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] };
  }
  throw new CrdSchemaError(`${pathLabel(path)}: only integer | string unions (int-or-string) are structural`);
}
