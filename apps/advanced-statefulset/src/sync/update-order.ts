/**
 * Which pods a rolling update moves, and in which order (OpenKruise's `sortPodsToUpdate`), and the
 * revision a new pod is created at (`isCurrentRevisionNeeded`). Slots are the set's ordinals from
 * `start` to the end of its range: slot `i` is ordinal `start + i`, undefined for a reserved ordinal
 * or a pod that does not exist.
 */
import type { Pod, UpdatePriorityStrategy } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { isPodAtRevision } from '@kruise-ts/revision';
import { isBeingDeleted, sortByPriority } from '@kruise-ts/workload';

type ReadonlyPod = DeepReadonly<Pod>;

/** The parts of `updateStrategy` the order depends on. */
export interface UpdateOrderStrategy {
  /** `rollingUpdate.partition`: how many pods keep old revisions (a count, OpenKruise v1beta1). */
  readonly partition: number;
  /** `rollingUpdate.unorderedUpdate`: present ⇒ not by ordinal, by priority. */
  readonly unorderedUpdate?:
    { readonly priorityStrategy?: DeepReadonly<UpdatePriorityStrategy> | undefined } | undefined;
}

/**
 * The slot indexes to update, first to last. At most `replicas − partition` pods end at the update
 * revision. Ordered: highest ordinal first, never the lowest `partition` slots. Unordered: pods
 * already updated (or terminating) first, then the others by priority, each group highest first.
 */
export function podsToUpdate(input: {
  readonly strategy: UpdateOrderStrategy;
  readonly replicas: number;
  readonly updateRevision: string;
  readonly slots: readonly (ReadonlyPod | undefined)[];
}): number[] {
  const { strategy, slots } = input;
  const maxUpdate = input.replicas - strategy.partition;
  if (maxUpdate <= 0) {
    return [];
  }
  if (strategy.unorderedUpdate === undefined) {
    const indexes: number[] = [];
    for (let index = slots.length - 1; index >= strategy.partition && indexes.length < maxUpdate; index--) {
      if (slots[index] !== undefined) {
        indexes.push(index);
      }
    }
    return indexes;
  }
  const present = [...slots.entries()]
    .filter((entry): entry is [number, ReadonlyPod] => entry[1] !== undefined)
    .reverse();
  const done = present.filter(([, pod]) => isPodAtRevision(pod, input.updateRevision) || isBeingDeleted(pod));
  const waiting = present.filter(([, pod]) => !(isPodAtRevision(pod, input.updateRevision) || isBeingDeleted(pod)));
  const indexOf = new Map(waiting.map(([index, pod]) => [pod, index]));
  const byPriority = sortByPriority(
    waiting.map(([, pod]) => pod),
    strategy.unorderedUpdate.priorityStrategy,
  );
  return [...done.map(([index]) => index), ...byPriority.map((pod) => indexOf.get(pod) ?? -1)].slice(0, maxUpdate);
}

/** What decides a new pod's revision. */
export interface NewPodRevisionInput {
  /** `updateStrategy.type` is OnDelete: new pods always get the update revision. */
  readonly onDelete: boolean;
  readonly strategy: UpdateOrderStrategy;
  readonly updateRevision: string;
  /** The new pod's slot. */
  readonly index: number;
  readonly slots: readonly (ReadonlyPod | undefined)[];
}

/**
 * Whether a pod created at slot `index` gets the current (old) revision (OpenKruise's
 * `isCurrentRevisionNeeded`): ordered, when fewer than `partition` pods exist below it; unordered,
 * when fewer than `partition` other pods are at old revisions.
 */
export function isCurrentRevisionNeeded(input: NewPodRevisionInput): boolean {
  const { strategy, slots } = input;
  if (input.onDelete) {
    return false;
  }
  if (strategy.unorderedUpdate === undefined) {
    const below = slots.slice(0, input.index).filter((slot) => slot !== undefined).length;
    return below + 1 <= strategy.partition;
  }
  const old = slots.filter(
    (pod, index) => index !== input.index && pod !== undefined && !isPodAtRevision(pod, input.updateRevision),
  ).length;
  return old < strategy.partition;
}
