/**
 * The CloneSet object (apps.kruise.io/v1alpha1): the zod schema every CloneSet read from or written to
 * the API goes through, and its inferred types.
 */
import { z } from 'zod';

import { withDescription } from '../../crd/schema-metadata.ts';
import { objectMetaSchema, typeMetaField } from '../../meta/object-meta.ts';
import { cloneSetSpecSchema } from './cloneset-spec.ts';
import { cloneSetStatusSchema } from './cloneset-status.ts';
import { APPS_KRUISE_IO_V1ALPHA1, CLONESET_KIND } from './group-version.ts';

/**
 * A CloneSet. Loose at every level: `parse` keeps fields this schema does not declare, so an object read
 * from the API and written back loses nothing, and applies the same defaults as the API server.
 */
export const cloneSetSchema = withDescription(
  z.looseObject({
    apiVersion: typeMetaField(APPS_KRUISE_IO_V1ALPHA1, 'API version of the object: apps.kruise.io/v1alpha1.'),
    kind: typeMetaField(CLONESET_KIND, 'Kind of the object: CloneSet.'),
    metadata: objectMetaSchema,
    spec: cloneSetSpecSchema,
    status: cloneSetStatusSchema.optional(),
  }),
  'CloneSet manages interchangeable pods: in-place updates, per-pod PVCs, chosen pods deleted first, rollouts by partition.',
);
/** A CloneSet as stored (defaults applied). */
export type CloneSet = z.output<typeof cloneSetSchema>;
/** A CloneSet as users write it (defaulted fields optional). */
export type CloneSetInput = z.input<typeof cloneSetSchema>;

/** A list of CloneSets as the API returns it. */
export const cloneSetListSchema = z.looseObject({
  apiVersion: z.string(),
  kind: z.string(),
  metadata: z.looseObject({ resourceVersion: z.string().optional(), continue: z.string().optional() }),
  items: z.array(cloneSetSchema),
});
/** A CloneSet list. */
export type CloneSetList = z.output<typeof cloneSetListSchema>;
