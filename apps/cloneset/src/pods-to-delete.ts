import { CloneSetEventReason } from '@kruise-ts/api';
import type { Pod } from '@kruise-ts/api';
import { controllerRef, isNotFound } from '@kruise-ts/controller-runtime';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { isPodActive } from '@kruise-ts/workload';

import type { SyncContext, SyncState } from './sync/sync-context.ts';

/** What became of the names in `spec.scaleStrategy.podsToDelete` that are not among our active pods. */
export interface PodsToDeleteReview {
  /** Pods that are gone, terminating or finished: removed from the list, as OpenKruise does. */
  readonly gone: readonly string[];
  /** Pods that exist but belong to someone else: never deleted, reported, left in the list for the user to fix. */
  readonly foreign: readonly string[];
}

/**
 * Classifies `podsToDelete` names that are not our active pods. OpenKruise's webhook rejects names of
 * pods that are not the CloneSet's; CRD validation cannot look pods up, so the controller does: such a
 * pod is never deleted, and the user gets an Event and the FailedScale condition naming it.
 */
export async function reviewPodsToDelete(
  ctx: Pick<SyncContext, 'pods' | 'recorder'>,
  state: SyncState,
): Promise<PodsToDeleteReview> {
  const ours = new Set(state.pods.map((pod) => pod.metadata?.name));
  const unknown = (state.cs.spec.scaleStrategy?.podsToDelete ?? []).filter((name) => !ours.has(name));
  const gone: string[] = [];
  const foreign: string[] = [];
  for (const name of unknown) {
    const pod = await ctx.pods.get({ namespace: state.cs.metadata.namespace, name }).catch((error: unknown) => {
      if (isNotFound(error)) {
        return undefined;
      }
      throw error;
    });
    (pod === undefined || isGoneOrOurs(pod, state.cs.metadata.uid ?? '') ? gone : foreign).push(name);
  }
  for (const name of foreign) {
    ctx.recorder.warning(
      state.ref,
      CloneSetEventReason.FailedDelete,
      `pod ${name} in spec.scaleStrategy.podsToDelete is not controlled by this CloneSet; it will not be deleted`,
    );
  }
  return { gone, foreign };
}

/** A finished or terminating pod, or one of ours that is no longer active: its name can go. */
function isGoneOrOurs(pod: DeepReadonly<Pod>, uid: string): boolean {
  return !isPodActive(pod) || controllerRef(pod)?.uid === uid;
}

/**
 * Removes names from `podsToDelete` with a JSON patch that first tests the list is unchanged, so a
 * concurrent edit by the user fails the patch (and the next reconcile retries) instead of being lost.
 */
export async function truncatePodsToDelete(
  ctx: Pick<SyncContext, 'cloneSets'>,
  state: SyncState,
  names: readonly string[],
): Promise<void> {
  const current = state.cs.spec.scaleStrategy?.podsToDelete;
  if (current === undefined || names.length === 0) {
    return;
  }
  const remove = new Set(names);
  await ctx.cloneSets.patch(
    { namespace: state.cs.metadata.namespace, name: state.cs.metadata.name ?? '' },
    {
      type: 'json',
      body: [
        { op: 'test', path: '/spec/scaleStrategy/podsToDelete', value: current },
        { op: 'replace', path: '/spec/scaleStrategy/podsToDelete', value: current.filter((name) => !remove.has(name)) },
      ],
    },
  );
}
