import {
  APPS_KRUISE_IO_GROUP,
  BROADCASTJOB_KIND,
  BROADCASTJOB_PLURAL,
  broadcastJobSchema,
  V1ALPHA1,
} from '@kruise-ts/api';
import type { BroadcastJob } from '@kruise-ts/api';
import { defineResource } from '@kruise-ts/controller-runtime';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { cachedParser } from '@kruise-ts/workload';
import type { ParsedObject } from '@kruise-ts/workload';

/**
 * BroadcastJobs as the informer caches them. No `parse` here: a parse error inside an informer would
 * stop the whole cache; the reconciler parses each one it uses.
 */
export const broadcastJobResource = defineResource<BroadcastJob>({
  group: APPS_KRUISE_IO_GROUP,
  version: V1ALPHA1,
  plural: BROADCASTJOB_PLURAL,
  kind: BROADCASTJOB_KIND,
  namespaced: true,
});

/** A cached BroadcastJob, defaulted by the API schema, or why it cannot be read. */
export const parseBroadcastJob: (cached: DeepReadonly<BroadcastJob>) => ParsedObject<BroadcastJob> =
  cachedParser<BroadcastJob>(broadcastJobSchema, 'BroadcastJob');
