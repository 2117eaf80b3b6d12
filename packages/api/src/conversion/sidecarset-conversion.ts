/**
 * SidecarSet v1alpha1 <-> v1beta1 (OpenKruise 1.9's `sidecarset_conversion.go` semantics):
 * - v1alpha1 `spec.namespace: X` is v1beta1 `spec.namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: X}}`;
 * - v1alpha1's label `apps.kruise.io/sidecarset-custom-version` is v1beta1's `spec.customVersion`.
 * OpenKruise's conversion loses the spelling each time (a v1alpha1 `namespace` comes back as a
 * selector); here what one side changed is kept in the `conversion.kruise-ts.io/<version>` annotation
 * and put back when the object returns unchanged in those fields, so a round trip loses nothing.
 */
import { SIDECARSET_CUSTOM_VERSION_LABEL } from '../apps/v1alpha1/sidecarset-names.ts';
import { change, recordChangedFields, restoreRecordedFields } from './conversion-record.ts';
import type { FieldChange, JsonObject } from './conversion-record.ts';
import { valueAt } from './json-path.ts';
import { SIDECARSET_INTO_V1ALPHA1, SIDECARSET_INTO_V1BETA1 } from './restorable-fields.ts';
/** The label every namespace carries with its own name (Kubernetes 1.21+). */
const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';
const LABEL_PATH = ['metadata', 'labels', SIDECARSET_CUSTOM_VERSION_LABEL] as const;
const CUSTOM_VERSION_PATH = ['spec', 'customVersion'] as const;
const NAMESPACE_PATH = ['spec', 'namespace'] as const;
const NAMESPACE_SELECTOR_PATH = ['spec', 'namespaceSelector'] as const;

function defined(changes: readonly (FieldChange | undefined)[]): FieldChange[] {
  return changes.filter((made): made is FieldChange => made !== undefined);
}

/** A v1alpha1 SidecarSet (a copy the caller owns) as v1beta1; returns the record entries it ignored. */
export function sidecarSetToV1beta1(object: JsonObject): number {
  const { paths: restored, ignored } = restoreRecordedFields(object, SIDECARSET_INTO_V1BETA1);
  const changes: (FieldChange | undefined)[] = [];
  const namespace = valueAt(object, NAMESPACE_PATH);
  if (namespace !== undefined && !restored.includesAny(NAMESPACE_PATH, NAMESPACE_SELECTOR_PATH)) {
    // OpenKruise: a namespace wins over a namespaceSelector (v1alpha1 refuses both at once).
    if (typeof namespace === 'string' && namespace !== '') {
      changes.push(change(object, NAMESPACE_SELECTOR_PATH, { matchLabels: { [NAMESPACE_NAME_LABEL]: namespace } }));
    }
    changes.push(change(object, NAMESPACE_PATH, undefined));
  }
  const label = valueAt(object, LABEL_PATH);
  if (label !== undefined && !restored.includesAny(LABEL_PATH, CUSTOM_VERSION_PATH)) {
    changes.push(change(object, CUSTOM_VERSION_PATH, label));
    changes.push(change(object, LABEL_PATH, undefined));
  }
  recordChangedFields(object, SIDECARSET_INTO_V1ALPHA1, defined(changes));
  return ignored;
}

/** A v1beta1 SidecarSet (a copy the caller owns) as v1alpha1; returns the record entries it ignored. */
export function sidecarSetToV1alpha1(object: JsonObject): number {
  const { paths: restored, ignored } = restoreRecordedFields(object, SIDECARSET_INTO_V1ALPHA1);
  const changes: (FieldChange | undefined)[] = [];
  const customVersion = valueAt(object, CUSTOM_VERSION_PATH);
  if (!restored.includesAny(LABEL_PATH, CUSTOM_VERSION_PATH)) {
    if (customVersion !== undefined) {
      // OpenKruise writes the label only for a non-empty customVersion; an empty one is dropped.
      if (customVersion !== '') {
        changes.push(change(object, LABEL_PATH, customVersion));
      }
      changes.push(change(object, CUSTOM_VERSION_PATH, undefined));
    } else {
      // A v1beta1 label without customVersion: noted as seen, or the way back would make it the field.
      changes.push(change(object, LABEL_PATH, valueAt(object, LABEL_PATH)));
    }
  }
  recordChangedFields(object, SIDECARSET_INTO_V1BETA1, defined(changes));
  return ignored;
}
