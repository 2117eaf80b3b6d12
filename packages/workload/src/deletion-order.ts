/**
 * The order in which pods are deleted on scale-in (OpenKruise's `ActivePodsWithRanks`) and Kubernetes'
 * `ActivePods` order. Every comparator sorts "delete first" to the front: a negative result means `a`
 * should be deleted (or, for updates, handled) before `b`. Rules are applied in turn; the first that
 * tells the pods apart decides. Array.prototype.sort is stable, so pods equal under every rule keep
 * their input order (Go's sort.Sort is not stable; ties may be broken differently there).
 */
import type { Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

import { podDeletionCost } from './deletion-cost.ts';
import { isPodAvailable, isPodReady, podReadySince } from './pod-state.ts';
import { compareAfterOrZero, parseTimestamp } from './time.ts';

type ReadonlyPod = DeepReadonly<Pod>;

/** A pod ordering: negative when `a` comes first. */
export type PodComparator = (a: ReadonlyPod, b: ReadonlyPod) => number;

/** Options of {@link podDeletionComparator}. */
export interface PodDeletionComparatorOptions {
  /** The workload's minReadySeconds, for the default availability test. */
  readonly minReadySeconds: number;
  /** Current time in ms since the epoch. */
  readonly now: number;
  /** Ranks by pod name (from `sameNodeRanks`/`spreadRanks`); missing names rank 0. */
  readonly ranks: ReadonlyMap<string, number>;
  /**
   * The availability test of rule 3. Defaults to Kubernetes' `isPodAvailable(minReadySeconds)`;
   * CloneSet passes its own (Running, InPlaceUpdateReady and lifecycle state also count).
   */
  readonly isAvailable?: ((pod: ReadonlyPod) => boolean) | undefined;
}

const PHASE_ORDINAL: Readonly<Record<string, number>> = { Pending: 0, Unknown: 1, Running: 2 };

/** Rule 1: unscheduled pods first. Pods on two different nodes are equal here. */
function byUnscheduledFirst(a: ReadonlyPod, b: ReadonlyPod): number {
  const nodeA = a.spec?.nodeName ?? '';
  const nodeB = b.spec?.nodeName ?? '';
  if (nodeA === nodeB || (nodeA !== '' && nodeB !== '')) {
    return 0;
  }
  return nodeA === '' ? -1 : 1;
}

function phaseOrdinal(pod: ReadonlyPod): number {
  const phase = pod.status?.phase ?? '';
  return Object.hasOwn(PHASE_ORDINAL, phase) ? (PHASE_ORDINAL[phase] ?? 0) : 0;
}

/** Rule 2: Pending < Unknown < Running; any other phase ranks as Pending. */
function byPhase(a: ReadonlyPod, b: ReadonlyPod): number {
  return phaseOrdinal(a) - phaseOrdinal(b);
}

/** "false before true" on a predicate. */
function falseFirst(predicate: (pod: ReadonlyPod) => boolean): PodComparator {
  return (a, b) => Number(predicate(a)) - Number(predicate(b));
}

/** Rule 4: lower deletion cost first. */
function byDeletionCost(a: ReadonlyPod, b: ReadonlyPod): number {
  return podDeletionCost(a) - podDeletionCost(b);
}

/** Rule 5: higher rank first. */
function byRankDescending(ranks: ReadonlyMap<string, number>): PodComparator {
  const rank = (pod: ReadonlyPod): number => ranks.get(pod.metadata?.name ?? '') ?? 0;
  return (a, b) => rank(b) - rank(a);
}

/** Rule 6: when both are Ready, the one Ready more recently first (unknown time first). */
function byReadyMoreRecently(a: ReadonlyPod, b: ReadonlyPod): number {
  if (!isPodReady(a) || !isPodReady(b)) {
    return 0;
  }
  return compareAfterOrZero(podReadySince(a), podReadySince(b));
}

function maxContainerRestarts(pod: ReadonlyPod): number {
  return (pod.status?.containerStatuses ?? []).reduce((max, status) => Math.max(max, status.restartCount), 0);
}

/** Rule 7: more container restarts first. */
function byMoreRestarts(a: ReadonlyPod, b: ReadonlyPod): number {
  return maxContainerRestarts(b) - maxContainerRestarts(a);
}

/** Rule 8: newer pods first (unknown creation time first). */
function byNewerCreation(a: ReadonlyPod, b: ReadonlyPod): number {
  return compareAfterOrZero(
    parseTimestamp(a.metadata?.creationTimestamp),
    parseTimestamp(b.metadata?.creationTimestamp),
  );
}

function lexicographic(rules: readonly PodComparator[]): PodComparator {
  return (a, b) => {
    for (const rule of rules) {
      const result = rule(a, b);
      if (result !== 0) {
        return result;
      }
    }
    return 0;
  };
}

/**
 * OpenKruise's scale-in order (`ActivePodsWithRanks`), "delete first" at the front:
 * 1 unscheduled before scheduled; 2 Pending < Unknown < Running; 3 not available before available,
 * then not Ready before Ready; 4 lower pod-deletion-cost first; 5 higher rank first; 6 if both are
 * Ready, more recently Ready first; 7 more container restarts first; 8 newer first.
 */
export function podDeletionComparator(options: PodDeletionComparatorOptions): PodComparator {
  const isAvailable = options.isAvailable ?? ((pod: ReadonlyPod): boolean => isPodAvailable(pod, options));
  return lexicographic([
    byUnscheduledFirst,
    byPhase,
    falseFirst(isAvailable),
    falseFirst(isPodReady),
    byDeletionCost,
    byRankDescending(options.ranks),
    byReadyMoreRecently,
    byMoreRestarts,
    byNewerCreation,
  ]);
}

/**
 * The scale-in order without the availability test, with optional ranks: what OpenKruise's rankers
 * sort by inside a node or topology group (`ActivePodsWithRanks` with no AvailableFunc).
 */
export function podRankingComparator(ranks?: ReadonlyMap<string, number>): PodComparator {
  const rules = [byUnscheduledFirst, byPhase, falseFirst(isPodReady), byDeletionCost];
  const rankRule = ranks === undefined ? [] : [byRankDescending(ranks)];
  return lexicographic([...rules, ...rankRule, byReadyMoreRecently, byMoreRestarts, byNewerCreation]);
}

/**
 * Kubernetes' `ActivePods` order, the base order of updates: unscheduled < scheduled; Pending <
 * Unknown < Running; not Ready < Ready; more recently Ready first; more restarts first; newer first.
 */
export const activePodsComparator: PodComparator = lexicographic([
  byUnscheduledFirst,
  byPhase,
  falseFirst(isPodReady),
  byReadyMoreRecently,
  byMoreRestarts,
  byNewerCreation,
]);
