/**
 * How many of the sorted update candidates may be updated now (OpenKruise CloneSet
 * `limitUpdateIndexes`): at most |updateNum| of them, and no more than the unavailability budget allows.
 */
import type { Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

type ReadonlyPod = DeepReadonly<Pod>;

/** Options of {@link limitUpdateCandidates}. */
export interface LimitUpdateCandidatesOptions {
  /** |updateNum|: how many pods the update should move now (its absolute value is used). */
  readonly updateCount: number;
  /** updateMaxUnavailable: maxUnavailable plus the pods above the desired replicas (surge). */
  readonly updateMaxUnavailable: number;
  /** All active pods of the workload: the unavailable ones are counted over them. */
  readonly allPods: readonly ReadonlyPod[];
  /** The workload's availability test (CloneSet: `IsPodAvailable` with minReadySeconds and its own readiness). */
  readonly isAvailable: (pod: ReadonlyPod) => boolean;
  /** Whether a pod is already at the revision the update moves pods to. */
  readonly isAtTargetRevision: (pod: ReadonlyPod) => boolean;
}

/**
 * The first candidates (in the given order) that may be updated now: a new array, a prefix of `sorted`.
 *
 * Two budgets, both `updateMaxUnavailable`, are checked before accepting each candidate:
 * - pods at the target revision that are unavailable, plus the candidates accepted so far (each will
 *   be unavailable at the target revision while it updates), must stay below it;
 * - all unavailable pods, plus the available candidates accepted so far, must stay below it. Updating
 *   a candidate that is already unavailable does not make anything more unavailable, so it does not
 *   consume this budget.
 * The walk stops at the first candidate that does not fit, so the order is kept and nothing is skipped.
 *
 * Concrete example: 8 pods, updateMaxUnavailable 4, unavailable: old pods 0 and 2 and the updated pod 7.
 * Candidates 0–4: 0 (unavailable) is accepted (1 + 0 < 4); 1 (available) is accepted and raises the
 * unavailable count to 4; 2 (unavailable) is accepted (1 + 2 < 4); 3 stops the walk (1 + 3 ≥ 4) ⇒ 0, 1, 2.
 */
export function limitUpdateCandidates<P extends ReadonlyPod>(
  sorted: readonly P[],
  options: LimitUpdateCandidatesOptions,
): P[] {
  const { updateMaxUnavailable, isAvailable } = options;
  const wanted = sorted.slice(0, Math.abs(options.updateCount));
  const unavailablePods = options.allPods.filter((pod) => !isAvailable(pod));
  const targetUnavailable = unavailablePods.filter((pod) => options.isAtTargetRevision(pod)).length;
  let unavailable = unavailablePods.length;
  let accepted = 0;
  for (const pod of wanted) {
    if (targetUnavailable + accepted >= updateMaxUnavailable) {
      break;
    }
    if (isAvailable(pod)) {
      if (unavailable >= updateMaxUnavailable) {
        break;
      }
      unavailable++;
    }
    accepted++;
  }
  return wanted.slice(0, accepted);
}
