/**
 * The Advanced StatefulSet object (apps.kruise.io/v1beta1 StatefulSet): the zod schema every one read
 * from or written to the API goes through (v1beta1, the storage version, which the controller reads),
 * its inferred types, and the v1alpha1 object the CRD also serves.
 */
import { z } from 'zod';

import { withDescription } from '../../crd/schema-metadata.ts';
import { objectMetaSchema, typeMetaField } from '../../meta/object-meta.ts';
import { APPS_KRUISE_IO_V1ALPHA1 } from '../v1alpha1/group-version.ts';
import { APPS_KRUISE_IO_V1BETA1, STATEFULSET_KIND } from './group-version.ts';
import { statefulSetSpecSchema, statefulSetV1alpha1SpecSchema } from './statefulset-spec.ts';
import { statefulSetStatusSchema, statefulSetV1alpha1StatusSchema } from './statefulset-status.ts';

const DESCRIPTION =
  'Advanced StatefulSet: pods with stable identities and storage, updated in place or recreated, with reserved ordinals, partition and parallel rollouts.';

/** An Advanced StatefulSet; loose at every level, so nothing undeclared is lost on a round trip. */
export const statefulSetSchema = withDescription(
  z.looseObject({
    apiVersion: typeMetaField(APPS_KRUISE_IO_V1BETA1, 'API version of the object: apps.kruise.io/v1beta1.'),
    kind: typeMetaField(STATEFULSET_KIND, 'Kind of the object: StatefulSet.'),
    metadata: objectMetaSchema,
    spec: statefulSetSpecSchema,
    status: statefulSetStatusSchema.optional(),
  }),
  DESCRIPTION,
);
/** An Advanced StatefulSet as stored (defaults applied). */
export type StatefulSet = z.output<typeof statefulSetSchema>;
/** An Advanced StatefulSet as users write it. */
export type StatefulSetInput = z.input<typeof statefulSetSchema>;

/** apps.kruise.io/v1alpha1 StatefulSet, as the CRD serves it (fewer fields; converted by the app's webhook). */
export const statefulSetV1alpha1Schema = withDescription(
  z.looseObject({
    apiVersion: typeMetaField(APPS_KRUISE_IO_V1ALPHA1, 'API version of the object: apps.kruise.io/v1alpha1.'),
    kind: typeMetaField(STATEFULSET_KIND, 'Kind of the object: StatefulSet.'),
    metadata: objectMetaSchema,
    spec: statefulSetV1alpha1SpecSchema,
    status: statefulSetV1alpha1StatusSchema.optional(),
  }),
  DESCRIPTION,
);
