/**
 * Whether the cache still shows an object of an owner older than this controller's last write to it,
 * checking only the objects with a pending resourceVersion expectation (a handful during a rollout)
 * instead of every object the owner has: a controller that waits for its own writes otherwise reads
 * all of an owner's pods on every watch event, O(pods) per event.
 */
import { controllerRef } from '@kruise-ts/controller-runtime';
import type { KubeObject, Lister, ResourceVersionExpectations } from '@kruise-ts/controller-runtime';

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
