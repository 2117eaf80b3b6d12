import { describe, expect, it } from 'vitest';

import { toOpenApiSchema } from '../crd/openapi-schema.ts';
import { findStructuralViolations } from '../crd/structural-schema.ts';
import { QUANTITY_PATTERN, QUANTITY_STRING_PATTERN, quantitySchema, resourceListSchema } from './quantity.ts';

describe('quantity patterns (RE2 and JavaScript agree on them: ASCII only, no look-around)', () => {
  const strict = new RegExp(QUANTITY_PATTERN);
  const padded = new RegExp(QUANTITY_STRING_PATTERN);

  // What a Pod decodes as a quantity string, and what it cannot (both lists tried with a server-side
  // dry-run Pod create on v1.34; "-1" is decoded, then refused by pod validation, not by its type).
  it.each([
    '1',
    '500m',
    '0.5',
    '.5',
    '5.',
    '+1',
    '-1',
    '1Gi',
    '1.5Ki',
    '128974848',
    '1e3',
    '1E+3',
    '2E-2',
    '100M',
    '1n',
    '1u',
    '1k',
    '1E',
  ])('accepts %j', (text) => {
    expect(strict.test(text)).toBe(true);
    expect(padded.test(text)).toBe(true);
  });

  it.each(['one', '', ' ', '1 Gi', '1gi', '1KI', '1K', '1e', '1.2.3', '--1', '0x10', '1Gi1', '\t1', '1\n'])(
    'refuses %j',
    (text) => {
      expect(padded.test(text)).toBe(false);
    },
  );

  it('allows the spaces Go trims around a quantity string, which the strict pattern does not', () => {
    expect(strict.test(' 500m ')).toBe(false);
    expect(padded.test(' 500m ')).toBe(true);
  });
});

describe('quantitySchema', () => {
  it.each([0.5, 1, 128974848, -1, 1e3, '500m', '1Gi', ' 1 ', null])('accepts %j unchanged', (value) => {
    expect(quantitySchema.parse(value)).toBe(value);
  });

  it.each(['one', '', true, {}, [1]])('rejects %j', (value) => {
    expect(quantitySchema.safeParse(value).success).toBe(false);
  });

  it('is a CRD node without a type and with the pattern, so that every number passes and strings are checked; null is kept', () => {
    expect(toOpenApiSchema(quantitySchema)).toEqual({
      description: expect.any(String) as string,
      nullable: true,
      pattern: QUANTITY_STRING_PATTERN,
      'x-kubernetes-preserve-unknown-fields': true,
    });
  });

  it('makes a structural resource list', () => {
    const list = toOpenApiSchema(resourceListSchema);
    expect(list).toMatchObject({ type: 'object', additionalProperties: { pattern: QUANTITY_STRING_PATTERN } });
    expect(findStructuralViolations(list)).toEqual([]);
  });
});
