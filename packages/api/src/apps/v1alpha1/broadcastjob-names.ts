/**
 * Names of the BroadcastJob resource (apps.kruise.io/v1alpha1, namespaced, short name `bcj`) and the
 * pod labels its controller sets (siblings spec §C.6), identical to OpenKruise's.
 */
import { APPS_KRUISE_IO_GROUP } from './group-version.ts';

/** BroadcastJob kind. */
export const BROADCASTJOB_KIND = 'BroadcastJob';
/** BroadcastJob list kind. */
export const BROADCASTJOB_LIST_KIND = 'BroadcastJobList';
/** BroadcastJob resource (plural) name. */
export const BROADCASTJOB_PLURAL = 'broadcastjobs';
/** BroadcastJob singular name. */
export const BROADCASTJOB_SINGULAR = 'broadcastjob';
/** `kubectl get bcj`. */
export const BROADCASTJOB_SHORT_NAME = 'bcj';
/** Name of the BroadcastJob CustomResourceDefinition. */
export const BROADCASTJOB_CRD_NAME = `${BROADCASTJOB_PLURAL}.${APPS_KRUISE_IO_GROUP}`;

/** Pod label: the name of the BroadcastJob that created the pod. */
export const BROADCASTJOB_NAME_LABEL = 'broadcastjob-name';
/** Pod label: the uid of the BroadcastJob that created the pod. */
export const BROADCASTJOB_CONTROLLER_UID_LABEL = 'broadcastjob-controller-uid';

/** `parallelism` when unset: every desired node at once (Go's MaxInt32). */
export const BROADCASTJOB_DEFAULT_PARALLELISM = 2_147_483_647;

/** `status.phase` values (lower case, as OpenKruise writes them). */
export const BroadcastJobPhase = {
  Running: 'running',
  Paused: 'paused',
  Completed: 'completed',
  Failed: 'failed',
} as const;
/** Job condition types. */
export const BroadcastJobConditionType = { Complete: 'Complete', Failed: 'Failed' } as const;
