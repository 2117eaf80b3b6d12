/**
 * The SidecarSet object (apps.kruise.io/v1alpha1, cluster-scoped): the zod schema every one read from
 * or written to the API goes through, and its inferred types.
 */
import { z } from 'zod';

import { withCrdMeta } from '../../crd/schema-metadata.ts';
import { objectMetaSchema, typeMetaField } from '../../meta/object-meta.ts';
import { APPS_KRUISE_IO_V1ALPHA1 } from './group-version.ts';
import { SIDECARSET_KIND } from './sidecarset-names.ts';
import { sidecarSetSpecSchema } from './sidecarset-spec.ts';
import { sidecarSetStatusSchema } from './sidecarset-status.ts';

/** A SidecarSet; loose at every level, so nothing undeclared is lost on a round trip. */
export const sidecarSetSchema = withCrdMeta(
  z.looseObject({
    apiVersion: typeMetaField(APPS_KRUISE_IO_V1ALPHA1, 'API version of the object: apps.kruise.io/v1alpha1.'),
    kind: typeMetaField(SIDECARSET_KIND, 'Kind of the object: SidecarSet.'),
    metadata: objectMetaSchema,
    spec: sidecarSetSpecSchema,
    status: sidecarSetStatusSchema.optional(),
  }),
  {
    description: 'SidecarSet: sidecar containers injected into matching pods at creation and upgraded in place.',
    validations: [
      {
        rule: "self.metadata.name.matches('^[a-zA-Z0-9-]+$') && size(self.metadata.name) <= 63",
        message: 'metadata.name: a SidecarSet name must consist of alphanumeric characters or "-", at most 63 characters',
        reason: 'FieldValueInvalid',
      },
    ],
  },
);
/** A SidecarSet as stored (defaults applied). */
export type SidecarSet = z.output<typeof sidecarSetSchema>;
/** A SidecarSet as users write it. */
export type SidecarSetInput = z.input<typeof sidecarSetSchema>;

