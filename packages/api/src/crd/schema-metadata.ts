/**
 * CRD-only facts about a zod schema node (CEL rules, list and map semantics, pruning), kept in a zod
 * registry next to the schema so that the schema stays the single source of the API and the CRD
 * generator reads everything from one place.
 */
import { z } from 'zod';

import type { OpenApiSchema } from './openapi-types.ts';

/** One `x-kubernetes-validations` entry: a CEL rule evaluated by the API server against `self`. */
export interface CelValidationRule {
  /** CEL expression that must evaluate to true; `self` is the value at the node, `oldSelf` the stored one on update. */
  readonly rule: string;
  /** Static message; by convention it starts with the field path, for example `spec.replicas: ...`. */
  readonly message?: string;
  /** CEL expression producing the message, for messages that show the offending value. */
  readonly messageExpression?: string;
  /** Relative JSON path (from the node) of the field the error is reported on, for example `.selector`. */
  readonly fieldPath?: string;
  /** Machine-readable reason of the error cause. */
  readonly reason?: 'FieldValueInvalid' | 'FieldValueForbidden' | 'FieldValueRequired' | 'FieldValueDuplicate';
  /** Lets a transition rule also run on create (then `oldSelf` is an optional). */
  readonly optionalOldSelf?: boolean;
}

/** Kubernetes-specific schema facts of one node that zod itself cannot carry. */
export interface CrdSchemaMeta {
  readonly description?: string;
  readonly validations?: readonly CelValidationRule[];
  /** Keeps fields the schema does not declare (`x-kubernetes-preserve-unknown-fields: true`). */
  readonly preserveUnknownFields?: boolean;
  /** Marks an object as a full Kubernetes object with apiVersion, kind and metadata. */
  readonly embeddedResource?: boolean;
  readonly listType?: 'atomic' | 'set' | 'map';
  readonly listMapKeys?: readonly string[];
  readonly mapType?: 'atomic' | 'granular';
  /**
   * CRD-only bound on the number of keys of a map, so that CEL rules iterating it stay within the API
   * server's cost budget (zod records cannot carry a size check).
   */
  readonly maxProperties?: number;
  /** OpenAPI `format` for strings whose zod schema does not say it (for example `date-time`). */
  readonly format?: string;
  /** Emit exactly this schema for the node instead of converting it (metadata, apiVersion, kind). */
  readonly openApi?: OpenApiSchema;
}

/** The view of the zod registry this module uses (zod's own typing of it is too deep for CrdSchemaMeta). */
export interface CrdSchemaRegistry {
  /** Metadata of `schema`, including what it inherited from the schema it was cloned from. */
  get(schema: z.ZodType): CrdSchemaMeta | undefined;
  add(schema: z.ZodType, meta: CrdSchemaMeta): unknown;
}

// Registered as plain objects: zod's registry maps its metadata type recursively, which never ends on
// the recursive OpenApiSchema inside CrdSchemaMeta.
const zodRegistry = z.registry<object>();

/** The zod registry the CRD generator reads; attach entries with {@link withCrdMeta}. */
export const crdSchemaRegistry: CrdSchemaRegistry = {
  get: (schema) => zodRegistry.get(schema),
  add: (schema, meta) => zodRegistry.add(schema, meta),
};

/**
 * Returns a copy of `schema` carrying `meta`, merged over the metadata the schema already has
 * (validations are appended). The copy keeps a shared schema (such as a LabelSelector) free of the
 * rules one of its usages needs.
 */
export function withCrdMeta<T extends z.ZodType>(schema: T, meta: CrdSchemaMeta): T {
  const inherited = crdSchemaRegistry.get(schema) ?? {};
  const copy = schema.clone();
  const validations = [...(inherited.validations ?? []), ...(meta.validations ?? [])];
  crdSchemaRegistry.add(copy, { ...inherited, ...meta, ...(validations.length > 0 ? { validations } : {}) });
  return copy;
}

/** Shorthand for {@link withCrdMeta} with only a description. */
export function withDescription<T extends z.ZodType>(schema: T, description: string): T {
  return withCrdMeta(schema, { description });
}

/** The CRD metadata of exactly this schema node (wrappers such as optional carry their own). */
export function crdMetaOf(schema: z.ZodType): CrdSchemaMeta {
  const own = crdSchemaRegistry.get(schema) ?? {};
  const description = own.description ?? z.globalRegistry.get(schema)?.description;
  return description === undefined ? own : { ...own, description };
}
