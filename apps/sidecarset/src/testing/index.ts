/**
 * Test helpers of the SidecarSet app for integration tests (its own and the launcher's). Import only
 * from test files.
 *
 * STOP: this file is the public API of `@kruise-ts/sidecarset/testing`.
 */
export { TestPodWebhook } from './test-pod-webhook.ts';
export type { TestPodWebhookOptions } from './test-pod-webhook.ts';
