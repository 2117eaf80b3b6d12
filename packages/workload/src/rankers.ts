/**
 * Rankers for the scale-in order (OpenKruise's pod_sorter.go): a pod's rank says how much deleting it
 * helps spread the remaining pods; rule 5 of the deletion order deletes higher ranks first. Ranks are
 * keyed by pod name and are 0 unless set.
 */
import type { Node, Pod, PodTemplateSpec } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

import { podRankingComparator } from './deletion-order.ts';
import type { PodComparator } from './deletion-order.ts';
import { labelValue } from './labels.ts';

type ReadonlyPod = DeepReadonly<Pod>;

/** The node label whose topology needs no same-node ranks (every node is its own group). */
export const HOSTNAME_TOPOLOGY_KEY = 'kubernetes.io/hostname';

/** Which ranker a workload uses: chosen by its pod template, see {@link chooseRanker}. */
export type PodRanker =
  { readonly kind: 'sameNode' } | { readonly kind: 'spread'; readonly topologyKeys: readonly string[] };

/** Options of {@link spreadRanks}. */
export interface SpreadRanksOptions {
  readonly pods: readonly ReadonlyPod[];
  /** Topology keys of the template's topologySpreadConstraints, in order (duplicates count twice, as upstream). */
  readonly topologyKeys: readonly string[];
  /** Nodes by name; pods on nodes missing here (unreadable) get no contribution. */
  readonly nodes: ReadonlyMap<string, DeepReadonly<Node>>;
  /** Same-node ranks of `pods`; computed with {@link sameNodeRanks} when omitted. */
  readonly sameNodeRanks?: ReadonlyMap<string, number> | undefined;
}

/** Options of {@link rankPods}. */
export interface RankPodsOptions {
  readonly ranker: PodRanker;
  readonly pods: readonly ReadonlyPod[];
  /** Needed by the spread ranker only. */
  readonly nodes?: ReadonlyMap<string, DeepReadonly<Node>> | undefined;
}

function podName(pod: ReadonlyPod): string {
  return pod.metadata?.name ?? '';
}

function pushTo<K, V>(groups: Map<K, V[]>, key: K, values: readonly V[]): void {
  const group = groups.get(key);
  if (group === undefined) {
    groups.set(key, [...values]);
  } else {
    group.push(...values);
  }
}

/**
 * Same-node ranks: pods sharing a node are sorted with `compare` (by default the deletion order
 * without availability and ranks) and all but the last, most valuable one get ranks `len−1 … 1`;
 * pods alone on their node or unscheduled rank 0. Example: a, b, c on node n1 sorted [b, a, c] and d
 * alone on n2 ⇒ b 2, a 1, c 0, d 0: scale-in first removes the extra pods of crowded nodes.
 */
export function sameNodeRanks(
  pods: readonly ReadonlyPod[],
  compare: PodComparator = podRankingComparator(),
): Map<string, number> {
  const byNode = new Map<string, ReadonlyPod[]>();
  for (const pod of pods) {
    const node = pod.spec?.nodeName ?? '';
    if (node !== '') {
      pushTo(byNode, node, [pod]);
    }
  }
  const ranks = new Map<string, number>();
  for (const group of byNode.values()) {
    const sorted = [...group].sort(compare);
    sorted.slice(0, -1).forEach((pod, index) => ranks.set(podName(pod), sorted.length - 1 - index));
  }
  return ranks;
}

/** Pods grouped by node, nodes in order of their first pod; pods on unknown nodes are dropped. */
function podsByKnownNode(
  pods: readonly ReadonlyPod[],
  nodes: ReadonlyMap<string, DeepReadonly<Node>>,
): Map<string, ReadonlyPod[]> {
  const byNode = new Map<string, ReadonlyPod[]>();
  for (const pod of pods) {
    const node = pod.spec?.nodeName ?? '';
    if (node !== '' && nodes.has(node)) {
      pushTo(byNode, node, [pod]);
    }
  }
  return byNode;
}

function groupByTopology(input: {
  byNode: ReadonlyMap<string, readonly ReadonlyPod[]>;
  nodes: ReadonlyMap<string, DeepReadonly<Node>>;
  key: string;
}): Map<string, ReadonlyPod[]> {
  const groups = new Map<string, ReadonlyPod[]>();
  for (const [nodeName, pods] of input.byNode) {
    const value = labelValue(input.nodes.get(nodeName)?.metadata?.labels, input.key);
    if (value !== undefined) {
      pushTo(groups, value, pods);
    }
  }
  return groups;
}

/**
 * Spread ranks: for each topology key, pods are grouped by their node's label value; each group is
 * sorted (deletion order without availability, with same-node ranks unless the key is
 * `kubernetes.io/hostname`) and its i-th pod gains `(len − i) × ln(values + 2)`, where `values` is the
 * number of distinct label values. Example: key zone, zone-a holds [p, q], zone-b holds [r] ⇒ weight
 * ln(4) ≈ 1.386; p gets 2 × 1.386 ≈ 2.77, q and r 1.386: the crowded zone loses a pod first.
 */
export function spreadRanks(options: SpreadRanksOptions): Map<string, number> {
  const byNode = podsByKnownNode(options.pods, options.nodes);
  const nodeRanks = options.sameNodeRanks ?? sameNodeRanks(options.pods);
  const ranks = new Map<string, number>();
  for (const key of options.topologyKeys) {
    const groups = groupByTopology({ byNode, nodes: options.nodes, key });
    const weight = Math.log(groups.size + 2);
    const compare = podRankingComparator(key === HOSTNAME_TOPOLOGY_KEY ? undefined : nodeRanks);
    for (const group of groups.values()) {
      const sorted = [...group].sort(compare);
      sorted.forEach((pod, index) =>
        ranks.set(podName(pod), (ranks.get(podName(pod)) ?? 0) + (sorted.length - index) * weight),
      );
    }
  }
  return ranks;
}

/**
 * The ranker OpenKruise's CloneSet uses: the spread ranker over the topology keys of the template's
 * topologySpreadConstraints when there are any, else the same-node ranker.
 */
export function chooseRanker(template: DeepReadonly<PodTemplateSpec> | undefined): PodRanker {
  const topologyKeys = (template?.spec?.topologySpreadConstraints ?? []).map((constraint) => constraint.topologyKey);
  return topologyKeys.length > 0 ? { kind: 'spread', topologyKeys } : { kind: 'sameNode' };
}

/** Ranks `pods` with the chosen ranker (the spread ranker reads `nodes`; none given means none known). */
export function rankPods(options: RankPodsOptions): Map<string, number> {
  switch (options.ranker.kind) {
    case 'sameNode':
      return sameNodeRanks(options.pods);
    case 'spread':
      return spreadRanks({
        pods: options.pods,
        topologyKeys: options.ranker.topologyKeys,
        nodes: options.nodes ?? new Map(),
      });
  }
}
