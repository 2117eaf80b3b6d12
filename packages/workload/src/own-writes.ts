/**
 * A workload controller's writes to the workload itself (its status, a patch such as the podsToDelete
 * trim) recorded as resourceVersion expectations, and the check that the cache shows them before the
 * next reconcile computes anything from the cached workload.
 *
 * Why: a status is a merge patch of the fields that differ from the cached status. Computed while the
 * cache still held the copy before our previous status write, a field that write changed and that now
 * equals the stale copy was left out, and the server kept the written value (a CloneSet with 4
 * replicas and 5 ready). Sending the whole status instead let a status counted from the stale copy
 * overwrite what the previous write had counted (a BroadcastJob's `failed` went back to 0). Waiting
 * for our own write, as for pod writes, removes both: every status is computed from a copy that
 * includes the last one we wrote.
 */
import type { Informer, KubeObject, ResourceClient, Result } from '@kruise-ts/controller-runtime';

import type { ResourceVersionExpectations } from './expectations/resource-version-expectations.ts';
import { CACHE_LAG_RETRY_MS } from './cache-lag.ts';

/** `client` whose patches of the object and of its status record the version the API server returned. */
export function expectingOwnWrites<T extends KubeObject>(
  client: ResourceClient<T>,
  expectations: Pick<ResourceVersionExpectations, 'expect'>,
): ResourceClient<T> {
  return {
    ...client,
    patch: async (key, patch) => {
      const written = await client.patch(key, patch);
      expectations.expect(written);
      return written;
    },
    patchStatus: async (key, patch) => {
      const written = await client.patchStatus(key, patch);
      expectations.expect(written);
      return written;
    },
  };
}

/**
 * How long to wait before reconciling `cached`, or undefined when the cache shows our last write to it
 * (or the expectation timed out: a stuck wait is dropped, never held forever).
 */
export function waitForOwnWrite(
  expectations: Pick<ResourceVersionExpectations, 'check'>,
  cached: KubeObject,
): number | undefined {
  return expectations.check(cached).satisfied ? undefined : CACHE_LAG_RETRY_MS;
}

/** `waitForOwnWrite` as a reconcile's result: the retry to return, or undefined to go on. */
export function ownWriteRequeue(
  expectations: Pick<ResourceVersionExpectations, 'check'>,
  cached: KubeObject,
): Result | undefined {
  const wait = waitForOwnWrite(expectations, cached);
  return wait === undefined ? undefined : { requeueAfterMs: wait };
}

/**
 * Settles the expectation as soon as the workload's watch event shows our write (the expectation
 * gauges then show only what really waits), and forgets it when the workload is deleted.
 */
export function watchOwnWrites<T extends KubeObject>(
  informer: Pick<Informer<T>, 'addEventHandler'>,
  expectations: Pick<ResourceVersionExpectations, 'observe' | 'delete'>,
): void {
  informer.addEventHandler({
    onUpdate: (_old, object) => {
      expectations.observe(object);
    },
    onDelete: (object) => {
      expectations.delete(object);
    },
  });
}
