/**
 * meta/v1 ObjectMeta for the kinds this package defines. The API server validates metadata itself, so
 * the CRD declares it as a plain object; the zod schema checks the fields controllers rely on and keeps
 * the rest.
 */
import { z } from 'zod';

import { withCrdMeta } from '../crd/schema-metadata.ts';
import type { ObjectMeta } from './wire.ts';
import { wireTyped } from './wire-typed.ts';

const stringMap = z.record(z.string(), z.string());

/** meta/v1 OwnerReference (checked fields only). */
export const ownerReferenceSchema = z.looseObject({
  apiVersion: z.string(),
  kind: z.string(),
  name: z.string(),
  uid: z.string(),
  controller: z.boolean().optional(),
  blockOwnerDeletion: z.boolean().optional(),
});

/** meta/v1 ObjectMeta in its JSON form, emitted into a CRD as `type: object` (the API server owns it). */
export const objectMetaSchema = withCrdMeta(
  wireTyped<ObjectMeta>(
    z.looseObject({
      name: z.string().optional(),
      generateName: z.string().optional(),
      namespace: z.string().optional(),
      uid: z.string().optional(),
      resourceVersion: z.string().optional(),
      generation: z.int().optional(),
      creationTimestamp: z.string().optional(),
      deletionTimestamp: z.string().optional(),
      deletionGracePeriodSeconds: z.int().optional(),
      labels: stringMap.optional(),
      annotations: stringMap.optional(),
      finalizers: z.array(z.string()).optional(),
      ownerReferences: z.array(ownerReferenceSchema).optional(),
    }),
  ),
  { openApi: { type: 'object' } },
);

/** A string field the API server fills (apiVersion, kind), emitted as a plain `type: string`. */
export function typeMetaField<const T extends string>(value: T, description: string): z.ZodLiteral<T> {
  return withCrdMeta(z.literal(value), { openApi: { type: 'string' }, description });
}

/**
 * The `apiVersion` of a kind served in several versions: the schema every version of it is parsed
 * with (the controllers' hub type) accepts each, and the CRD sees a plain `type: string` as above.
 */
export function typeMetaApiVersionField<const T extends readonly [string, ...string[]]>(
  values: T,
  description: string,
): z.ZodEnum<{ [K in T[number]]: K }> {
  return withCrdMeta(z.enum(values), { openApi: { type: 'string' }, description });
}
