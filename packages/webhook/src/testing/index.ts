/**
 * Test helpers for code built on `@kruise-ts/webhook`. Import only from test files.
 *
 * STOP: this file is the public API of `@kruise-ts/webhook/testing`.
 */
export { TestWebhookRegistration } from './test-webhook-registration.ts';
export type { TestWebhookRegistrationOptions } from './test-webhook-registration.ts';
export { admissionRequest } from './admission-request.ts';
export type { AdmissionRequestInput } from './admission-request.ts';
export { corruptJson, fuzzAdmissionBody, isJsonError, postAdmissionReview } from './admission-fuzz.ts';
export type { AdmissionAnswer, AdmissionTarget } from './admission-fuzz.ts';
