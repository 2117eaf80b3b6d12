/**
 * A pod the set could not create because a pod of that name already exists where the controller's
 * cache cannot see it: the pod informer lists only pods with the `statefulset.kubernetes.io/pod-name`
 * label, so a pod whose labels were removed drops out of it although it still names the set as its
 * controller. Upstream's controller sees every pod and claims it like the ReplicaSet controller
 * (ClaimPods); here the colliding pod is read once and claimed the same way: ours and no longer
 * matching → released (its owner reference removed by a patch guarded on its uid); ours or an orphan,
 * and matching → kept or adopted, and its identity and bucket labels restored, which brings it back
 * into the cache (the cache of the replica holding its set's bucket, when sharded); anyone else's →
 * left alone. The creation still failed: as upstream, the set waits (and
 * retries with the queue's backoff) while a pod of that name exists that is not its own.
 */
import type { Pod } from '@kruise-ts/api';
import { ApiError, isAlreadyExists, isNotFound, keyOf } from '@kruise-ts/controller-runtime';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { bucketLabelValue, bucketOfKey, SHARD_BUCKET_LABEL } from '@kruise-ts/sharding';
import { CreatePodsError } from '@kruise-ts/pod-control';
import { claimDecision, claimObjects, claimOwnerOf, freshOwnerCheck } from '@kruise-ts/workload';

import { podOrdinal } from '../ordinals.ts';
import { identityMatches, identityPatch } from './stateful-pod.ts';
import type { SyncContext, SyncState } from './sync-context.ts';

/** What claiming the colliding pod did. */
export type CollisionOutcome = 'released' | 'reclaimed' | 'foreign' | 'gone';

/** The name of the pod whose creation failed with AlreadyExists, when that is why `error` was thrown. */
export function collidingPodName(error: unknown): string | undefined {
  const cause = error instanceof CreatePodsError ? error.cause : error;
  return cause instanceof ApiError && isAlreadyExists(cause) ? cause.status?.details?.name : undefined;
}

/** The pod as the API server has it now; undefined when it is gone. */
async function readPod(
  ctx: SyncContext,
  key: { readonly namespace: string; readonly name: string },
): Promise<DeepReadonly<Pod> | undefined> {
  try {
    return await ctx.pods.get(key);
  } catch (error) {
    if (isNotFound(error)) {
      return undefined;
    }
    throw error;
  }
}

/** Claims the pod named `name` (an ordinal of this set) from a fresh read, as upstream's ClaimPods would have. */
export async function claimCollidingPod(ctx: SyncContext, state: SyncState, name: string): Promise<CollisionOutcome> {
  const ordinal = podOrdinal(state.source.setName, name);
  if (ordinal === undefined) {
    return 'foreign';
  }
  const pod = await readPod(ctx, { namespace: state.source.namespace, name });
  if (pod === undefined) {
    return 'gone';
  }
  const owner = claimOwnerOf(state.set);
  const selector = state.set.spec.selector;
  const decision = claimDecision({ owner, selector, object: pod });
  if (decision === 'ignore') {
    return 'foreign';
  }
  const canAdopt = freshOwnerCheck(() => ctx.statefulSets.get(keyOf(state.set)), owner.uid);
  const [claimed] = await claimObjects({
    owner,
    selector,
    objects: [pod],
    kind: 'pod',
    patch: (object, patch) => ctx.pods.patch(keyOf(object), patch),
    canAdopt,
  });
  if (decision === 'release') {
    ctx.logger.info({ pod: name }, 'Released a pod whose labels no longer match the selector');
    return 'released';
  }
  if (claimed !== undefined) {
    await restoreLabels(ctx, state, { pod: claimed, ordinal });
  }
  return 'reclaimed';
}

/**
 * Gives our pod back the labels that put it in our cache: its identity (the pod-name label every
 * cache selects on) and its set's bucket. A bucket label that is missing, malformed or names another
 * bucket hides the pod from the replica holding the set's bucket, which then fails to create it for
 * ever; the pod was read live and is ours by its controller reference, so the bucket written is the
 * set's, whatever the label said. Conditioned on the version read: a pod changed since is left for
 * the next attempt.
 */
async function restoreLabels(
  ctx: SyncContext,
  state: SyncState,
  input: { readonly pod: DeepReadonly<Pod>; readonly ordinal: number },
): Promise<void> {
  const bucket = bucketLabelValue(bucketOfKey(state.key));
  if (
    identityMatches(state.source, input.pod, input.ordinal) &&
    input.pod.metadata?.labels?.[SHARD_BUCKET_LABEL] === bucket
  ) {
    return;
  }
  const resourceVersion = input.pod.metadata?.resourceVersion;
  const metadata = {
    labels: { ...identityPatch(state.source, input.ordinal).metadata.labels, [SHARD_BUCKET_LABEL]: bucket },
    ...(resourceVersion === undefined ? {} : { resourceVersion }),
  };
  ctx.resourceVersionExpectations.expect(await ctx.pods.patch(keyOf(input.pod), { type: 'merge', body: { metadata } }));
}
