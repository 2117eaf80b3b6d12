/**
 * @kruise-ts/template-validation: pod templates validated with the API server's own rules (server-side
 * dry runs of the pod and claims a workload would create), answered at the workload's field paths;
 * the update rules no dry run can see (InPlaceOnly); the admission handler and webhook configuration
 * every workload app registers; and the controllers' check for when the webhook was skipped.
 *
 * STOP: this file is the public API of @kruise-ts/template-validation. Add explicit named exports only (no `export *`).
 */
export { checkTemplate, mayCreatePods, templateProblemMessage, templateValidatorFor } from './controller-check.ts';
export type { ReplicatedWorkload, TemplateCheckContext } from './controller-check.ts';
export { apiDryRun, dryRunOutcome } from './dry-run.ts';
export type { DryRunOutcome, DryRunWriter } from './dry-run.ts';
export { formatFieldError, formatFieldErrors } from './field-error.ts';
export type { FieldError } from './field-error.ts';
export { claimTemplateMapping, podTemplateMapping, prefixMapping } from './field-mapping.ts';
export type { FieldMapping, PodTemplatePaths } from './field-mapping.ts';
export { IN_PLACE_ONLY_MESSAGE, inPlaceOnlyViolations } from './in-place-only.ts';
export { TemplateValidator, verdictOf } from './template-validator.ts';
export type { TemplateValidatorOptions, TemplateVerdict, ValidationTarget } from './template-validator.ts';
export { admissionParser } from './admission-parser.ts';
export { validationHandler } from './validation-handler.ts';
export type { ParsedWorkload, WorkloadValidation } from './validation-handler.ts';
export { digestOf, VerdictCache } from './verdict-cache.ts';
export type { VerdictCacheOptions } from './verdict-cache.ts';
export { validatingWebhookConfiguration } from './webhook-configuration.ts';
export type { ValidatingConfigurationOptions, ValidationWebhook } from './webhook-configuration.ts';
