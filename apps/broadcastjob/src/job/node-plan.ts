/**
 * Which nodes a BroadcastJob wants a pod on (§C.4 step 9, OpenKruise's getNodesToRunPod): a node
 * whose pod (or, without one, a pod made from the template for it) fits is desired; a desired node
 * without a pod is a node to run one on; a pod that no longer fits its node is deleted. kruise-ts also
 * deletes, keeping the oldest, a second running pod on one node (OpenKruise only reports it), and the
 * running pods of nodes that left the cluster (which would otherwise count as active forever), and it
 * says why nodes do not fit, so that a template that fits nowhere is reported instead of waiting.
 */
import type { Node, Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

import { isPodRunning } from './job-pods.ts';

type ReadonlyPod = DeepReadonly<Pod>;
type ReadonlyNode = DeepReadonly<Node>;

/** Whether a pod fits a node, and why not. */
export interface FitResult {
  readonly fits: boolean;
  readonly reasons: readonly string[];
}

/** What the plan reads. */
export interface NodePlanInput {
  /** The job's pods (owned), any order. */
  readonly pods: readonly ReadonlyPod[];
  readonly nodes: readonly ReadonlyNode[];
  /** Whether the job's template fits the node (a lookup while neither changed: NodeFitCache). */
  readonly fit: (node: ReadonlyNode) => FitResult;
  /** The node a pod is on or for (spec.nodeName or its pinned node affinity). */
  readonly nodeOf: (pod: ReadonlyPod) => string | undefined;
}

/** Why pods are deleted. */
export type DeleteReason = 'NodeUnfit' | 'DuplicatePod' | 'NodeGone';

/** The plan. */
export interface NodePlan {
  /** Desired node → its pod (undefined: none yet), in the order the nodes came. */
  readonly desired: ReadonlyMap<string, ReadonlyPod | undefined>;
  /** Desired nodes without a pod, in name order (which get a pod first under parallelism). */
  readonly restNodes: readonly string[];
  readonly podsToDelete: readonly { readonly pod: ReadonlyPod; readonly reason: DeleteReason }[];
  /** Nodes that had more than one pod of the job, in name order. */
  readonly duplicateNodes: readonly string[];
  /** For nodes without a pod that do not fit: each reason and how many nodes gave it. */
  readonly unfitReasons: ReadonlyMap<string, number>;
}

export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Older first (creationTimestamp, then name). */
export function byAge(a: ReadonlyPod, b: ReadonlyPod): number {
  return (
    compareText(a.metadata?.creationTimestamp ?? '', b.metadata?.creationTimestamp ?? '') ||
    compareText(a.metadata?.name ?? '', b.metadata?.name ?? '')
  );
}

/** Node → its pods, oldest first. */
function podsByNode(input: NodePlanInput): Map<string, ReadonlyPod[]> {
  const map = new Map<string, ReadonlyPod[]>();
  for (const pod of input.pods) {
    const node = input.nodeOf(pod);
    if (node === undefined) {
      continue;
    }
    const list = map.get(node);
    if (list === undefined) {
      map.set(node, [pod]);
    } else {
      list.push(pod);
    }
  }
  for (const list of map.values()) {
    if (list.length > 1) {
      list.sort(byAge);
    }
  }
  return map;
}

/**
 * A pod whose node no longer fits goes (unless it is going already); otherwise the node stays
 * desired. The fit is the template's on the node (OpenKruise checks the pod itself): the pod cache
 * keeps no tolerations, and the pod was made from the template and pinned to this node anyway.
 */
function planNodeWithPod(
  input: NodePlanInput,
  target: { readonly node: ReadonlyNode; readonly pod: ReadonlyPod },
  into: Accumulator,
): void {
  const { node, pod } = target;
  const name = node.metadata?.name ?? '';
  if (!input.fit(node).fits && pod.metadata?.deletionTimestamp === undefined) {
    into.podsToDelete.push({ pod, reason: 'NodeUnfit' });
  } else {
    into.desired.set(name, pod);
  }
}

interface Accumulator {
  readonly desired: Map<string, ReadonlyPod | undefined>;
  readonly restNodes: string[];
  readonly podsToDelete: { readonly pod: ReadonlyPod; readonly reason: DeleteReason }[];
  readonly unfitReasons: Map<string, number>;
}

function planNode(
  input: NodePlanInput,
  target: { readonly node: ReadonlyNode; readonly pod: ReadonlyPod | undefined },
  into: Accumulator,
): void {
  const { node, pod } = target;
  const name = node.metadata?.name ?? '';
  if (pod !== undefined) {
    planNodeWithPod(input, { node, pod }, into);
    return;
  }
  const fit = input.fit(node);
  if (!fit.fits) {
    for (const reason of fit.reasons) {
      into.unfitReasons.set(reason, (into.unfitReasons.get(reason) ?? 0) + 1);
    }
    return;
  }
  into.restNodes.push(name);
  into.desired.set(name, undefined);
}

/**
 * The plan of the job's nodes (see the file's comment). Linear in nodes and pods: only the nodes
 * still without a pod (and nodes with duplicates) are sorted, not every node on every round.
 */
export function planNodes(input: NodePlanInput): NodePlan {
  const byNode = podsByNode(input);
  const into: Accumulator = { desired: new Map(), restNodes: [], podsToDelete: [], unfitReasons: new Map() };
  const duplicateNodes: string[] = [];
  const present = new Set<string>();
  for (const node of input.nodes) {
    const name = node.metadata?.name ?? '';
    present.add(name);
    const [kept, ...extra] = byNode.get(name) ?? [];
    if (extra.length > 0) {
      duplicateNodes.push(name);
    }
    into.podsToDelete.push(...extra.filter(isPodRunning).map((pod) => ({ pod, reason: 'DuplicatePod' as const })));
    planNode(input, { node, pod: kept }, into);
  }
  const gone = [...byNode].filter(([node]) => !present.has(node)).flatMap(([, pods]) => pods.filter(isPodRunning));
  into.podsToDelete.push(...gone.map((pod) => ({ pod, reason: 'NodeGone' as const })));
  into.restNodes.sort(compareText);
  return { ...into, duplicateNodes: duplicateNodes.sort(compareText) };
}
