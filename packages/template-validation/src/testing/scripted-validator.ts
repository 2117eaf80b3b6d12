/**
 * A template check for unit tests of a workload's reconciler: the verdict the test sets instead of the
 * API server's dry runs.
 */
import type { TemplateValidator, TemplateVerdict, ValidationTarget } from '../template-validator.ts';

export const VALID_VERDICT: TemplateVerdict = { kind: 'valid', warnings: [] };

/** The API server's answer to a template whose first container has no image. */
export const MISSING_IMAGE_VERDICT: TemplateVerdict = {
  kind: 'invalid',
  errors: [
    { field: 'spec.template.spec.containers[0].image', reason: 'FieldValueRequired', message: 'Required value' },
  ],
  warnings: [],
};

/** Answers `verdict`, which the test may change between reconciles, and keeps the targets it was asked about. */
export interface ScriptedValidator extends Pick<TemplateValidator, 'validate'> {
  verdict: TemplateVerdict;
  readonly targets: ValidationTarget[];
}

export function scriptedValidator(verdict: TemplateVerdict = VALID_VERDICT): ScriptedValidator {
  const validator: ScriptedValidator = {
    verdict,
    targets: [],
    validate: (target) => {
      validator.targets.push(target);
      return Promise.resolve(validator.verdict);
    },
  };
  return validator;
}
