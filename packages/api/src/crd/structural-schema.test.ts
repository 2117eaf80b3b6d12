import { describe, expect, it } from 'vitest';

import type { OpenApiSchema } from './openapi-types.ts';
import { findStructuralViolations } from './structural-schema.ts';

describe('findStructuralViolations', () => {
  it('accepts a structural schema', () => {
    const schema: OpenApiSchema = {
      type: 'object',
      properties: {
        count: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
        names: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
        terms: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['key'],
          items: { type: 'object', required: ['key'], properties: { key: { type: 'string' } } },
        },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        template: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        // Any JSON value narrowed by a value validation (a quantity): Kubernetes allows a preserve-unknown node without a type.
        quantity: { 'x-kubernetes-preserve-unknown-fields': true, pattern: '^[0-9]+$' },
      },
    };
    expect(findStructuralViolations(schema)).toEqual([]);
  });

  it.each<{ name: string; schema: OpenApiSchema; violation: string }>([
    {
      name: 'a node without a type',
      schema: { type: 'object', properties: { a: {} } },
      violation: '.a: every node needs a type',
    },
    {
      name: 'an int-or-string node with a type',
      schema: { type: 'string', 'x-kubernetes-int-or-string': true },
      violation: 'must not declare a type',
    },
    {
      name: 'a general anyOf',
      schema: { type: 'string', anyOf: [{ type: 'string' }] },
      violation: 'anyOf is only allowed',
    },
    {
      name: 'properties next to additionalProperties',
      schema: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'string' } },
      violation: 'cannot be combined',
    },
    {
      name: 'properties on a non-object',
      schema: { type: 'string', properties: { a: { type: 'string' } } },
      violation: 'need type object',
    },
    { name: 'an array without items', schema: { type: 'array' }, violation: 'an array needs items' },
    {
      name: 'a list type on a non-array',
      schema: { type: 'string', 'x-kubernetes-list-type': 'set' },
      violation: 'x-kubernetes-list-type needs type array',
    },
    {
      name: 'a map list without keys',
      schema: { type: 'array', items: { type: 'object' }, 'x-kubernetes-list-type': 'map' },
      violation: 'needs x-kubernetes-list-map-keys',
    },
    {
      name: 'a map key that is neither required nor defaulted',
      schema: {
        type: 'array',
        items: { type: 'object', properties: { key: { type: 'string' } } },
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['key'],
      },
      violation: "map key 'key' must be required or defaulted",
    },
    {
      name: 'list-map-keys without list type map',
      schema: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-map-keys': ['key'] },
      violation: 'needs x-kubernetes-list-type map',
    },
    {
      name: 'a set of objects',
      schema: { type: 'array', items: { type: 'object' }, 'x-kubernetes-list-type': 'set' },
      violation: 'a list of type set needs scalar items',
    },
    {
      name: 'a problem deep inside items and additionalProperties',
      schema: {
        type: 'object',
        additionalProperties: { type: 'array', items: { type: 'object', properties: { x: {} } } },
      },
      violation: '[*][*].x: every node needs a type',
    },
  ])('reports $name', ({ schema, violation }) => {
    const violations = findStructuralViolations(schema);
    expect(violations.some((found) => found.includes(violation))).toBe(true);
  });
});
