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
  isInvalid,
  isNotFound,
} from './client/api-error.ts';
export type { StatusCause } from './client/api-error.ts';
export { createClient, createRestClient } from './client/client.ts';
export type {
  Client,
  JsonPatchOperation,
  ObjectKeyRef,
  Patch,
  PatchRequest,
  Reader,
  RequestSender,
  WriteOptions,
  Writer,
} from './client/client.ts';
export { controllerRef, objectKey, splitObjectKey } from './client/kube-object.ts';
export type { KubeObject, OwnerReferenceLike } from './client/kube-object.ts';
export { defineResource, resourcePath } from './client/resource-type.ts';
export type { ResourceType } from './client/resource-type.ts';
export { keyOf, resourceClient } from './client/resource-client.ts';
export type { ObjectApi, ResourceClient, ResourcePatch } from './client/resource-client.ts';
export { Transport } from './client/transport.ts';
export { credentialHeaders } from './client/credential-headers.ts';
export { requestUrl } from './client/request-url.ts';
export type { HttpRequest, RequestObserver, RequestRecord } from './client/transport.ts';
export type { ApiContentType, ProtobufRead } from './client/content-type.ts';
export { acceptHeader, decodeProtobufAnswer, isProtobuf, protobufStatusText } from './client/content-type.ts';
export { watchResource } from './client/watch.ts';

// Caches
export { byControllerUid, CONTROLLER_UID_INDEX, NO_CONTROLLER } from './cache/indexers.ts';
export { Informer, stripManagedFields } from './cache/informer.ts';
export type { ResourceEventHandler } from './cache/informer.ts';
export { InformerFactory } from './cache/informer-factory.ts';
export type { CacheTransformOptions } from './cache/informer-factory.ts';
export { apiListWatcher, joinSelectors } from './cache/list-watcher.ts';
export type { ListWatcher, WatchScope } from './cache/list-watcher.ts';
export { createLister } from './cache/lister.ts';
export type { Lister } from './cache/lister.ts';
export { Store } from './cache/store.ts';

// Reconcile and controllers
export { requestKey, TerminalError } from './reconcile/reconcile.ts';
export type { ReconcileContext, Reconciler, Request, Result } from './reconcile/reconcile.ts';
export { Controller } from './controller/controller.ts';
export { requestForControllerOwner, requestForObject } from './controller/event-mappers.ts';
export type { RequestMapper } from './controller/event-mappers.ts';

// Work queue and rate limiting
export type { WorkQueue } from './queue/work-queue.ts';
export { realClock, sleepOn, timeoutOn } from './util/clock.ts';
export type { Clock, TimerHandle } from './util/clock.ts';

// Leader election, events, metrics, health, logging
export { leaseResource } from './leader-election/leader-elector.ts';
export { eventResource } from './events/event-recorder.ts';
export { objectReference } from './events/event-types.ts';
export type { EventReporter, ObjectReference } from './events/event-types.ts';
export { createRuntimeMetrics } from './metrics/runtime-metrics.ts';
export type { HealthCheck } from './health/probe-server.ts';
export { createLogger } from './log/logger.ts';
export type { LogLevel } from './log/logger.ts';
export type { TextSink } from './log/text-destination.ts';

// Feature gates and flags
// (an app's table of gates is its own: kruise-ts's is in @kruise-ts/app-config)
export { describeFeatureGateProblem, FeatureGateError } from './feature-gates/feature-gate-error.ts';
export type { FeatureGateProblem } from './feature-gates/feature-gate-error.ts';
export { FeatureGates } from './feature-gates/feature-gates.ts';
export type { FeatureGateOverrides, FeatureGateTable } from './feature-gates/feature-gates.ts';
export { applyFeatureGateDependencies } from './feature-gates/gate-dependencies.ts';
export type { FeatureGateDependency } from './feature-gates/gate-dependencies.ts';
export { featureGatesSchema, parseFeatureGates } from './feature-gates/parse-feature-gates.ts';
export type { FeatureGateParser } from './feature-gates/parse-feature-gates.ts';
export {
  booleanFlag,
  countFlag,
  FlagError,
  managerFlagsSchema,
  parseFlags,
  parseFlagsOrExit,
  withCrossFlagRule,
} from './flags/manager-flags.ts';
export type { ManagerFlags } from './flags/manager-flags.ts';
export { goDurationSchema } from './flags/duration-flag.ts';
export { compatibilityNotes } from './flags/flag-compat.ts';
export type { FlagAlias, FlagCompat, IgnoredFlag } from './flags/flag-compat.ts';

// Manager
export { Manager } from './manager/manager.ts';
export { leaderElectionNamespace, loadKubeConfig, managerOptionsFromFlags } from './manager/manager-from-flags.ts';
export { currentServer } from './client/cluster-config.ts';
export type { KubeConfigLike } from './client/cluster-config.ts';
export { StaticKubeConfig } from './client/kubeconfig-loader.ts';
export { kubeConfigFiles, needsClientNode, readKubeConfigFiles, selectContext } from './client/kubeconfig-files.ts';
export type { ManagerOptions } from './manager/manager.ts';
export type { Runnable } from './manager/runnable.ts';
// The gate a sharding plug-in (@kruise-ts/sharding) fills, and what it is built of.
export type { ManagerSharding, OwnersTakenListener, ShardedOwners, ShardingHost } from './manager/manager-sharding.ts';
export type { Admission, ReconcileGate } from './controller/reconcile-gate.ts';
export { microTime } from './leader-election/lease-decision.ts';
export type { LeaseLike } from './leader-election/lease-decision.ts';
export { TokenBucket } from './flowcontrol/token-bucket.ts';

// Utilities
export { isAborted } from './util/aborted.ts';
export { deepFreeze } from './util/deep-readonly.ts';
export type { DeepReadonly } from './util/deep-readonly.ts';
export {
  isEmptyLabelSelector,
  labelSelectorToString,
  matchesLabelRequirement,
  matchesLabelSelector,
} from './util/label-selector.ts';
export type { LabelSelector } from './util/label-selector.ts';
export { Backoff } from './util/backoff.ts';
export { deepEqual } from './util/deep-equal.ts';
export { GoDurationError, parseGoDuration } from './util/go-duration.ts';
export { nestsDeeperThan } from './util/json-value.ts';
export type { JsonValue } from './util/json-value.ts';
export { applyMergePatch } from './util/merge-patch.ts';
export type { BackoffOptions } from './util/backoff.ts';
