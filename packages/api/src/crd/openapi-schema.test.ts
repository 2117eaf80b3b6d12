import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { intOrStringSchema } from '../meta/int-or-string.ts';
import { CrdSchemaError, toOpenApiSchema } from './openapi-schema.ts';
import type { OpenApiSchema } from './openapi-types.ts';
import { crdMetaOf, withCrdMeta, withDescription } from './schema-metadata.ts';
import { findStructuralViolations } from './structural-schema.ts';

const rule = { rule: 'self > 0', message: 'x: must be positive' };

/** A tree of nodes, recursive the way zod 4 writes it (a getter), which no structural schema can express. */
const treeSchema = z.looseObject({
  name: z.string(),
  get children() {
    return z.array(treeSchema).optional();
  },
});

describe('toOpenApiSchema', () => {
  const cases: readonly { name: string; schema: z.ZodType; expected: OpenApiSchema }[] = [
    { name: 'string', schema: z.string(), expected: { type: 'string' } },
    {
      name: 'string with length and pattern',
      schema: z
        .string()
        .min(1)
        .max(63)
        .regex(/^a\/b$/),
      expected: { type: 'string', minLength: 1, maxLength: 63, pattern: '^a/b$' },
    },
    { name: 'boolean', schema: z.boolean(), expected: { type: 'boolean' } },
    { name: 'number', schema: z.number(), expected: { type: 'number' } },
    {
      name: 'int32 (bounds implied by the format are not repeated)',
      schema: z.int32(),
      expected: { type: 'integer', format: 'int32' },
    },
    {
      name: 'int32 with bounds',
      schema: z.int32().min(0).max(100),
      expected: { type: 'integer', format: 'int32', minimum: 0, maximum: 100 },
    },
    { name: 'safe integer', schema: z.int(), expected: { type: 'integer', format: 'int64' } },
    {
      name: 'non-negative integer',
      schema: z.int().nonnegative(),
      expected: { type: 'integer', format: 'int64', minimum: 0 },
    },
    { name: 'enum', schema: z.enum(['A', 'B']), expected: { type: 'string', enum: ['A', 'B'] } },
    { name: 'literal', schema: z.literal('Always'), expected: { type: 'string', enum: ['Always'] } },
    { name: 'integer literal', schema: z.literal(3), expected: { type: 'integer', enum: [3] } },
    {
      name: 'record',
      schema: z.record(z.string(), z.string().max(63)),
      expected: { type: 'object', additionalProperties: { type: 'string', maxLength: 63 } },
    },
    {
      name: 'array with bounds',
      schema: z.array(z.string()).min(1).max(5),
      expected: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 5 },
    },
    {
      name: 'int-or-string union',
      schema: intOrStringSchema,
      expected: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
    },
    {
      name: 'int-or-string union in the other order',
      schema: z.union([z.string(), z.int32()]),
      expected: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
    },
    { name: 'nullable', schema: z.string().nullable(), expected: { type: 'string', nullable: true } },
    { name: 'default', schema: z.int32().default(1), expected: { type: 'integer', format: 'int32', default: 1 } },
    {
      name: 'object: required unless optional or defaulted; properties keep zod order, required sorted',
      schema: z.looseObject({ b: z.string(), a: z.int32(), c: z.string().optional(), d: z.boolean().default(false) }),
      expected: {
        type: 'object',
        properties: {
          b: { type: 'string' },
          a: { type: 'integer', format: 'int32' },
          c: { type: 'string' },
          d: { type: 'boolean', default: false },
        },
        required: ['a', 'b'],
      },
    },
    {
      name: 'prefault({}) on a parent becomes default {} so nested defaults apply',
      schema: z.object({ inner: z.object({ n: z.int32().default(5) }).prefault({}) }),
      expected: {
        type: 'object',
        properties: {
          inner: { type: 'object', default: {}, properties: { n: { type: 'integer', format: 'int32', default: 5 } } },
        },
      },
    },
    { name: 'empty object', schema: z.looseObject({}), expected: { type: 'object' } },
  ];

  it.each(cases)('converts $name', ({ schema, expected }) => {
    expect(toOpenApiSchema(schema)).toEqual(expected);
  });

  it('carries descriptions and Kubernetes extensions from the CRD metadata', () => {
    const schema = withCrdMeta(z.array(z.looseObject({ key: z.string(), value: z.string() })), {
      description: 'terms',
      listType: 'map',
      listMapKeys: ['key', 'value'],
    });
    expect(toOpenApiSchema(schema)).toEqual({
      type: 'array',
      description: 'terms',
      items: {
        type: 'object',
        properties: { key: { type: 'string' }, value: { type: 'string' } },
        required: ['key', 'value'],
      },
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['key', 'value'],
    });
  });

  it('marks preserve-unknown-fields only where declared, not for every loose object', () => {
    const schema = z.looseObject({
      kept: withCrdMeta(z.looseObject({ known: z.string().optional() }), { preserveUnknownFields: true }),
      pruned: z.looseObject({ known: z.string().optional() }),
    });
    const converted = toOpenApiSchema(schema);
    expect(converted.properties?.['kept']).toEqual({
      type: 'object',
      properties: { known: { type: 'string' } },
      'x-kubernetes-preserve-unknown-fields': true,
    });
    expect(converted.properties?.['pruned']).not.toHaveProperty('x-kubernetes-preserve-unknown-fields');
  });

  it('attaches CEL rules to the node they are declared on, whichever wrapper carries them', () => {
    const inner = withCrdMeta(z.int32(), { validations: [rule] });
    const outerRule = { rule: 'self < 10', message: 'x: must be below 10' };
    const schema = z.looseObject({
      plain: inner.optional(),
      wrapped: withCrdMeta(inner.optional(), { validations: [outerRule] }),
      parent: withCrdMeta(z.looseObject({ child: z.string() }), {
        validations: [{ rule: "self.child != ''", fieldPath: '.child' }],
      }),
    });
    const properties = toOpenApiSchema(schema).properties ?? {};
    expect(properties['plain']?.['x-kubernetes-validations']).toEqual([rule]);
    expect(properties['wrapped']?.['x-kubernetes-validations']).toEqual([rule, outerRule]);
    expect(properties['parent']?.['x-kubernetes-validations']).toEqual([
      { rule: "self.child != ''", fieldPath: '.child' },
    ]);
    expect(properties['parent']?.properties?.['child']).toEqual({ type: 'string' });
  });

  it('emits an openApi override as is (metadata, apiVersion, kind)', () => {
    const schema = z.looseObject({
      metadata: withCrdMeta(z.looseObject({ name: z.string() }), { openApi: { type: 'object' } }),
    });
    expect(toOpenApiSchema(schema).properties?.['metadata']).toEqual({ type: 'object' });
  });

  it('takes a description given with zod .describe() too', () => {
    expect(toOpenApiSchema(z.string().describe('from zod'))).toEqual({ type: 'string', description: 'from zod' });
  });

  it.each([
    { name: 'a date', schema: z.looseObject({ when: z.date() }), message: ".when: zod type 'date'" },
    { name: 'a general union', schema: z.union([z.string(), z.boolean()]), message: 'only integer | string unions' },
    {
      name: 'an object with a typed catchall',
      schema: z.object({ a: z.string() }).catchall(z.string()),
      message: 'typed catchall',
    },
    { name: 'a transform', schema: z.looseObject({ n: z.string().transform(Number) }), message: ".n: zod type 'pipe'" },
    {
      name: 'unknown without an override',
      schema: z.looseObject({ any: z.unknown() }),
      message: ".any: zod type 'unknown'",
    },
    {
      name: 'a record with non-string keys',
      schema: z.record(z.enum(['a']), z.string()),
      message: 'record keys must be plain strings',
    },
    {
      name: 'a lazy (recursive) schema',
      schema: z.looseObject({ tree: z.lazy(() => z.string()) }),
      message: ".tree: zod type 'lazy'",
    },
    {
      name: 'a schema recursive through a getter',
      schema: treeSchema,
      message: '.children[*].children[*].children[*]',
    },
  ])('rejects $name with the path of the node', ({ schema, message }) => {
    expect(() => toOpenApiSchema(schema)).toThrow(CrdSchemaError);
    expect(() => toOpenApiSchema(schema)).toThrow(message);
  });

  it('produces structural schemas for every supported construct', () => {
    for (const { schema } of cases) {
      expect(findStructuralViolations(toOpenApiSchema(schema))).toEqual([]);
    }
  });
});

describe('withCrdMeta', () => {
  it('returns a copy and leaves the shared schema untouched', () => {
    const shared = withDescription(z.looseObject({ a: z.string() }), 'shared');
    const usage = withCrdMeta(shared, { validations: [rule] });
    expect(usage).not.toBe(shared);
    expect(crdMetaOf(shared)).toEqual({ description: 'shared' });
    expect(crdMetaOf(usage)).toEqual({ description: 'shared', validations: [rule] });
  });

  it('appends validations of successive calls', () => {
    const second = { rule: 'self < 10' };
    const schema = withCrdMeta(withCrdMeta(z.int32(), { validations: [rule] }), { validations: [second] });
    expect(crdMetaOf(schema).validations).toEqual([rule, second]);
  });

  it('keeps zod parsing behaviour', () => {
    const schema = withCrdMeta(z.int32().min(0), { description: 'n' });
    expect(schema.safeParse(-1).success).toBe(false);
    expect(schema.parse(3)).toBe(3);
  });
});
