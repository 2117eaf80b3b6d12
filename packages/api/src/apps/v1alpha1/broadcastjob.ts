/**
 * The BroadcastJob object (apps.kruise.io v1alpha1 and v1beta1, namespaced): the zod schema every one
 * read from or written to the API goes through, and its inferred types. OpenKruise 1.9's two versions
 * have the same fields (packages/api/README.md, "API versions"), so one schema serves both and the CRD
 * needs no conversion.
 */
import { z } from 'zod';

import { withCrdMeta } from '../../crd/schema-metadata.ts';
import { objectMetaSchema, typeMetaApiVersionField, typeMetaField } from '../../meta/object-meta.ts';
import { APPS_KRUISE_IO_V1BETA1 } from '../v1beta1/group-version.ts';
import { BROADCASTJOB_KIND } from './broadcastjob-names.ts';
import { broadcastJobSpecSchema } from './broadcastjob-spec.ts';
import { broadcastJobStatusSchema } from './broadcastjob-status.ts';
import { APPS_KRUISE_IO_V1ALPHA1 } from './group-version.ts';

/** A BroadcastJob; loose at every level, so nothing undeclared is lost on a round trip. */
export const broadcastJobSchema = withCrdMeta(
  z.looseObject({
    apiVersion: typeMetaApiVersionField(
      [APPS_KRUISE_IO_V1ALPHA1, APPS_KRUISE_IO_V1BETA1],
      'API version of the object: apps.kruise.io/v1alpha1 or apps.kruise.io/v1beta1.',
    ),
    kind: typeMetaField(BROADCASTJOB_KIND, 'Kind of the object: BroadcastJob.'),
    metadata: objectMetaSchema,
    spec: broadcastJobSpecSchema,
    status: broadcastJobStatusSchema.optional(),
  }),
  {
    description: 'BroadcastJob: a pod run to completion on every eligible node.',
    validations: [
      {
        rule: "self.metadata.name.matches('^[a-zA-Z0-9-]+$') && size(self.metadata.name) <= 63",
        message:
          'metadata.name: a BroadcastJob name must consist of alphanumeric characters or "-", at most 63 characters',
        reason: 'FieldValueInvalid',
      },
    ],
  },
);
/** A BroadcastJob as stored (defaults applied). */
export type BroadcastJob = z.output<typeof broadcastJobSchema>;
/** A BroadcastJob as users write it. */
export type BroadcastJobInput = z.input<typeof broadcastJobSchema>;
