import { refreshPods as refreshOwnedPods } from '@kruise-ts/pod-control';
import type { RefreshResult } from '@kruise-ts/pod-control';

import { revisionNameOf } from './sync-context.ts';
import type { SyncContext, SyncState } from './sync-context.ts';

export { RefreshError, skipOrFail } from '@kruise-ts/pod-control';
export type { RefreshResult, SkippedPod } from '@kruise-ts/pod-control';

/**
 * OpenKruise's `refreshPodState` for every pod of the CloneSet (the pod-control package's refresh),
 * which also gives pods without `pod-template-hash` the label, as a Deployment's pods have it.
 */
export function refreshPods(ctx: SyncContext, state: SyncState): Promise<RefreshResult> {
  return refreshOwnedPods(ctx, {
    owner: state.owner,
    pods: state.pods,
    updateRevision: revisionNameOf(state.updateRevision),
    podTemplateHashLabel: true,
  });
}
