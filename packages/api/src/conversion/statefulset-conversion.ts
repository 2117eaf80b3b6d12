/**
 * Advanced StatefulSet v1alpha1 <-> v1beta1 (OpenKruise 1.9's `statefulset_conversion.go` semantics):
 * the fields both versions have are copied as they are; v1beta1's own (reserveOrdinals, lifecycle,
 * scaleStrategy, volumeClaimUpdateStrategy, persistentVolumeClaimRetentionPolicy, ordinals, and three
 * status counts) have no place in v1alpha1, where OpenKruise drops them and kruise-ts keeps them in the
 * `conversion.kruise-ts.io/v1beta1` annotation until the object comes back to v1beta1.
 */
import { STATEFULSET_V1BETA1_ONLY_SPEC_FIELDS } from '../apps/v1beta1/statefulset-spec.ts';
import { STATEFULSET_V1BETA1_ONLY_STATUS_FIELDS } from '../apps/v1beta1/statefulset-status.ts';
import { change, recordChangedFields, restoreRecordedFields } from './conversion-record.ts';
import type { FieldChange, JsonObject } from './conversion-record.ts';
import { STATEFULSET_INTO_V1ALPHA1, STATEFULSET_INTO_V1BETA1 } from './restorable-fields.ts';

/** A v1beta1 StatefulSet (a copy the caller owns) as v1alpha1; returns the record entries it ignored. */
export function statefulSetToV1alpha1(object: JsonObject): number {
  const { ignored } = restoreRecordedFields(object, STATEFULSET_INTO_V1ALPHA1);
  const changes: FieldChange[] = [];
  for (const field of STATEFULSET_V1BETA1_ONLY_SPEC_FIELDS) {
    const made = change(object, ['spec', field], undefined);
    if (made !== undefined) {
      changes.push(made);
    }
  }
  for (const field of STATEFULSET_V1BETA1_ONLY_STATUS_FIELDS) {
    const made = change(object, ['status', field], undefined);
    if (made !== undefined) {
      changes.push(made);
    }
  }
  recordChangedFields(object, STATEFULSET_INTO_V1BETA1, changes);
  return ignored;
}

/** A v1alpha1 StatefulSet (a copy the caller owns) as v1beta1: the fields kept from an earlier v1beta1 come back; returns the record entries it ignored. */
export function statefulSetToV1beta1(object: JsonObject): number {
  const { ignored } = restoreRecordedFields(object, STATEFULSET_INTO_V1BETA1);
  // Nothing of v1alpha1 is missing from v1beta1: no record, and none left from an older conversion.
  recordChangedFields(object, STATEFULSET_INTO_V1ALPHA1, []);
  return ignored;
}
