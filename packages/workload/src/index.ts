/**
 * @kruise-ts/workload: mechanics shared by the workload controllers (no workload-specific knowledge):
 * pod state predicates, ownership claims, slow-start batches, the scale-in order and its rankers,
 * the update order (priority, scatter) and its unavailability limit, requeue delays, the expectations
 * a controller keeps of its own writes, the core resources they address, and the reconcile skeleton
 * all four apps run (`reconcileWorkload`).
 *
 * STOP: this file is the public API of @kruise-ts/workload. Add explicit named exports only (no `export *`).
 */

// Core resources.
export { nodeResource, podResource, pvcResource } from './resources.ts';
export {
  CACHE_DROPPED_POD_FIELDS,
  CACHE_DROPPED_POD_ITEMS,
  CACHE_KEPT_NODE_FIELDS,
  NODE_CACHE_FIELD_FILTER,
  POD_CACHE_FIELD_FILTER,
  trimNodeForCache,
  trimPodForCache,
} from './cache-transforms.ts';
export { trimCachedNodes, trimCachedPods } from './cache-registration.ts';

// Pod state.
export {
  conditionStatus,
  isBeingDeleted,
  isPodActive,
  isPodAvailable,
  isPodReady,
  isPodRunningAndReady,
  isPodScheduled,
  POD_READY_CONDITION,
  podAvailableInMs,
  podReadySince,
} from './pod-state.ts';
export type { AvailabilityOptions } from './pod-state.ts';
export { isPodUpdateReady, isPreparingDelete, isWorkloadPodAvailable, podLifecycleState } from './kruise-pod-state.ts';
export { metaTime } from './time.ts';

// Status conditions and reported problems.
export { findCondition, removeCondition, setCondition } from './conditions.ts';
export type { ConditionInput, SetConditionOptions, WorkloadCondition } from './conditions.ts';
export { isNewProblem, warnOnce } from './reported-problem.ts';
export { IN_PLACE_ONLY_NOT_POSSIBLE } from './condition-reasons.ts';
export type { ReportedProblem } from './reported-problem.ts';
export { CONTROLLER_READY_FALSE_PREFIX, controllerReadyFalse } from './pod-ready.ts';
export { labelValue } from './labels.ts';

// Ownership.
export { adoptPatch, claimDecision, claimObjects, isSameLiveOwner, newControllerRef, releasePatch } from './claim.ts';
export type { ClaimDecision, ClaimObjectsOptions, ClaimOwner, JsonPatch } from './claim.ts';

// Expectations: what a controller waits for its caches to show of its own writes.
export { ScaleExpectations } from './expectations/scale-expectations.ts';
export { ResourceVersionExpectations } from './expectations/resource-version-expectations.ts';
export {
  controllerExpectations,
  resourceVersionExpectationsFor,
  scaleExpectationsFor,
} from './expectations/controller-expectations.ts';
export type {
  ControllerExpectations,
  ExpectationsHost,
  ExpectationStoreOptions,
} from './expectations/controller-expectations.ts';

// Bounded writes and requeues.
export { slowStartBatch } from './slow-start.ts';
export { SlowStartMemory } from './slow-start-memory.ts';
export { mapWithConcurrency, POD_WRITE_CONCURRENCY, settleWithConcurrency } from './bounded-concurrency.ts';
export { CACHE_LAG_RETRY_MS, expectedWritesWait, laggingOwnedObject, ownedPodsWait } from './cache-lag.ts';
export { expectingOwnWrites, ownWriteRequeue, waitForOwnWrite, watchOwnWrites } from './own-writes.ts';
export type { SlowStartBatchOptions, SlowStartBatchResult } from './slow-start.ts';
export { RequeueAfter } from './requeue.ts';
export { errorMessage, stableMessage } from './failure-message.ts';

// Scale-in order.
export { parseDeletionCost, podDeletionCost } from './deletion-cost.ts';
export { activePodsComparator, podDeletionComparator, podRankingComparator } from './deletion-order.ts';
export type { PodComparator, PodDeletionComparatorOptions } from './deletion-order.ts';
export { chooseRanker, HOSTNAME_TOPOLOGY_KEY, rankPods, sameNodeRanks, spreadRanks } from './rankers.ts';
export type { PodRanker, RankPodsOptions, SpreadRanksOptions } from './rankers.ts';
export { choosePodsToDelete, scaleInOrder } from './choose-pods-to-delete.ts';
export type { ChoosePodsToDeleteOptions, GroupComparator, ScaleInOrderOptions } from './choose-pods-to-delete.ts';

// Update order.
export {
  priorityComparator,
  priorityOrder,
  priorityWeight,
  sortByPriority,
  trailingInteger,
} from './update-priority.ts';
export type { PriorityOrder } from './update-priority.ts';
export { scatterGroups, scatterSort, scatterTerms } from './update-scatter.ts';
export type { ScatterGroups, ScatterSortOptions } from './update-scatter.ts';
export { sortUpdateCandidates } from './update-order.ts';
export type { SortUpdateCandidatesOptions } from './update-order.ts';
export { limitUpdateCandidates } from './update-limit.ts';
export type { LimitUpdateCandidatesOptions } from './update-limit.ts';

// Event handlers of owned pods and PVCs.
export { ownerKeyOf, soleSelectingOwner, watchOwnedClaims, watchOwnedPods } from './owned-object-events.ts';
export type { OwnedObjectHandlerDeps, SelectingOwner } from './owned-object-events.ts';
export { claimCandidates, claimOwnerOf, freshOwnerCheck, staleObject } from './claim-candidates.ts';
export type { WorkloadReadCaches } from './claim-candidates.ts';
export { statusPatch, updateStatus } from './status-patch.ts';
export type { StatusWriter } from './status-patch.ts';
export { cachedParser } from './cached-parse.ts';

// The reconcile skeleton: the steps an app implements, the function that runs them, and its outcome.
export { reconcileWorkload } from './reconcile-workload.ts';
export type {
  CacheWaiter,
  SpecValidator,
  UnusableSpecReporter,
  WorkloadClients,
  WorkloadObject,
  WorkloadReader,
  WorkloadReconcileSteps,
  WorkloadSyncer,
} from './reconcile-steps.ts';
export { sooner } from './sync-outcome.ts';
export type { Synced, SyncOutcome, UnusableSpec, WaitingForCache } from './sync-outcome.ts';
export { reportUnusableSpec, unusableStatus } from './unusable-spec.ts';
export { writeWorkloadStatus } from './workload-status-write.ts';
export { asError, logFailure } from './reconcile-failure.ts';
export type { ObjectSchema, ParsedObject } from './cached-parse.ts';
