/**
 * Whether a BroadcastJob pod fits a node (§C.4 step 9, OpenKruise's checkNodeFitness): the pod's
 * nodeName, its required node affinity and nodeSelector, the node's NoSchedule/NoExecute taints, a
 * cordoned node, then resources. The first failing check decides, as in OpenKruise (and as the
 * scheduler stops at its first failing filter); only the resource check gives every reason it finds.
 * Reasons are the scheduler's words, so that "0/4 nodes are available: 2 node(s) had untolerated
 * taint {dedicated: gpu}" reads as `kubectl describe pod` would.
 */
import type { Node, Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

import { matchesRequiredNodeAffinity } from './node-affinity.ts';
import { insufficientResources, podRequests } from './node-resources.ts';

export { podRequests };
import { tolerationsTolerate, UNSCHEDULABLE_TAINT, untoleratedTaint } from './taints.ts';

type ReadonlyPod = DeepReadonly<Pod>;
type ReadonlyNode = DeepReadonly<Node>;

/** Whether a pod fits a node, and the scheduler's reasons when it does not. */
export interface FitResult {
  readonly fits: boolean;
  /** Empty when the pod fits. */
  readonly reasons: readonly string[];
}

/** The scheduler's reasons for the checks before resources (resources give `Insufficient <name>` and `Too many pods`). */
export const NodeUnfitReason = {
  NodeName: "node(s) didn't match the requested node name",
  NodeAffinity: "node(s) didn't match Pod's node affinity/selector",
  Unschedulable: 'node(s) were unschedulable',
} as const;

/** The reason for an untolerated taint, naming it as kube-scheduler up to 1.33 did (`{key: value}`). */
export function untoleratedTaintReason(taint: { readonly key: string; readonly value?: string | undefined }): string {
  return `node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`;
}

type Predicate = (pod: ReadonlyPod, node: ReadonlyNode) => string | undefined;

const PREDICATES: readonly Predicate[] = [
  (pod, node) => {
    const nodeName = pod.spec?.nodeName ?? '';
    return nodeName !== '' && nodeName !== (node.metadata?.name ?? '') ? NodeUnfitReason.NodeName : undefined;
  },
  (pod, node) => (matchesRequiredNodeAffinity(pod, node) ? undefined : NodeUnfitReason.NodeAffinity),
  (pod, node) => {
    const taint = untoleratedTaint(node.spec?.taints, pod.spec?.tolerations);
    return taint === undefined ? undefined : untoleratedTaintReason(taint);
  },
  (pod, node) =>
    node.spec?.unschedulable === true && !tolerationsTolerate(pod.spec?.tolerations, UNSCHEDULABLE_TAINT)
      ? NodeUnfitReason.Unschedulable
      : undefined,
];

const FITS: FitResult = Object.freeze({ fits: true, reasons: Object.freeze([]) });

/** A pod's fit on any node: its requests parsed once, for every node it is checked against. */
export type PodFitness = (node: ReadonlyNode) => FitResult;

/**
 * Whether the pod (the template's mock pod, whose `spec.nodeName` is empty or the node's) fits a
 * node, and why not, as a function of the node: the requests are parsed once, not once per node.
 * Resources are checked against an otherwise empty node, as OpenKruise does: other pods' requests
 * are not subtracted.
 */
export function fitnessOf(pod: ReadonlyPod): PodFitness {
  const requests = podRequests(pod);
  return (node) => {
    for (const predicate of PREDICATES) {
      const reason = predicate(pod, node);
      if (reason !== undefined) {
        return { fits: false, reasons: [reason] };
      }
    }
    const reasons = insufficientResources(requests, node);
    return reasons.length === 0 ? FITS : { fits: false, reasons };
  };
}

/** {@link fitnessOf} for one node. */
export function checkNodeFitness(pod: ReadonlyPod, node: ReadonlyNode): FitResult {
  return fitnessOf(pod)(node);
}
