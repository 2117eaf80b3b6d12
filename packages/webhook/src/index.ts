/**
 * @kruise-ts/webhook: the admission and conversion webhooks of a kruise-ts process, on the runtime.
 *
 * STOP: this file is the public API of @kruise-ts/webhook. Add explicit named exports only (no `export *`).
 */

// Admission webhooks
export {
  ADMISSION_API_VERSION,
  admissionReviewResponse,
  admissionReviewSchema,
  allowedResponse,
  deniedResponse,
  parseAdmissionReview,
  patchResponse,
  patchResponseFromObjects,
} from './admission-review.ts';
export type {
  AdmissionHandler,
  AdmissionOperation,
  AdmissionRequest,
  AdmissionResponse,
  AdmissionReviewResponse,
  AdmissionStatus,
  DenialOptions,
  ResponseOptions,
} from './admission-review.ts';
export { createJsonPatch, escapeJsonPointerToken } from './json-patch.ts';
export { WebhookServer } from './webhook-server.ts';
export { webhookFlagsShape, webhookServerFromFlags } from './webhook-flags.ts';
export type { WebhookFlags } from './webhook-flags.ts';
export type { WebhookOptions, WebhookServerOptions } from './webhook-server.ts';
export { threadModuleUrl } from './thread/thread-handler.ts';
export type {
  MirroredInformer,
  ThreadedWebhook,
  ThreadHandlerContext,
  ThreadHandlerModule,
} from './thread/thread-handler.ts';
export type { FailurePolicy } from './invoke-handler.ts';
export { isWebhookUnavailable, WebhookUnavailableError } from './webhook-unavailable.ts';
export type {
  CertificateSource,
  CertificateStore,
  ServingCertificate,
  StoredCertificates,
  StoreSnapshot,
} from './certificate-source.ts';
export {
  CA_VALIDITY_MS,
  certificateValidity,
  generateCertificateAuthority,
  generateServingCertificate,
  renewalTime,
  SERVING_VALIDITY_MS,
} from './certificates.ts';
export type {
  CertificateAuthorityOptions,
  CertificateKeyPair,
  ServingCertificateOptions,
  Validity,
} from './certificates.ts';
export { SelfManagedCertificates } from './self-managed-certificates.ts';
export type { SelfManagedCertificatesOptions } from './self-managed-certificates.ts';
export { FileCertificates } from './file-certificates.ts';
export type { FileCertificatesOptions } from './file-certificates.ts';
export { SecretCertificateStore, secretResource } from './secret-store.ts';
export type { SecretCertificateStoreOptions, SecretLike } from './secret-store.ts';
export {
  CaBundleInjector,
  customResourceDefinitionResource,
  mutatingWebhookConfigurationResource,
  validatingWebhookConfigurationResource,
} from './ca-bundle-injector.ts';
export type {
  CaBundleInjectorOptions,
  CaBundleTarget,
  CustomResourceDefinitionLike,
  WebhookConfigurationKind,
  WebhookConfigurationLike,
} from './ca-bundle-injector.ts';
export { answerConversionReview, CONVERSION_REVIEW_API_VERSION, conversionReviewSchema } from './conversion-review.ts';
export type { ConversionRequest, ConversionReviewResponse, ObjectConverter } from './conversion-review.ts';
export { addLocalConversionWebhook, LocalConversionWebhook } from './local-conversion-webhook.ts';
export type { LocalConversionWebhookOptions } from './local-conversion-webhook.ts';
export {
  addLocalWebhookConfiguration,
  LOCAL_WEBHOOK_CONFIGURATION_LABEL,
  LocalWebhookConfiguration,
} from './local-webhook-configuration.ts';
export type {
  LocalWebhookBuildInput,
  LocalWebhookConfigurationOptions,
  LocalWebhookRegistration,
} from './local-webhook-configuration.ts';
