/**
 * @kruise-ts/cloneset: the CloneSet controller, for the app's own main and for running several apps in
 * one process.
 *
 * STOP: this file is the public API of @kruise-ts/cloneset.
 */
export { CLONESET_CONTROLLER_NAME, CLONESET_EVENT_COMPONENT, setupCloneSetController } from './controller.ts';
export type { CloneSetControllerOptions } from './controller.ts';
export { cloneSetResource } from './cloneset-resource.ts';
export { cloneSetFlagsShape, cloneSetOptionsFromFlags } from './flags.ts';
export type { CloneSetFlags } from './flags.ts';
export { CLONESET_VALIDATION_WEBHOOK, setupCloneSetWebhook } from './validation/setup-webhook.ts';
export { cloneSetValidation } from './validation/cloneset-validation.ts';
export { cloneSetValidationTarget } from './validation/validation-target.ts';
export type { PodShapeOptions } from './validation/validation-target.ts';
