/**
 * The `scatterStrategy` of an update (OpenKruise `updatesort.scatterSort`): pods carrying a given
 * label key=value are spread over the update order instead of being updated back to back, so that a
 * batch never takes down all of them at once.
 *
 * ### How one term re-interleaves the candidates
 * Candidates split into matched (label key=value) and unmatched, each keeping its order. With at most
 * one of either, nothing changes. Otherwise the last matched candidate is held back for the very end,
 * and the rest are laid out in groups "mSize matched, then uSize unmatched", sized so that the density
 * of matched pods over the update resembles the density over all pods of the workload.
 *
 * Concrete example (the OpenKruise documentation's): 10 pods, 3 labelled, all to be updated. The last
 * labelled one is held back; 2 matched and 7 unmatched remain, in 2 groups of 1 matched + round(3.5) = 4
 * unmatched: M U U U U M U U U, then the held-back M. The labelled pods are updated 1st, 6th and 10th.
 */
import type { Pod, UpdateScatterStrategy, UpdateScatterTerm } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

import { labelValue } from './labels.ts';

type ReadonlyPod = DeepReadonly<Pod>;
type ScatterTerm = DeepReadonly<UpdateScatterTerm>;

/** Options of {@link scatterSort}. */
export interface ScatterSortOptions {
  /** The scatter terms; none (or undefined) leaves the order unchanged. */
  readonly strategy: DeepReadonly<UpdateScatterStrategy> | undefined;
  /** All pods of the workload: the matched/unmatched totals are counted over them, not over the candidates. */
  readonly allPods: readonly ReadonlyPod[];
}

/**
 * How the pods to update are grouped: first `unmatchedRemainder` unmatched, then `groups` times
 * (`matchedSize` matched, `unmatchedSize` unmatched).
 */
export interface ScatterGroups {
  readonly groups: number;
  readonly matchedSize: number;
  readonly unmatchedSize: number;
  readonly unmatchedRemainder: number;
}

/** Whether a pod counts as matched for a term: its label value equals the term's (a missing label reads as ""). */
function matchesTerm(pod: ReadonlyPod, term: ScatterTerm): boolean {
  return (labelValue(pod.metadata?.labels, term.key) ?? '') === term.value;
}

/** Whether a pod carries the term's label with the term's value (a missing label never counts). */
function carriesTerm(pod: ReadonlyPod, term: ScatterTerm): boolean {
  return labelValue(pod.metadata?.labels, term.key) === term.value;
}

/** Even groups for `matched` and `unmatched` items: min(m, u) groups of round(m/n) and round(u/n). */
function evenGroups(matched: number, unmatched: number): ScatterGroups {
  const groups = Math.min(matched, unmatched);
  // Go's math.Round rounds halves away from zero; for these positive ratios Math.round is the same.
  return {
    groups,
    matchedSize: Math.round(matched / groups),
    unmatchedSize: Math.round(unmatched / groups),
    unmatchedRemainder: 0,
  };
}

/** Go's float32 division (exact for counts below 2^24), so that ties between the densities fall as upstream. */
function float32Ratio(numerator: number, denominator: number): number {
  return Math.fround(numerator / denominator);
}

/**
 * The groups for `updateMatched`/`updateUnmatched` candidates given `totalMatched`/`totalUnmatched`
 * pods (all ≥ 1). When unmatched pods are at least as dense among all pods as among the candidates,
 * the candidates are grouped evenly among themselves. Otherwise the group sizes come from the totals,
 * as many whole groups as the candidates fill, and the unmatched candidates left over go first.
 *
 * Example: totals 2 matched / 7 unmatched (sizes 1 and 4), candidates 1 / 5 ⇒ 1 group and 1 unmatched
 * candidate first.
 */
export function scatterGroups(
  totals: { matched: number; unmatched: number },
  update: { matched: number; unmatched: number },
): ScatterGroups {
  if (float32Ratio(totals.unmatched, totals.matched) >= float32Ratio(update.unmatched, update.matched)) {
    return evenGroups(update.matched, update.unmatched);
  }
  const { matchedSize, unmatchedSize } = evenGroups(totals.matched, totals.unmatched);
  const groups = Math.min(Math.trunc(update.matched / matchedSize), Math.trunc(update.unmatched / unmatchedSize));
  return { groups, matchedSize, unmatchedSize, unmatchedRemainder: update.unmatched - groups * unmatchedSize };
}

/** Lays the pods out as {@link ScatterGroups} describes; leftovers follow (matched, then unmatched). */
function interleave<P>(matched: readonly P[], unmatched: readonly P[], layout: ScatterGroups): P[] {
  const result = unmatched.slice(0, layout.unmatchedRemainder);
  let m = 0;
  let u = layout.unmatchedRemainder;
  for (let group = 0; group < layout.groups; group++) {
    result.push(...matched.slice(m, m + layout.matchedSize), ...unmatched.slice(u, u + layout.unmatchedSize));
    m += layout.matchedSize;
    u += layout.unmatchedSize;
  }
  result.push(...matched.slice(m), ...unmatched.slice(u));
  return result;
}

/** Re-interleaves the candidates for one term (see the file header); a new array. */
function scatterByTerm<P extends ReadonlyPod>(
  candidates: readonly P[],
  term: ScatterTerm,
  allPods: readonly ReadonlyPod[],
): P[] {
  const matched = candidates.filter((pod) => matchesTerm(pod, term));
  const unmatched = candidates.filter((pod) => !matchesTerm(pod, term));
  const reserved = matched.pop();
  if (reserved === undefined || matched.length === 0 || unmatched.length <= 1) {
    return [...candidates];
  }
  const totalMatched = allPods.filter((pod) => matchesTerm(pod, term)).length;
  // The candidates are among allPods, so these floors change nothing for a well-formed call; they keep
  // the arithmetic finite if a caller passes candidates that are not.
  const totals = {
    matched: Math.max(totalMatched - 1, matched.length),
    unmatched: Math.max(allPods.length - totalMatched, unmatched.length),
  };
  const layout = scatterGroups(totals, { matched: matched.length, unmatched: unmatched.length });
  return [...interleave(matched, unmatched, layout), reserved];
}

/**
 * The terms in the order they are applied. One term is used as it is. Several are reduced to those
 * that at least one candidate carries (duplicates once), ordered by how many candidates carry each,
 * most first; equal counts keep the spec order. The last term applied has the final say.
 */
export function scatterTerms(
  strategy: DeepReadonly<UpdateScatterStrategy>,
  candidates: readonly ReadonlyPod[],
): ScatterTerm[] {
  if (strategy.length <= 1) {
    return [...strategy];
  }
  const counted = new Map<string, { term: ScatterTerm; count: number }>();
  for (const term of strategy) {
    const count = candidates.filter((pod) => carriesTerm(pod, term)).length;
    const id = JSON.stringify([term.key, term.value]);
    const seen = counted.get(id);
    if (seen !== undefined) {
      seen.count += count;
    } else if (count > 0) {
      counted.set(id, { term, count });
    }
  }
  return [...counted.values()].sort((a, b) => b.count - a.count).map(({ term }) => term);
}

/**
 * The candidates scattered by every term in turn (see the file header): a new array, the input order
 * otherwise kept. Totals are taken over `allPods`, so the candidates are spread as densely as the
 * labelled pods are among all pods.
 *
 * Two OpenKruise behaviours are kept: with several terms, only candidates that carry the label count
 * towards a term's rank; when re-interleaving, a pod without the label reads as value "", so a term with
 * value "" matches the pods that lack the key.
 */
export function scatterSort<P extends ReadonlyPod>(candidates: readonly P[], options: ScatterSortOptions): P[] {
  const strategy = options.strategy ?? [];
  if (strategy.length === 0 || candidates.length <= 1) {
    return [...candidates];
  }
  return scatterTerms(strategy, candidates).reduce<P[]>(
    (order, term) => scatterByTerm(order, term, options.allPods),
    [...candidates],
  );
}
