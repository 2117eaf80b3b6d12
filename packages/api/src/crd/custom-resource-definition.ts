/**
 * Builds an apiextensions.k8s.io/v1 CustomResourceDefinition from a declarative, kind-agnostic
 * definition whose versions carry zod schemas. Every kind of the project goes through this one
 * function, so all CRDs share the same structural-schema guarantees.
 */
import type { z } from 'zod';

import { CrdSchemaError, toOpenApiSchema } from './openapi-schema.ts';
import type { OpenApiSchema } from './openapi-types.ts';
import { findStructuralViolations } from './structural-schema.ts';

/** Names under which the API server serves a custom resource. */
export interface CrdNames {
  readonly kind: string;
  readonly plural: string;
  readonly singular: string;
  /** Defaults to `<kind>List`. */
  readonly listKind?: string;
  readonly shortNames?: readonly string[];
  readonly categories?: readonly string[];
}

/** The scale subresource: where `kubectl scale` and the HPA read and write replicas. */
export interface ScaleSubresource {
  readonly specReplicasPath: string;
  readonly statusReplicasPath: string;
  readonly labelSelectorPath?: string;
}

/** Subresources of one version. */
export interface CrdSubresources {
  readonly status?: boolean;
  readonly scale?: ScaleSubresource;
}

/** One `kubectl get` column. */
export interface PrinterColumn {
  readonly name: string;
  readonly type: 'integer' | 'number' | 'string' | 'boolean' | 'date';
  readonly jsonPath: string;
  readonly description?: string;
  readonly format?: string;
  /** 0 shows the column always; 1 only with `-o wide`. */
  readonly priority?: number;
}

/** One API version of a kind with the zod schema of the whole object. */
export interface CrdVersionDefinition {
  readonly name: string;
  readonly served: boolean;
  readonly storage: boolean;
  /** The object schema (apiVersion, kind, metadata, spec, status) of this version. */
  readonly schema: z.ZodType;
  readonly subresources?: CrdSubresources;
  readonly additionalPrinterColumns?: readonly PrinterColumn[];
  readonly deprecated?: boolean;
  readonly deprecationWarning?: string;
}

/**
 * How the API server converts between versions: `None` (only apiVersion changes; for versions whose
 * schemas are the same) or a conversion webhook behind a Service. The chart and the launcher point the
 * webhook at the app that serves it and keep its caBundle current; in `crds/` it names the default
 * Service of the app's flags.
 */
export type CrdConversion =
  | { readonly strategy: 'None' }
  | {
      readonly strategy: 'Webhook';
      readonly service: {
        readonly name: string;
        readonly namespace: string;
        readonly path: string;
        readonly port?: number;
      };
    };

/** A kind as the generator takes it. */
export interface CrdDefinition {
  readonly group: string;
  readonly names: CrdNames;
  readonly scope: 'Namespaced' | 'Cluster';
  readonly versions: readonly CrdVersionDefinition[];
  /** Only for kinds served in more than one version. */
  readonly conversion?: CrdConversion;
}

/** The `spec.conversion` of the generated CRD. */
export type GeneratedConversion =
  | { readonly strategy: 'None'; readonly webhook: null }
  | {
      readonly strategy: 'Webhook';
      readonly webhook: {
        readonly conversionReviewVersions: readonly string[];
        readonly clientConfig: {
          readonly service: {
            readonly name: string;
            readonly namespace: string;
            readonly path: string;
            readonly port: number;
          };
        };
      };
    };

/** The generated CustomResourceDefinition object, ready to serialise. */
export interface CustomResourceDefinitionManifest {
  readonly apiVersion: 'apiextensions.k8s.io/v1';
  readonly kind: 'CustomResourceDefinition';
  readonly metadata: { readonly name: string };
  readonly spec: {
    readonly group: string;
    readonly names: Omit<CrdNames, 'listKind'> & { readonly listKind: string };
    readonly scope: 'Namespaced' | 'Cluster';
    readonly versions: readonly GeneratedVersion[];
    readonly conversion?: GeneratedConversion;
  };
}

/** One version of the generated CustomResourceDefinition. */
export interface GeneratedVersion {
  readonly name: string;
  readonly served: boolean;
  readonly storage: boolean;
  readonly deprecated?: boolean;
  readonly deprecationWarning?: string;
  readonly schema: { readonly openAPIV3Schema: OpenApiSchema };
  readonly subresources?: { readonly status?: Record<string, never>; readonly scale?: ScaleSubresource };
  readonly additionalPrinterColumns?: readonly PrinterColumn[];
}

/**
 * Builds the CustomResourceDefinition of `definition`. Throws {@link CrdSchemaError} when a version's
 * schema is not structural or when the versions do not name exactly one storage version.
 */
export function buildCustomResourceDefinition(definition: CrdDefinition): CustomResourceDefinitionManifest {
  const storageVersions = definition.versions.filter((version) => version.storage);
  if (storageVersions.length !== 1) {
    throw new CrdSchemaError(
      `${definition.names.plural}.${definition.group}: exactly one version must be the storage version`,
    );
  }
  if (definition.versions.length > 1 && definition.conversion === undefined) {
    throw new CrdSchemaError(
      `${definition.names.plural}.${definition.group}: a kind served in several versions must say how they are converted`,
    );
  }
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${definition.names.plural}.${definition.group}` },
    spec: {
      group: definition.group,
      names: { ...definition.names, listKind: definition.names.listKind ?? `${definition.names.kind}List` },
      scope: definition.scope,
      versions: definition.versions.map((version) => buildVersion(definition, version)),
      ...(definition.conversion === undefined ? {} : { conversion: buildConversion(definition.conversion) }),
    },
  };
}

function buildVersion(definition: CrdDefinition, version: CrdVersionDefinition): GeneratedVersion {
  const openAPIV3Schema = toOpenApiSchema(version.schema);
  const violations = findStructuralViolations(openAPIV3Schema);
  if (violations.length > 0) {
    throw new CrdSchemaError(
      `${definition.names.plural}.${definition.group}/${version.name} is not structural:\n  ${violations.join('\n  ')}`,
    );
  }
  return {
    name: version.name,
    served: version.served,
    storage: version.storage,
    ...(version.deprecated === undefined ? {} : { deprecated: version.deprecated }),
    ...(version.deprecationWarning === undefined ? {} : { deprecationWarning: version.deprecationWarning }),
    schema: { openAPIV3Schema },
    ...(version.subresources === undefined ? {} : { subresources: buildSubresources(version.subresources) }),
    ...(version.additionalPrinterColumns === undefined
      ? {}
      : { additionalPrinterColumns: version.additionalPrinterColumns }),
  };
}

function buildSubresources(subresources: CrdSubresources): NonNullable<GeneratedVersion['subresources']> {
  return {
    ...(subresources.status === true ? { status: {} } : {}),
    ...(subresources.scale === undefined ? {} : { scale: subresources.scale }),
  };
}

function buildConversion(conversion: CrdConversion): GeneratedConversion {
  if (conversion.strategy === 'None') {
    // An explicit null: `kubectl apply` over a CRD that had a webhook (OpenKruise's) merges the file
    // into it and would keep the old webhook, which the API server refuses with strategy None.
    return { strategy: 'None', webhook: null };
  }
  // v1 only: every API server that serves apiextensions.k8s.io/v1 CRDs sends ConversionReview v1.
  return {
    strategy: 'Webhook',
    webhook: { conversionReviewVersions: ['v1'], clientConfig: { service: { port: 443, ...conversion.service } } },
  };
}
