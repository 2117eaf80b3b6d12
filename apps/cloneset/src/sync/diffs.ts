import { LifecycleState } from '@kruise-ts/api';
import type { CloneSet, Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { isPodAtRevision } from '@kruise-ts/revision';
import { isPreparingDelete, isWorkloadPodAvailable, podLifecycleState } from '@kruise-ts/workload';

import { isSpecifiedDelete } from '../pod-predicates.ts';
import type { ResolvedStrategy } from '../strategy-values.ts';
import { revisionNameOf } from './sync-context.ts';
import type { SyncContext, SyncState } from './sync-context.ts';

/**
 * How far the pods are from the spec: what the scale and update steps should do now. OpenKruise calls
 * this `expectationDiffs` (the spec's expected pods, not the cache expectations). All counts are pods.
 * Positive `updateNum` moves pods to the update revision; negative rolls them back (only with the
 * CloneSetPartitionRollback gate).
 */
export interface PodDiffs {
  readonly scaleUpNum: number;
  /** Of the pods to create, how many at the current (old) revision. */
  readonly scaleUpNumOldRevision: number;
  readonly scaleDownNum: number;
  readonly scaleDownNumOldRevision: number;
  /** Most pods to create now (scaleStrategy.maxUnavailable minus what is unavailable). */
  readonly scaleUpLimit: number;
  /** Most ready pods that may be deleted now (specified delete and scale-in). */
  readonly deleteReadyLimit: number;
  readonly useSurge: number;
  readonly useSurgeOldRevision: number;
  readonly updateNum: number;
  readonly updateMaxUnavailable: number;
}

export interface DiffInput {
  readonly cs: DeepReadonly<CloneSet>;
  readonly strategy: ResolvedStrategy;
  /** Active, claimed pods (PreparingDelete ones included). */
  readonly pods: readonly DeepReadonly<Pod>[];
  readonly isUpdated: (pod: DeepReadonly<Pod>) => boolean;
  readonly currentRevision: string;
  readonly updateRevision: string;
  /** Gate CloneSetPartitionRollback: allow moving pods back to the current revision. */
  readonly partitionRollback: boolean;
  /** Do not count PreparingDelete pods as existing (replacements are created while they wait). */
  readonly excludePreparingDelete: boolean;
  readonly now: number;
}

interface RevisionCounts {
  count: number;
  preDeleting: number;
  active: number;
  toDelete: number;
  unavailable: number;
}

interface Counts {
  readonly updated: RevisionCounts;
  readonly old: RevisionCounts;
  readonly totalUnavailable: number;
}

function countPods(input: DiffInput): Counts {
  const updated: RevisionCounts = { count: 0, preDeleting: 0, active: 0, toDelete: 0, unavailable: 0 };
  const old: RevisionCounts = { count: 0, preDeleting: 0, active: 0, toDelete: 0, unavailable: 0 };
  const availability = { minReadySeconds: input.cs.spec.minReadySeconds ?? 0, now: input.now };
  for (const pod of input.pods) {
    const counts = input.isUpdated(pod) ? updated : old;
    counts.count++;
    if (isPreparingDelete(pod)) {
      counts.preDeleting++;
      continue;
    }
    counts.active++;
    if (isSpecifiedDelete(input.cs, pod)) {
      counts.toDelete++;
    } else if (!isWorkloadPodAvailable(pod, availability)) {
      counts.unavailable++;
    }
  }
  // Pods marked for deletion are not counted as unavailable: they are accounted for by deleteReadyLimit.
  const totalUnavailable = updated.preDeleting + old.preDeleting + updated.unavailable + old.unavailable;
  return { updated, old, totalUnavailable };
}

interface UpdateDiffs {
  readonly oldDiff: number;
  readonly newDiff: number;
}

function updateDiffs(input: DiffInput, counts: Counts): UpdateDiffs {
  const { partition, replicas } = input.strategy;
  const oldDiff = counts.old.active - partition;
  const newDiff = counts.updated.active - (replicas - partition);
  if (input.updateRevision === input.currentRevision || !input.partitionRollback) {
    return { oldDiff: Math.max(oldDiff, 0), newDiff: Math.min(newDiff, 0) };
  }
  return { oldDiff, newDiff };
}

/** Surge pods needed to replace specified-delete pods before deleting them. */
function scaleSurge(input: DiffInput, counts: Counts): { surge: number; oldRevision: number } {
  const toDelete = counts.updated.toDelete + counts.old.toDelete;
  if (toDelete === 0) {
    return { surge: 0, oldRevision: 0 };
  }
  const surge = Math.min(Math.max(counts.totalUnavailable + toDelete - input.strategy.maxUnavailable, 0), toDelete);
  return { surge, oldRevision: surge > counts.updated.toDelete ? surge - counts.updated.toDelete : 0 };
}

/** Surge pods an update (or rollback) can use: the smaller side of the two revisions' differences. */
function updateSurge(diffs: UpdateDiffs): { surge: number; oldRevision: number } {
  const { oldDiff, newDiff } = diffs;
  if (!((oldDiff > 0 && newDiff < 0) || (oldDiff < 0 && newDiff > 0))) {
    return { surge: 0, oldRevision: 0 };
  }
  if (Math.abs(oldDiff) <= Math.abs(newDiff)) {
    return { surge: Math.abs(oldDiff), oldRevision: oldDiff < 0 ? Math.abs(oldDiff) : 0 };
  }
  return { surge: Math.abs(newDiff), oldRevision: newDiff > 0 ? Math.abs(newDiff) : 0 };
}

function surge(
  input: DiffInput,
  counts: Counts,
  diffs: UpdateDiffs,
): { useSurge: number; useSurgeOldRevision: number } {
  const { maxSurge } = input.strategy;
  if (maxSurge <= 0) {
    return { useSurge: 0, useSurgeOldRevision: 0 };
  }
  const scale = scaleSurge(input, counts);
  const update = updateSurge(diffs);
  const chosen = scale.surge >= update.surge ? scale : update;
  const useSurge = Math.min(maxSurge, chosen.surge);
  return { useSurge, useSurgeOldRevision: Math.min(useSurge, chosen.oldRevision) };
}

/**
 * OpenKruise's `calculateDiffsWithExpectation`: from the strategy and the pods' revisions, lifecycle
 * states and availability, how many pods to create (and at which revision), delete and update now.
 * Example (R=5, partition 3, maxUnavailable 1, maxSurge 1, five ready old pods): create 1 surge pod,
 * update 2, updateMaxUnavailable 1.
 */
export function calculateDiffs(input: DiffInput): PodDiffs {
  const counts = countPods(input);
  const diffs = updateDiffs(input, counts);
  const { useSurge, useSurgeOldRevision } = surge(input, counts, diffs);
  const { replicas, maxUnavailable } = input.strategy;
  const toDelete = counts.updated.toDelete + counts.old.toDelete;
  const scale = scaleNumbers(input, counts, { useSurge, useSurgeOldRevision });
  // `0 - newDiff` as in Go; written out so that no -0 escapes into comparisons and JSON.
  const updateNum =
    Math.abs(diffs.oldDiff) <= Math.abs(diffs.newDiff) ? diffs.oldDiff : diffs.newDiff === 0 ? 0 : -diffs.newDiff;
  return {
    ...scale,
    deleteReadyLimit:
      toDelete > 0 || scale.scaleDownNum > 0
        ? Math.max(maxUnavailable + (input.pods.length - replicas) - counts.totalUnavailable, 0)
        : 0,
    useSurge,
    useSurgeOldRevision,
    updateNum,
    updateMaxUnavailable: updateNum === 0 ? 0 : maxUnavailable + input.pods.length - replicas,
  };
}

type ScaleNumbers = Pick<
  PodDiffs,
  'scaleUpNum' | 'scaleUpNumOldRevision' | 'scaleUpLimit' | 'scaleDownNum' | 'scaleDownNumOldRevision'
>;

/** How many pods to add and remove, overall and at the old revision, with the scale-up rate limit. */
function scaleNumbers(
  input: DiffInput,
  counts: Counts,
  surged: { useSurge: number; useSurgeOldRevision: number },
): ScaleNumbers {
  const { replicas, partition, scaleMaxUnavailable } = input.strategy;
  const exclude = input.excludePreparingDelete;
  const currentTotal = input.pods.length - (exclude ? counts.updated.preDeleting + counts.old.preDeleting : 0);
  const currentTotalOld = counts.old.count - (exclude ? counts.old.preDeleting : 0);
  const expectedTotal = replicas + surged.useSurge;
  const expectedTotalOld = partition + surged.useSurgeOldRevision;
  const toDelete = counts.updated.toDelete + counts.old.toDelete;
  const scaleUpNum = Math.max(expectedTotal - currentTotal, 0);
  const scaleDownNum = Math.max(currentTotal - toDelete - expectedTotal, 0);
  return {
    scaleUpNum,
    scaleUpNumOldRevision: scaleUpNum > 0 ? Math.max(expectedTotalOld - currentTotalOld, 0) : 0,
    scaleUpLimit: scaleUpNum > 0 ? Math.min(scaleUpNum, Math.max(scaleMaxUnavailable - counts.totalUnavailable, 0)) : 0,
    scaleDownNum,
    scaleDownNumOldRevision:
      scaleDownNum > 0 ? Math.max(currentTotalOld - counts.old.toDelete - expectedTotalOld, 0) : 0,
  };
}

/** Which step the diffs are for: they differ only with PreparingUpdateAsUpdate. */
export type DiffPurpose = 'scale' | 'update';

/**
 * OpenKruise's `revision.IsPodUpdate` as the scale step uses it: a pod at the update revision, or,
 * with the PreparingUpdateAsUpdate gate, a pod waiting in PreparingUpdate for its in-place update
 * (the inPlaceUpdate hook holds it), which is counted as updated so that scaling does not create or
 * keep an old-revision pod for it. The update step counts exact revisions (OpenKruise passes no
 * predicate there), or it would never update the pods the gate counts as done.
 */
export function isUpdatedFor(
  ctx: Pick<SyncContext, 'gates'>,
  state: SyncState,
  purpose: DiffPurpose,
): (pod: DeepReadonly<Pod>) => boolean {
  const updateRevision = revisionNameOf(state.updateRevision);
  const preparingUpdateAsUpdate = purpose === 'scale' && ctx.gates.enabled('PreparingUpdateAsUpdate');
  return (pod) =>
    (preparingUpdateAsUpdate && podLifecycleState(pod) === LifecycleState.PreparingUpdate) ||
    isPodAtRevision(pod, updateRevision);
}

/** OpenKruise's `calculateDiffsWithExpectation` over the state's pods, for the scale or the update step. */
export function diffsOf(
  ctx: Pick<SyncContext, 'gates' | 'options' | 'clock'>,
  state: SyncState,
  purpose: DiffPurpose,
): PodDiffs {
  return calculateDiffs({
    cs: state.cs,
    strategy: state.strategy,
    pods: state.pods,
    isUpdated: isUpdatedFor(ctx, state, purpose),
    currentRevision: revisionNameOf(state.currentRevision),
    updateRevision: revisionNameOf(state.updateRevision),
    partitionRollback: ctx.gates.enabled('CloneSetPartitionRollback'),
    excludePreparingDelete:
      ctx.options.scalingExcludePreparingDelete ||
      state.cs.metadata.labels?.['apps.kruise.io/cloneset-scaling-exclude-preparing-delete'] === 'true',
    now: ctx.clock.now(),
  });
}
