/**
 * The `priorityStrategy` of an update (OpenKruise `updatesort.prioritySort`): pods are moved forward by
 * the sum of the weights of the selectors they match, or by the number at the end of a label value.
 * The sort is stable, so pods of equal priority keep the order they came in (the ActivePods order).
 *
 * Only one kind applies: `weightPriority` when it has terms, otherwise `orderPriority`. The API rejects
 * specs with both; if one gets through anyway, the weights win, as upstream.
 */
import type { Pod, UpdatePriorityOrderTerm, UpdatePriorityStrategy, UpdatePriorityWeightTerm } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { matchesLabelSelector } from '@kruise-ts/controller-runtime';

import type { PodComparator } from './deletion-order.ts';
import { labelValue } from './labels.ts';

type ReadonlyPod = DeepReadonly<Pod>;

/** Where a pod stands under `orderPriority`: a lower `level` first, then a higher `order` first. */
export interface PriorityOrder {
  /** Index of the first term whose `orderedKey` the pod has; −1 when it has none of them. */
  readonly level: number;
  /** The integer formed by the trailing digits of that label's value; 0 when there are none. */
  readonly order: bigint;
}

const INT64_MAX = 2n ** 63n - 1n;
const TRAILING_DIGITS = /[0-9]+$/;

/**
 * The integer at the end of a label value: `sts-10` ⇒ 10, `5` ⇒ 5, `a1b` ⇒ 0 (no trailing digits).
 * Values beyond int64 count as 0, as Go's failed `ParseInt` does; bigint keeps larger values exact.
 */
export function trailingInteger(value: string): bigint {
  const digits = TRAILING_DIGITS.exec(value)?.[0];
  if (digits === undefined) {
    return 0n;
  }
  const parsed = BigInt(digits);
  return parsed > INT64_MAX ? 0n : parsed;
}

/**
 * A pod's weight under `weightPriority`: the sum of the weights of the terms whose `matchSelector`
 * matches its labels. A term with an invalid selector (an unknown operator) matches nothing, which
 * is OpenKruise's "skip the term"; an empty selector matches every pod.
 */
export function priorityWeight(pod: ReadonlyPod, terms: readonly DeepReadonly<UpdatePriorityWeightTerm>[]): number {
  const labels = pod.metadata?.labels;
  return terms.reduce((sum, term) => (matchesLabelSelector(term.matchSelector, labels) ? sum + term.weight : sum), 0);
}

/**
 * A pod's place under `orderPriority`: the first term (in spec order) whose key the pod carries gives
 * the level, and that label's trailing integer the order. Pods carrying none of the keys get level
 * −1 and therefore sort **before** pods carrying the first key: OpenKruise's code does this although
 * the API comment suggests otherwise, and we keep it for compatibility.
 */
export function priorityOrder(
  pod: ReadonlyPod,
  terms: readonly DeepReadonly<UpdatePriorityOrderTerm>[],
): PriorityOrder {
  const labels = pod.metadata?.labels;
  for (const [level, term] of terms.entries()) {
    const value = labelValue(labels, term.orderedKey);
    if (value !== undefined) {
      return { level, order: trailingInteger(value) };
    }
  }
  return { level: -1, order: 0n };
}

function weightComparator(terms: readonly DeepReadonly<UpdatePriorityWeightTerm>[]): PodComparator {
  return (a, b) => priorityWeight(b, terms) - priorityWeight(a, terms);
}

function orderComparator(terms: readonly DeepReadonly<UpdatePriorityOrderTerm>[]): PodComparator {
  return (a, b) => {
    const orderA = priorityOrder(a, terms);
    const orderB = priorityOrder(b, terms);
    if (orderA.level !== orderB.level) {
      return orderA.level - orderB.level;
    }
    return orderA.order === orderB.order ? 0 : orderA.order > orderB.order ? -1 : 1;
  };
}

/**
 * The comparator of a priority strategy ("update first" negative): higher weight first, or lower level
 * then higher order first. Undefined when the strategy has no terms (nothing to reorder).
 */
export function priorityComparator(
  strategy: DeepReadonly<UpdatePriorityStrategy> | undefined,
): PodComparator | undefined {
  const weights = strategy?.weightPriority ?? [];
  if (weights.length > 0) {
    return weightComparator(weights);
  }
  const orders = strategy?.orderPriority ?? [];
  return orders.length > 0 ? orderComparator(orders) : undefined;
}

/**
 * The pods stably sorted by a priority strategy: a new array; pods of equal priority (and all pods,
 * when the strategy has no terms) keep their input order.
 *
 * Example, weights `{foo=bar: 100}` and `{hello=world: 90}` over `[hello=world, -, foo=bar, -]`:
 * `[foo=bar, hello=world, -, -]`.
 */
export function sortByPriority<P extends ReadonlyPod>(
  pods: readonly P[],
  strategy: DeepReadonly<UpdatePriorityStrategy> | undefined,
): P[] {
  const compare = priorityComparator(strategy);
  return compare === undefined ? [...pods] : [...pods].sort(compare);
}
