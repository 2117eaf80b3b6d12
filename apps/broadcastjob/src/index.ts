/**
 * @kruise-ts/broadcastjob: the BroadcastJob app (one pod run to completion on every eligible node),
 * for the app's own main and for running several apps in one process.
 *
 * STOP: this file is the public API of @kruise-ts/broadcastjob.
 */
export {
  BROADCASTJOB_CONTROLLER_NAME,
  BROADCASTJOB_EVENT_COMPONENT,
  setupBroadcastJobController,
} from './controller.ts';
export type { BroadcastJobControllerOptions } from './controller.ts';
export { broadcastJobFlagsShape, broadcastJobOptionsFromFlags } from './flags.ts';
export type { BroadcastJobFlags } from './flags.ts';
export { broadcastJobResource, parseBroadcastJob } from './broadcastjob-resource.ts';
export { checkNodeFitness, podRequests } from './nodes/node-fitness.ts';
export type { FitResult } from './nodes/node-fitness.ts';
export { NodeUnfitReason, untoleratedTaintReason } from './nodes/node-fitness.ts';
export { matchesRequiredNodeAffinity } from './nodes/node-affinity.ts';
export { toleratesTaint, untoleratedTaint } from './nodes/taints.ts';
export type { Taint, Toleration } from './nodes/taints.ts';
export { assignedNode, pinnedToNode } from './nodes/pod-node.ts';
export { FAILED_CREATE_POD, INVALID_TEMPLATE, NO_ELIGIBLE_NODE } from './job/job-status.ts';
export { BROADCASTJOB_VALIDATION_WEBHOOK, setupBroadcastJobWebhook } from './validation/setup-webhook.ts';
export { broadcastJobValidation } from './validation/broadcastjob-validation.ts';
export { broadcastJobValidationTarget } from './validation/validation-target.ts';
export type { PodShapeOptions } from './validation/validation-target.ts';
