/**
 * OpenKruise's update rule for `InPlaceOnly` (CloneSet `updateStrategy.type`, Advanced StatefulSet
 * `podUpdatePolicy`): between the old and the new `template.spec` only container images may change,
 * since anything else would need new pods, which InPlaceOnly never makes. No dry run can see it (it
 * compares two versions) and CEL sees only what the CRD declares of the template (container names),
 * so the CRD checks names and order and the webhook checks the rest.
 */
import { createJsonPatch } from '@kruise-ts/webhook';

import type { FieldError } from './field-error.ts';

const IMAGE_PATH = /^\/containers\/\d+\/image$/;

/** The message OpenKruise's webhook gives, with the first change that is not an image. */
export const IN_PLACE_ONLY_MESSAGE = 'only allowed to update images in spec for InPlaceOnly';

/**
 * The changes from `oldSpec` to `newSpec` that InPlaceOnly forbids, as errors at `field` (the
 * template's spec in the workload); none when only images changed.
 */
export function inPlaceOnlyViolations(oldSpec: unknown, newSpec: unknown, field: string): FieldError[] {
  const forbidden = createJsonPatch(oldSpec ?? {}, newSpec ?? {}).filter(
    (operation) => operation.op !== 'replace' || !IMAGE_PATH.test(operation.path),
  );
  const [first] = forbidden;
  if (first === undefined) {
    return [];
  }
  const more = forbidden.length > 1 ? ` (and ${String(forbidden.length - 1)} more)` : '';
  return [
    {
      field,
      reason: 'FieldValueForbidden',
      message: `Forbidden: ${IN_PLACE_ONLY_MESSAGE}, but found ${first.op} ${first.path}${more}`,
    },
  ];
}
