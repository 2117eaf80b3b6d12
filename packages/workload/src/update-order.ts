/**
 * The order in which update candidates are handled (OpenKruise CloneSet `SortUpdateIndexes`):
 * 1. the Kubernetes ActivePods order (unscheduled, Pending, not Ready, recently Ready, restarting and
 *    new pods first);
 * 2. the `priorityStrategy`, a stable sort;
 * 3. the `scatterStrategy`;
 * 4. pods already in lifecycle state PreparingUpdate moved to the front, stably: their update has begun
 *    and should finish before others start.
 *
 * Every step is stable, and the input order breaks ties in step 1. OpenKruise sorts step 1 with Go's
 * unstable `sort.Slice`, so pods equal under ActivePods may come out in a different (arbitrary) order
 * there; here the same input always gives the same order.
 */
import type { Pod, UpdatePriorityStrategy, UpdateScatterStrategy } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

import { activePodsComparator } from './deletion-order.ts';
import { sortByPriority } from './update-priority.ts';
import { scatterSort } from './update-scatter.ts';

type ReadonlyPod = DeepReadonly<Pod>;

/** Options of {@link sortUpdateCandidates}. */
export interface SortUpdateCandidatesOptions {
  readonly priorityStrategy?: DeepReadonly<UpdatePriorityStrategy> | undefined;
  readonly scatterStrategy?: DeepReadonly<UpdateScatterStrategy> | undefined;
  /** All active pods of the workload (scatter uses totals over all pods). */
  readonly allPods: readonly ReadonlyPod[];
  /** true for pods whose lifecycle state is PreparingUpdate: moved to the front (stable). */
  readonly isPreparingUpdate: (pod: ReadonlyPod) => boolean;
  /**
   * Current time in ms since the epoch. Accepted for symmetry with the other orders; the update
   * order does not depend on it (ActivePods compares Ready times with each other, not with now).
   */
  readonly now?: number | undefined;
}

/** The pods for which `predicate` holds first, each part in its input order: a stable partition. */
function stablePartition<P>(pods: readonly P[], predicate: (pod: P) => boolean): P[] {
  return [...pods.filter(predicate), ...pods.filter((pod) => !predicate(pod))];
}

/**
 * The update candidates in the order they should be updated (see the file header): a new array; the
 * pods are not modified. Truncate it with {@link limitUpdateCandidates}.
 *
 * When to use: CloneSet passes the pods not yet at the target revision; Advanced StatefulSet's unordered
 * update can use {@link sortByPriority} and {@link scatterSort} directly on its own base order.
 */
export function sortUpdateCandidates<P extends ReadonlyPod>(
  candidates: readonly P[],
  options: SortUpdateCandidatesOptions,
): P[] {
  const base = [...candidates].sort(activePodsComparator);
  const prioritized = sortByPriority(base, options.priorityStrategy);
  const scattered = scatterSort(prioritized, { strategy: options.scatterStrategy, allPods: options.allPods });
  return stablePartition(scattered, options.isPreparingUpdate);
}
