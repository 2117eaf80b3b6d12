/**
 * @kruise-ts/sidecarset: the SidecarSet app (injection of sidecars into new pods, status, and the
 * report of pods created without them), for the app's own main and for running several apps in one
 * process.
 *
 * STOP: this file is the public API of @kruise-ts/sidecarset.
 */
export { setupSidecarSetController, SIDECARSET_CONTROLLER_NAME, SIDECARSET_EVENT_COMPONENT } from './controller.ts';
export type { SidecarSetControllerOptions } from './controller.ts';
export { sidecarSetFlagsShape, sidecarSetOptionsFromFlags } from './flags.ts';
export type { SidecarSetFlags } from './flags.ts';
export { injectSidecars } from './injection/inject-pod.ts';
export { injectingSidecarSets, sidecarSetMatchesPod } from './injection/pod-match.ts';
export {
  MISSED_INJECTION,
  SIDECAR_INJECTION_MISSED_REASON,
  SIDECARSET_CONFLICT_CONDITION,
  SIDECARSET_CONFLICT_REASON,
} from './reconciler.ts';
export {
  conflictsBetween,
  resolveInjectionConflicts,
  sidecarSetsMayOverlap,
  yieldingConflicts,
} from './conflict/sidecarset-conflicts.ts';
export type { SidecarSetConflict } from './conflict/sidecarset-conflicts.ts';
export { sidecarSetHash, sidecarSetHashWithoutImage } from './hash/sidecarset-hash.ts';
export { parseSidecarSet, sidecarSetResource } from './sidecarset-resource.ts';
export { POD_WEBHOOK_PATH, setupSidecarSetWebhook } from './webhook/setup-webhook.ts';
export { podInjectionHandler } from './webhook/pod-injection-handler.ts';
export type { PodInjectionDeps } from './webhook/pod-injection-handler.ts';
export { POD_WEBHOOK_NAME, podWebhookConfiguration } from './webhook/webhook-configuration.ts';
export type { PodWebhookConfigurationOptions } from './webhook/webhook-configuration.ts';
export {
  addLocalPodWebhookConfiguration,
  localPodWebhookConfiguration,
  webhookNamespaceSelector,
} from './webhook/local-webhook-configuration.ts';
export type { LocalPodWebhookOptions } from './webhook/local-webhook-configuration.ts';
export type { SidecarSetWebhookOptions } from './webhook/setup-webhook.ts';
export { historySidecarSet, sidecarSetRevisionCandidate, sidecarSetRevisionData } from './revision/revision-data.ts';
export { injectionVersion, pinnedRevision } from './revision/pinned-revision.ts';
export { registerLatestRevision } from './revision/register-revision.ts';
export { SIDECARSET_VALIDATION_WEBHOOK, setupSidecarSetValidationWebhook } from './validation/setup-webhook.ts';
export { sidecarSetValidation } from './validation/sidecarset-validation.ts';
export {
  PLACEHOLDER_CONTAINER_NAME,
  sidecarSetValidationPod,
  sidecarSetValidationTarget,
  VALIDATION_POD_NAME,
} from './validation/validation-target.ts';
export type { SidecarSetValidationOptions } from './validation/validation-target.ts';
