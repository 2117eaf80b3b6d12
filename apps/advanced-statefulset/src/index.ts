/**
 * @kruise-ts/advanced-statefulset: the Advanced StatefulSet controller, for the app's own main and for
 * running several apps in one process.
 *
 * STOP: this file is the public API of @kruise-ts/advanced-statefulset.
 */
export { setupStatefulSetController, STATEFULSET_CONTROLLER_NAME, STATEFULSET_EVENT_COMPONENT } from './controller.ts';
export type { StatefulSetControllerOptions } from './controller.ts';
export { statefulSetResource } from './statefulset-resource.ts';
export { statefulSetFlagsShape, statefulSetOptionsFromFlags } from './flags.ts';
export type { StatefulSetFlags } from './flags.ts';
export { setupStatefulSetWebhook, STATEFULSET_VALIDATION_WEBHOOK } from './validation/setup-webhook.ts';
export { statefulSetValidation } from './validation/statefulset-validation.ts';
export { statefulSetValidationTarget } from './validation/validation-target.ts';
export type { PodShapeOptions } from './validation/validation-target.ts';
