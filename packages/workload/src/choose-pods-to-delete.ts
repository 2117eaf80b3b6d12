/**
 * Which pods a scale-in removes (OpenKruise's `choosePodsToDelete`): old-revision pods first, up to
 * the number the revision split asks for, each group in the deletion order.
 */
import type { Node, Pod, PodTemplateSpec } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

import { podDeletionComparator } from './deletion-order.ts';
import type { PodComparator } from './deletion-order.ts';
import { chooseRanker, rankPods } from './rankers.ts';

type ReadonlyPod = DeepReadonly<Pod>;

/**
 * An order computed per candidate group: OpenKruise ranks the pods of the group being chosen from
 * (not-updated or updated), not all pods, so ranks depend on the group.
 */
export interface GroupComparator {
  readonly forGroup: (pods: readonly ReadonlyPod[]) => PodComparator;
}

/** Options of {@link choosePodsToDelete}. */
export interface ChoosePodsToDeleteOptions {
  /** How many pods to delete in total. */
  readonly total: number;
  /** How many of them should be old-revision (not updated) pods. */
  readonly oldRevisionCount: number;
  /** Pods not at the update revision. */
  readonly notUpdated: readonly ReadonlyPod[];
  /** Pods at the update revision. */
  readonly updated: readonly ReadonlyPod[];
  /** The deletion order: one comparator for both groups, or {@link scaleInOrder} to rank per group. */
  readonly compare: PodComparator | GroupComparator;
}

/** Options of {@link scaleInOrder}. */
export interface ScaleInOrderOptions {
  /** The workload's pod template: its topologySpreadConstraints choose the ranker. */
  readonly template: DeepReadonly<PodTemplateSpec> | undefined;
  /** Nodes by name, for the spread ranker. */
  readonly nodes?: ReadonlyMap<string, DeepReadonly<Node>> | undefined;
  readonly minReadySeconds: number;
  readonly now: number;
  /** The availability test of rule 3 (see `podDeletionComparator`). */
  readonly isAvailable?: ((pod: ReadonlyPod) => boolean) | undefined;
}

/**
 * OpenKruise's scale-in order exactly: for each candidate group, rank the group's pods with the
 * template's ranker and sort with `podDeletionComparator`.
 */
export function scaleInOrder(options: ScaleInOrderOptions): GroupComparator {
  const ranker = chooseRanker(options.template);
  return {
    forGroup: (pods) =>
      podDeletionComparator({
        minReadySeconds: options.minReadySeconds,
        now: options.now,
        isAvailable: options.isAvailable,
        ranks: rankPods({ ranker, pods, nodes: options.nodes }),
      }),
  };
}

function choose(
  pods: readonly ReadonlyPod[],
  count: number,
  compare: ChoosePodsToDeleteOptions['compare'],
): ReadonlyPod[] {
  if (count <= 0) {
    return [];
  }
  // Deleting all of them: no need to sort (OpenKruise also returns all when asked for more).
  if (count >= pods.length) {
    return [...pods];
  }
  const comparator = typeof compare === 'function' ? compare : compare.forGroup(pods);
  return [...pods].sort(comparator).slice(0, count);
}

/**
 * Chooses `total` pods to delete: when `oldRevisionCount ≥ total` all come from `notUpdated`; when
 * `0 < oldRevisionCount < total`, `oldRevisionCount` from `notUpdated` and the rest from `updated`;
 * otherwise all from `updated`. Each group is sorted "delete first" and its first n taken (all of
 * it when n exceeds its size). Example: total 3, oldRevisionCount 1 ⇒ 1 not-updated + 2 updated.
 */
export function choosePodsToDelete(options: ChoosePodsToDeleteOptions): ReadonlyPod[] {
  const { total, oldRevisionCount, notUpdated, updated, compare } = options;
  if (oldRevisionCount >= total) {
    return choose(notUpdated, total, compare);
  }
  if (oldRevisionCount > 0) {
    return [...choose(notUpdated, oldRevisionCount, compare), ...choose(updated, total - oldRevisionCount, compare)];
  }
  return choose(updated, total, compare);
}
