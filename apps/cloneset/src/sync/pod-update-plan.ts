import { InPlaceDecisions } from '@kruise-ts/pod-control';
import type { PodUpdatePlan } from '@kruise-ts/pod-control';
import { revisionLabels } from '@kruise-ts/revision';

import type { SyncContext, SyncState } from './sync-context.ts';

/**
 * How the update step of one reconcile moves the CloneSet's pods (pod-control's plan): built once per
 * update step and passed to every pod's update, so that its in-place decisions are computed once per
 * revision pair, not once per pod.
 */
export function podUpdatePlan(ctx: Pick<SyncContext, 'gates' | 'options'>, state: SyncState): PodUpdatePlan {
  const strategy = state.cs.spec.updateStrategy;
  const shortHash = ctx.gates.enabled('CloneSetShortHash');
  return {
    owner: state.owner,
    // CloneSet's update types are the pod update policies by name; OnDelete never reaches an update.
    policy: strategy.type === 'OnDelete' ? 'ReCreate' : strategy.type,
    gracePeriodSeconds: strategy.inPlaceUpdateStrategy?.gracePeriodSeconds ?? 0,
    revisions: state.revisions,
    revisionLabels: (revision) => revisionLabels(revision, { shortHash }),
    stripManagedFields: ctx.options.stripPodManagedFields,
    recreateOnVolumeClaimTemplatesChange: ctx.gates.enabled('RecreatePodWhenChangeVCTInCloneSetGate'),
    decisions: new InPlaceDecisions(),
  };
}
