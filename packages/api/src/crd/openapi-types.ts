/**
 * The subset of apiextensions.k8s.io/v1 JSONSchemaProps that the CRD generator emits, with the wire
 * names of the Kubernetes extensions, so a generated schema serialises to YAML without renaming.
 */
import type { CelValidationRule } from './schema-metadata.ts';

/** JSON value allowed in `default` and `enum`. */
export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** One node of a structural OpenAPI v3 schema as a CustomResourceDefinition carries it. */
export interface OpenApiSchema {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  format?: string;
  description?: string;
  default?: JsonValue;
  enum?: readonly JsonValue[];
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  minProperties?: number;
  maxProperties?: number;
  properties?: Record<string, OpenApiSchema>;
  required?: readonly string[];
  additionalProperties?: OpenApiSchema;
  items?: OpenApiSchema;
  anyOf?: readonly OpenApiSchema[];
  'x-kubernetes-int-or-string'?: true;
  'x-kubernetes-preserve-unknown-fields'?: true;
  'x-kubernetes-embedded-resource'?: true;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: readonly string[];
  'x-kubernetes-map-type'?: 'atomic' | 'granular';
  'x-kubernetes-validations'?: readonly CelValidationRule[];
}
