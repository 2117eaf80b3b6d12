/**
 * What a conversion record may put back, by kind and by the version it restores into: the fields that
 * the other version cannot hold, each with the schema of the field it restores to. The annotation is
 * user-writable (anyone who may write the object may write it), so anything else in a record, however
 * it got there, is ignored; these lists, not the record, decide which paths a restore can touch.
 */
import type { z } from 'zod';

import { SIDECARSET_CUSTOM_VERSION_LABEL } from '../apps/v1alpha1/sidecarset-names.ts';
import { sidecarSetSpecSchema, sidecarSetV1alpha1SpecSchema } from '../apps/v1alpha1/sidecarset-spec.ts';
import { STATEFULSET_V1BETA1_ONLY_SPEC_FIELDS, statefulSetSpecSchema } from '../apps/v1beta1/statefulset-spec.ts';
import { STATEFULSET_V1BETA1_ONLY_STATUS_FIELDS, statefulSetStatusSchema } from '../apps/v1beta1/statefulset-status.ts';
import { labelValueSchema } from '../meta/label-selector.ts';
import { isPrototypeKey } from './json-path.ts';

/** A field a record may restore, and the schema its restored value must pass. */
export interface RestorableField {
  readonly path: readonly string[];
  readonly schema: z.ZodType;
}

/**
 * What a record written toward the other version carries besides the changes, to tell a stale copy:
 * `uid-and-generation` for a record that travels with the other version's view of the object (it
 * comes back only in a write of that view, made from a read at that generation); `uid` for a record
 * stored with the object, whose generation the API server bumps right after the conversion.
 */
export type RecordStamp = 'uid-and-generation' | 'uid';

/** The record of the annotation `conversion.kruise-ts.io/<version>`: what converting into `version` may put back. */
export interface RestoreRule {
  readonly version: string;
  readonly fields: readonly RestorableField[];
  readonly stamp: RecordStamp;
}

/** Metadata a conversion may change (the API server refuses any other change of metadata in a conversion). */
const CHANGEABLE_METADATA: ReadonlySet<string> = new Set(['labels', 'annotations']);

/** A rule, refused at load when a field could touch the object's identity or a prototype: those are never restorable. */
function restoreRule(version: string, stamp: RecordStamp, fields: readonly RestorableField[]): RestoreRule {
  for (const { path } of fields) {
    const [root, field] = path;
    const identity =
      root === undefined ||
      root === 'apiVersion' ||
      root === 'kind' ||
      (root === 'metadata' && (field === undefined || !CHANGEABLE_METADATA.has(field) || path.length !== 3));
    if (identity || path.some(isPrototypeKey)) {
      throw new Error(`${JSON.stringify(path)} cannot be a restorable field`);
    }
  }
  return { version, stamp, fields };
}

const CUSTOM_VERSION_LABEL: RestorableField = {
  path: ['metadata', 'labels', SIDECARSET_CUSTOM_VERSION_LABEL],
  schema: labelValueSchema,
};
const CUSTOM_VERSION: RestorableField = {
  path: ['spec', 'customVersion'],
  schema: sidecarSetSpecSchema.shape.customVersion,
};

/** Advanced StatefulSet into v1beta1 (the record of a v1beta1 object read as v1alpha1): the fields v1alpha1 lacks. */
export const STATEFULSET_INTO_V1BETA1 = restoreRule('v1beta1', 'uid-and-generation', [
  ...STATEFULSET_V1BETA1_ONLY_SPEC_FIELDS.map((field) => ({
    path: ['spec', field],
    schema: statefulSetSpecSchema.shape[field],
  })),
  ...STATEFULSET_V1BETA1_ONLY_STATUS_FIELDS.map((field) => ({
    path: ['status', field],
    schema: statefulSetStatusSchema.shape[field],
  })),
]);

/** Advanced StatefulSet into v1alpha1: v1beta1 holds every v1alpha1 field, so nothing (no such record is written). */
export const STATEFULSET_INTO_V1ALPHA1 = restoreRule('v1alpha1', 'uid', []);

/** SidecarSet into v1beta1 (the record of a v1beta1 object read as v1alpha1): customVersion, and the label it was made into. */
export const SIDECARSET_INTO_V1BETA1 = restoreRule('v1beta1', 'uid-and-generation', [
  CUSTOM_VERSION_LABEL,
  CUSTOM_VERSION,
]);

/** SidecarSet into v1alpha1 (the record stored with a v1alpha1 object written as v1beta1): namespace, and what it and the label were made into. */
export const SIDECARSET_INTO_V1ALPHA1 = restoreRule('v1alpha1', 'uid', [
  { path: ['spec', 'namespace'], schema: sidecarSetV1alpha1SpecSchema.shape.namespace },
  { path: ['spec', 'namespaceSelector'], schema: sidecarSetV1alpha1SpecSchema.shape.namespaceSelector },
  CUSTOM_VERSION_LABEL,
  CUSTOM_VERSION,
]);
