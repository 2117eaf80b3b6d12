/**
 * @kruise-ts/broadcastjob: the BroadcastJob app (one pod run to completion on every eligible node),
 * for the app's own main and for running several apps in one process.
 *
 * STOP: this file is the public API of @kruise-ts/broadcastjob.
 */
export { checkNodeFitness, NodeUnfitReason, podRequests, untoleratedTaintReason } from './nodes/node-fitness.ts';
export type { FitResult } from './nodes/node-fitness.ts';
export { matchesRequiredNodeAffinity } from './nodes/node-affinity.ts';
export { toleratesTaint, untoleratedTaint } from './nodes/taints.ts';
export type { Taint, Toleration } from './nodes/taints.ts';
export { assignedNode, pinnedToNode } from './nodes/pod-node.ts';
