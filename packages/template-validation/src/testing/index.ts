/**
 * Test support of @kruise-ts/template-validation: validation webhooks registered with a real API
 * server, and a template check whose verdict the test sets.
 *
 * STOP: this file is the public testing API. Add explicit named exports only (no `export *`).
 */
export { TestValidationWebhook } from './test-validation-webhook.ts';
export type { TestValidationWebhookOptions } from './test-validation-webhook.ts';
export { MISSING_IMAGE_VERDICT, scriptedValidator, VALID_VERDICT } from './scripted-validator.ts';
export type { ScriptedValidator } from './scripted-validator.ts';
