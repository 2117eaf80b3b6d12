import { describe, expect, it } from 'vitest';

import type { OpenApiSchema } from '../../crd/openapi-types.ts';
import { toOpenApiSchema } from '../../crd/openapi-schema.ts';
import { cloneSetSpecSchema } from './cloneset-spec.ts';
import { cloneSetSpecRules } from './cloneset-spec-rules.ts';

const spec = toOpenApiSchema(cloneSetSpecSchema);

function declared(path: readonly string[]): boolean {
  let node: OpenApiSchema | undefined = spec;
  for (const step of path) {
    node = node?.properties?.[step];
  }
  return node !== undefined;
}

describe('cloneSetSpecRules', () => {
  // CEL cannot read fields the schema does not declare (template keeps unknown fields): a typo in a
  // field name would only show as a CRD the API server refuses, so check every `self.a.b` here
  // (method calls such as `.all(` and `.matches(` are not fields).
  it.each(cloneSetSpecRules.map((rule) => ({ message: rule.message ?? '', rule: rule.rule })))(
    'reads only declared fields: $message',
    ({ rule }) => {
      const paths = [...rule.matchAll(/\bself((?:\.[A-Za-z]+\b(?!\())+)/g)].map((match) =>
        (match[1] ?? '').slice(1).split('.'),
      );
      expect(paths.length).toBeGreaterThan(0);
      for (const path of paths) {
        expect(declared(path), `self.${path.join('.')}`).toBe(true);
      }
    },
  );

  it.each(cloneSetSpecRules.map((rule) => ({ message: rule.message ?? '', fieldPath: rule.fieldPath ?? '' })))(
    'reports "$message" on the field it names',
    ({ message, fieldPath }) => {
      expect(declared(fieldPath.slice(1).split('.'))).toBe(true);
      expect(message.startsWith(`spec${fieldPath}: `)).toBe(true);
    },
  );
});
