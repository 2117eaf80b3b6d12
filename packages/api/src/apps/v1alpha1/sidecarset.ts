/**
 * The SidecarSet object (apps.kruise.io v1alpha1 and v1beta1, cluster-scoped): the zod schema every one
 * read from or written to the API goes through (the hub: either version), its inferred types, and the
 * schema of each served version for the CRD.
 */
import { z } from 'zod';

import { withCrdMeta } from '../../crd/schema-metadata.ts';
import type { CrdSchemaMeta } from '../../crd/schema-metadata.ts';
import { objectMetaSchema, typeMetaApiVersionField, typeMetaField } from '../../meta/object-meta.ts';
import { APPS_KRUISE_IO_V1BETA1 } from '../v1beta1/group-version.ts';
import { APPS_KRUISE_IO_V1ALPHA1 } from './group-version.ts';
import { SIDECARSET_KIND } from './sidecarset-names.ts';
import { sidecarSetSpecSchema, sidecarSetV1alpha1SpecSchema, sidecarSetV1beta1SpecSchema } from './sidecarset-spec.ts';
import { sidecarSetStatusSchema } from './sidecarset-status.ts';

const objectMeta: CrdSchemaMeta = {
  description: 'SidecarSet: sidecar containers injected into matching pods at creation and upgraded in place.',
  validations: [
    {
      rule: "self.metadata.name.matches('^[a-zA-Z0-9-]+$') && size(self.metadata.name) <= 63",
      message: 'metadata.name: a SidecarSet name must consist of alphanumeric characters or "-", at most 63 characters',
      reason: 'FieldValueInvalid',
    },
  ],
};

function sidecarSetObject<A extends z.ZodType, S extends z.ZodType>(apiVersion: A, spec: S) {
  return withCrdMeta(
    z.looseObject({
      apiVersion,
      kind: typeMetaField(SIDECARSET_KIND, 'Kind of the object: SidecarSet.'),
      metadata: objectMetaSchema,
      spec,
      status: sidecarSetStatusSchema.optional(),
    }),
    objectMeta,
  );
}

/** A SidecarSet of either version; loose at every level, so nothing undeclared is lost on a round trip. */
export const sidecarSetSchema = sidecarSetObject(
  typeMetaApiVersionField(
    [APPS_KRUISE_IO_V1ALPHA1, APPS_KRUISE_IO_V1BETA1],
    'API version of the object: apps.kruise.io/v1alpha1 or apps.kruise.io/v1beta1.',
  ),
  sidecarSetSpecSchema,
);
/** A SidecarSet as stored (defaults applied). */
export type SidecarSet = z.output<typeof sidecarSetSchema>;
/** A SidecarSet as users write it. */
export type SidecarSetInput = z.input<typeof sidecarSetSchema>;

/** apps.kruise.io/v1alpha1 SidecarSet, as the CRD serves it. */
export const sidecarSetV1alpha1Schema = sidecarSetObject(
  typeMetaField(APPS_KRUISE_IO_V1ALPHA1, 'API version of the object: apps.kruise.io/v1alpha1.'),
  sidecarSetV1alpha1SpecSchema,
);

/** apps.kruise.io/v1beta1 SidecarSet, as the CRD serves it (the storage version). */
export const sidecarSetV1beta1Schema = sidecarSetObject(
  typeMetaField(APPS_KRUISE_IO_V1BETA1, 'API version of the object: apps.kruise.io/v1beta1.'),
  sidecarSetV1beta1SpecSchema,
);
