/**
 * Whether the cache still shows an object of an owner older than this controller's last write to it,
 * checking only the objects with a pending resourceVersion expectation (a handful during a rollout)
 * instead of every object the owner has: a controller that waits for its own writes otherwise reads
 * all of an owner's pods on every watch event, O(pods) per event.
 */
import { controllerRef } from '@kruise-ts/controller-runtime';
import type { KubeObject, Lister } from '@kruise-ts/controller-runtime';

import type { ResourceVersionExpectations } from './expectations/resource-version-expectations.ts';
import type { ScaleExpectations } from './expectations/scale-expectations.ts';
import type { WaitingForCache } from './sync-outcome.ts';

/**
 * How long a reconcile waits before looking again while the cache lags behind our own writes (to the
 * workload or its pods); the watch event of the write usually comes first and reconciles it sooner.
 */
export const CACHE_LAG_RETRY_MS = 1000;

/** The key of the first such object of `ownerUid`, or undefined when the cache has caught up. */
export function laggingOwnedObject<T extends KubeObject>(
  expectations: ResourceVersionExpectations,
  cache: Lister<T>,
  ownerUid: string | undefined,
): string | undefined {
  for (const key of expectations.pendingKeys()) {
    const object = cache.getByKey(key);
    if (object !== undefined && controllerRef(object)?.uid === ownerUid && !expectations.isSatisfied(object)) {
      return key;
    }
  }
  return undefined;
}

/** The reconcile of `key` waits while creations or deletions we made are not in the cache yet. */
export function expectedWritesWait(expectations: ScaleExpectations, key: string): WaitingForCache | undefined {
  const satisfied = expectations.satisfied(key);
  return satisfied.satisfied
    ? undefined
    : {
        kind: 'waiting',
        reason: `our creations and deletions (${String(satisfied.pending.create.length)} creations, ${String(satisfied.pending.delete.length)} deletions pending)`,
        delayMs: satisfied.remainingMs,
      };
}

/**
 * The reconcile of an owner of pods waits while its creations and deletions are not in the cache, or
 * while the cache shows one of its pods older than our last write to it (checked first, cheaply: see
 * the file's comment).
 */
export function ownedPodsWait<T extends KubeObject>(
  expectations: {
    readonly scaleExpectations: ScaleExpectations;
    readonly resourceVersionExpectations: ResourceVersionExpectations;
  },
  input: { readonly key: string; readonly pods: Lister<T>; readonly ownerUid: string | undefined },
): WaitingForCache | undefined {
  const expected = expectedWritesWait(expectations.scaleExpectations, input.key);
  if (expected !== undefined) {
    return expected;
  }
  const lagging = laggingOwnedObject(expectations.resourceVersionExpectations, input.pods, input.ownerUid);
  return lagging === undefined
    ? undefined
    : { kind: 'waiting', reason: `our last write to ${lagging}`, delayMs: CACHE_LAG_RETRY_MS };
}
