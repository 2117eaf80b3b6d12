/**
 * @kruise-ts/controller-runtime: the runtime every kruise-ts controller stands on.
 *
 * STOP: this file is the public API of @kruise-ts/controller-runtime. Everything else is internal.
 */

// Client
export {
  ApiError,
  apiErrorFromAnswer,
  isAlreadyExists,
  isConflict,
  isForbidden,
  isGone,
  isInvalid,
  isNotFound,
  isTooManyRequests,
} from './client/api-error.ts';
export type { ErrorAnswer, StatusBody, StatusCause, StatusReason } from './client/api-error.ts';
export { createClient, createRestClient } from './client/client.ts';
export type {
  Client,
  DeleteOptions,
  JsonPatchOperation,
  ListOptions,
  ObjectKeyRef,
  ObjectList,
  Patch,
  PatchOptions,
  PatchRequest,
  Reader,
  RequestSender,
  RestClient,
  StatusWriter,
  WriteOptions,
  Writer,
} from './client/client.ts';
export { controllerRef, objectKey, splitObjectKey } from './client/kube-object.ts';
export type { KubeObject, ObjectMetaLike, OwnerReferenceLike } from './client/kube-object.ts';
export { apiVersionOf, defineResource, resourcePath } from './client/resource-type.ts';
export type { ResourceType } from './client/resource-type.ts';
export { keyOf, resourceClient } from './client/resource-client.ts';
export type {
  ObjectApi,
  ResourceClient,
  ResourceDeleteOptions,
  ResourcePatch,
  ResourceWriteOptions,
} from './client/resource-client.ts';
export { Transport, TransportClosedError } from './client/transport.ts';
export { credentialHeaders } from './client/credential-headers.ts';
export { requestUrl } from './client/request-url.ts';
export type { HttpRequest, RequestObserver, RequestRecord, TransportOptions } from './client/transport.ts';
export { watchResource } from './client/watch.ts';
export type { WatchEvent, WatchOptions } from './client/watch.ts';

// Caches
export { byControllerUid, byLabel, CONTROLLER_UID_INDEX, NO_CONTROLLER } from './cache/indexers.ts';
export { Informer, stripManagedFields } from './cache/informer.ts';
export type { InformerOptions, InformerStats, ResourceEventHandler } from './cache/informer.ts';
export { InformerFactory } from './cache/informer-factory.ts';
export type { InformerFactoryOptions, InformerRequest } from './cache/informer-factory.ts';
export { apiListWatcher } from './cache/list-watcher.ts';
export type { ListWatcher, WatchScope } from './cache/list-watcher.ts';
export { createLister } from './cache/lister.ts';
export type { Lister, ListerListOptions } from './cache/lister.ts';
export { Store } from './cache/store.ts';
export type { IndexFunc } from './cache/store.ts';

// Reconcile and controllers
export { requestFromKey, requestKey, TerminalError } from './reconcile/reconcile.ts';
export type { ReconcileContext, Reconciler, Request, Result } from './reconcile/reconcile.ts';
export { Controller } from './controller/controller.ts';
export type { ControllerObserver, ControllerOptions, ReconcileOutcome } from './controller/controller.ts';
export { requestForControllerOwner, requestForObject } from './controller/event-mappers.ts';
export type { RequestMapper } from './controller/event-mappers.ts';

// Work queue and rate limiting
export { createWorkQueue } from './queue/work-queue.ts';
export type { WorkQueue, WorkQueueOptions } from './queue/work-queue.ts';
export type { WorkQueueMetrics, WorkQueueState } from './queue/work-queue-metrics.ts';
export {
  bucketRateLimiter,
  defaultControllerRateLimiter,
  itemExponentialFailureRateLimiter,
  maxOfRateLimiter,
} from './queue/rate-limiters.ts';
export type { ControllerRateLimiterOptions, RateLimiter } from './queue/rate-limiters.ts';
export { TokenBucket } from './flowcontrol/token-bucket.ts';
export type { TokenBucketOptions } from './flowcontrol/token-bucket.ts';
export { realClock } from './util/clock.ts';
export type { Clock, TimerHandle } from './util/clock.ts';

// Expectations
export { ScaleExpectations } from './expectations/scale-expectations.ts';
export type {
  ScaleAction,
  ScaleExpectationTimeout,
  ScaleNames,
  ScaleSatisfaction,
} from './expectations/scale-expectations.ts';
export { isResourceVersionAtLeast, ResourceVersionExpectations } from './expectations/resource-version-expectations.ts';
export type {
  ResourceVersionExpectationTimeout,
  VersionedObject,
} from './expectations/resource-version-expectations.ts';
export { DEFAULT_EXPECTATION_TIMEOUT_MS } from './expectations/expectation-timeout.ts';
export type { ExpectationsOptions } from './expectations/expectation-timeout.ts';

// Leader election, events, metrics, health, logging
export { LeaderElector, leaseResource } from './leader-election/leader-elector.ts';
export type { ElectionEnd, LeaderElectorOptions } from './leader-election/leader-elector.ts';
export type { LeaseLike, LeaseSpecLike, LeaseTiming } from './leader-election/lease-decision.ts';
export { EventRecorder, eventResource } from './events/event-recorder.ts';
export type { EventContent, EventRecorderOptions, EventType } from './events/event-recorder.ts';
export { objectReference } from './events/event-types.ts';
export type { EventLike, EventReporter, ObjectReference } from './events/event-types.ts';
export { createRuntimeMetrics } from './metrics/runtime-metrics.ts';
export type { RuntimeMetrics } from './metrics/runtime-metrics.ts';
export { ProbeServer } from './health/probe-server.ts';
export type { HealthCheck, ProbeServerOptions } from './health/probe-server.ts';
export { createLogger } from './log/logger.ts';
export type { LogFormat, LoggerOptions, LogLevel } from './log/logger.ts';
export { textDestination } from './log/text-destination.ts';
export type { TextSink } from './log/text-destination.ts';

// Feature gates and flags
export { FeatureGates } from './feature-gates/feature-gates.ts';
export { FeatureGateError } from './feature-gates/feature-gate-error.ts';
export { FEATURE_GATE_NAMES, isFeatureGateName, KNOWN_FEATURE_GATES } from './feature-gates/known-gates.ts';
export type {
  FeatureGateApp,
  FeatureGateName,
  FeatureGateSpec,
  FeatureGateStage,
} from './feature-gates/known-gates.ts';
export { featureGatesSchema, parseFeatureGates } from './feature-gates/parse-feature-gates.ts';
export { unimplementedGateWarnings } from './feature-gates/unimplemented-gates.ts';
export { durationSchema, goDurationSchema } from './flags/duration-flag.ts';
export {
  booleanFlag,
  countFlag,
  FlagError,
  managerFlagsSchema,
  parseFlags,
  parseFlagsOrExit,
  parseManagerFlags,
} from './flags/manager-flags.ts';
export { compatibilityNotes, OPENKRUISE_MANAGER_FLAGS } from './flags/openkruise-flags.ts';
export type { FlagAlias, FlagCompat, IgnoredFlag } from './flags/openkruise-flags.ts';
export type { ManagerFlags } from './flags/manager-flags.ts';
export { workersFlag, workloadControllerOptions } from './flags/workload-controller-flags.ts';
export type { WorkloadControllerFlags, WorkloadControllerOptions } from './flags/workload-controller-flags.ts';

// Manager
export { Manager } from './manager/manager.ts';
export { loadKubeConfig, logStartupWarnings, managerOptionsFromFlags } from './manager/manager-from-flags.ts';
export { currentServer } from './client/cluster-config.ts';
export type { KubeConfigLike } from './client/cluster-config.ts';
export { StaticKubeConfig } from './client/kubeconfig-loader.ts';
export type { CurrentContext } from './client/kubeconfig-loader.ts';
export { readKubeConfigFile } from './client/kubeconfig-file.ts';
export type { ClusterEntry, ContextEntry, KubeConfigEntries, UserEntry } from './client/kubeconfig-file.ts';
export { kubeConfigFiles, needsClientNode, readKubeConfigFiles, selectContext } from './client/kubeconfig-files.ts';
export type { SelectedContext } from './client/kubeconfig-files.ts';
export type { ManagerProcess } from './manager/manager-from-flags.ts';
export type { LeaderElectionOptions, ManagerOptions, NewControllerOptions } from './manager/manager.ts';
export type { ShardingOptions } from './manager/manager-shards.ts';
export {
  bucketLabels,
  bucketLabelValue,
  bucketOf,
  bucketOfKey,
  bucketSelector,
  parseBucketLabel,
  SHARD_BUCKET_LABEL,
  SHARD_BUCKETS,
  SHARD_RING_LABEL,
  shardHash,
  withBucketLabel,
} from './sharding/bucket.ts';
export { BucketGate } from './sharding/bucket-gate.ts';
export type { LabelledKind } from './sharding/bucket-labeller.ts';
export type { Admission, ReconcileGate } from './sharding/bucket-gate.ts';
export { assignBuckets, bucketsOf } from './sharding/ring.ts';
export { bucketLeaseName, memberLeaseName } from './sharding/shard-leases.ts';
export { DEFAULT_SHARD_TIMING } from './sharding/shard-timing.ts';
export { FencedError } from './sharding/member-fence.ts';
export type { ShardTiming } from './sharding/shard-timing.ts';
export type { Runnable } from './manager/runnable.ts';
export type { BoundPorts } from './manager/probe-servers.ts';

// Utilities
export { deepFreeze } from './util/deep-readonly.ts';
export type { DeepReadonly } from './util/deep-readonly.ts';
export {
  isEmptyLabelSelector,
  labelSelectorToString,
  matchesLabelRequirement,
  matchesLabelSelector,
} from './util/label-selector.ts';
export type { LabelSelector, LabelSelectorRequirement } from './util/label-selector.ts';
export { Backoff } from './util/backoff.ts';
export { deepEqual } from './util/deep-equal.ts';
export { GoDurationError, parseGoDuration } from './util/go-duration.ts';
export { isJsonObject, nestsDeeperThan } from './util/json-value.ts';
export type { JsonObject, JsonValue } from './util/json-value.ts';
export { applyMergePatch } from './util/merge-patch.ts';
export type { BackoffOptions } from './util/backoff.ts';
