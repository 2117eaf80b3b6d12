/**
 * One BroadcastJob's node plan and pod counts kept between reconciles (issue 30): built once from the
 * cache (planNodes' rules, node by node), then brought up to date from what changed (PlanFeed), so
 * that a reconcile after one pod event re-plans that pod's nodes, not every node of the cluster. It
 * holds each node's part of the plan and the totals of the parts; a change subtracts the node's old
 * part and adds its new one. The plan is planNodes' and the counts countJobPods' (plan-view.test.ts
 * checks both over random changes); only the order of `desired` and `podsToDelete` may differ, which
 * nothing reads.
 */
import { BROADCASTJOB_CONTROLLER_UID_LABEL } from '@kruise-ts/api';
import type { BroadcastJob, Node, Pod } from '@kruise-ts/api';
import { controllerRef } from '@kruise-ts/controller-runtime';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

import { isPodRunning, jobPodState } from './job-pods.ts';
import type { JobPodCounts, JobPodState } from './job-pods.ts';
import { byAge, compareText } from './node-plan.ts';
import type { DeleteReason, FitResult, NodePlan } from './node-plan.ts';
import type { PlanChanges } from './plan-feed.ts';

type ReadonlyPod = DeepReadonly<Pod>;
type ReadonlyNode = DeepReadonly<Node>;
type PodToDelete = NodePlan['podsToDelete'][number];

/** Where the view reads objects and how it judges them. */
export interface PlanViewSources {
  readonly job: DeepReadonly<BroadcastJob>;
  readonly getPod: (key: string) => ReadonlyPod | undefined;
  readonly getNode: (name: string) => ReadonlyNode | undefined;
  readonly fit: (node: ReadonlyNode) => FitResult;
  readonly nodeOf: (pod: ReadonlyPod) => string | undefined;
}

/** A node's part of the plan. */
interface NodePart {
  readonly desired: boolean;
  readonly kept: ReadonlyPod | undefined;
  readonly rest: boolean;
  readonly deletes: readonly PodToDelete[];
  readonly duplicate: boolean;
  readonly unfit: readonly string[];
  /** Desired, and its pod is missing or still active (the job is not complete). */
  readonly unfinished: boolean;
}

const NO_PART: NodePart = {
  desired: false,
  kept: undefined,
  rest: false,
  deletes: [],
  duplicate: false,
  unfit: [],
  unfinished: false,
};

interface NodeEntry {
  node: ReadonlyNode | undefined;
  /** The job's pods on the node, oldest first. */
  readonly pods: ReadonlyPod[];
  part: NodePart;
}

interface PodEntry {
  readonly pod: ReadonlyPod;
  readonly node: string | undefined;
  readonly state: JobPodState;
}

function podKey(pod: ReadonlyPod): string {
  return `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;
}

function deletes(pods: readonly ReadonlyPod[], reason: DeleteReason): PodToDelete[] {
  return pods.filter(isPodRunning).map((pod) => ({ pod, reason }));
}

/** A node with its pods, as planNodes plans it. */
function planPart(sources: PlanViewSources, node: ReadonlyNode, pods: readonly ReadonlyPod[]): NodePart {
  const [kept, ...extra] = pods;
  const duplicates = deletes(extra, 'DuplicatePod');
  const duplicate = extra.length > 0;
  const fit = sources.fit(node);
  if (kept === undefined) {
    if (!fit.fits) {
      return { ...NO_PART, unfit: fit.reasons };
    }
    return { ...NO_PART, desired: true, rest: true, unfinished: true };
  }
  if (!fit.fits && kept.metadata?.deletionTimestamp === undefined) {
    return { ...NO_PART, deletes: [...duplicates, { pod: kept, reason: 'NodeUnfit' }], duplicate };
  }
  return {
    ...NO_PART,
    desired: true,
    kept,
    deletes: duplicates,
    duplicate,
    unfinished: jobPodState(sources.job, kept) === 'active',
  };
}

function insertByAge(pods: ReadonlyPod[], pod: ReadonlyPod): void {
  let index = pods.length;
  while (index > 0 && byAge(pods[index - 1] as ReadonlyPod, pod) > 0) {
    index--;
  }
  pods.splice(index, 0, pod);
}

/** The view of one job (see the file's comment). */
export class PlanView {
  /** The job and template it was built for (uid and generation). */
  readonly version: string;
  readonly #nodes = new Map<string, NodeEntry>();
  readonly #pods = new Map<string, PodEntry>();
  readonly #desired = new Map<string, ReadonlyPod | undefined>();
  readonly #rest = new Set<string>();
  readonly #deletes = new Map<string, readonly PodToDelete[]>();
  readonly #duplicates = new Set<string>();
  readonly #unfitReasons = new Map<string, number>();
  readonly #counts = { active: 0, succeeded: 0, failed: 0 };
  #unfinished = 0;
  #nodeCount = 0;

  /** Built from the job's pods and every node of the cache. */
  constructor(
    version: string,
    sources: PlanViewSources,
    cache: { readonly pods: readonly ReadonlyPod[]; readonly nodes: readonly ReadonlyNode[] },
  ) {
    this.version = version;
    for (const node of cache.nodes) {
      this.#setNode(node.metadata?.name ?? '', node);
    }
    for (const pod of cache.pods) {
      this.#addPod(sources, pod);
    }
    for (const name of this.#nodes.keys()) {
      this.#replan(sources, name);
    }
  }

  /** Brings the view up to date with what changed: the changed pods' nodes (old and new) and the changed nodes are planned again. */
  update(sources: PlanViewSources, changes: PlanChanges): void {
    const dirty = new Set(changes.nodes);
    for (const name of changes.nodes) {
      this.#setNode(name, sources.getNode(name));
    }
    for (const key of changes.pods) {
      const before = this.#removePod(key);
      if (before !== undefined) {
        dirty.add(before);
      }
      const pod = sources.getPod(key);
      const after = pod !== undefined && isJobPod(sources.job, pod) ? this.#addPod(sources, pod) : undefined;
      if (after !== undefined) {
        dirty.add(after);
      }
    }
    for (const name of dirty) {
      this.#replan(sources, name);
    }
  }

  plan(): NodePlan {
    return {
      desired: this.#desired,
      restNodes: [...this.#rest].sort(compareText),
      podsToDelete: [...this.#deletes.values()].flat(),
      duplicateNodes: [...this.#duplicates].sort(compareText),
      unfitReasons: new Map(this.#unfitReasons),
    };
  }

  counts(): JobPodCounts {
    return { ...this.#counts };
  }

  /** Every desired node has a pod that is no longer active (isJobComplete, kept as a count). */
  complete(job: DeepReadonly<BroadcastJob>): boolean {
    return job.spec.completionPolicy.type !== 'Never' && this.#desired.size > 0 && this.#unfinished === 0;
  }

  get nodeCount(): number {
    return this.#nodeCount;
  }

  /** Whether the node is in the cluster. */
  hasNode(name: string): boolean {
    return this.#nodes.get(name)?.node !== undefined;
  }

  /** The job's pods (for the rare rounds that stop every running pod). */
  pods(): ReadonlyPod[] {
    return [...this.#pods.values()].map((entry) => entry.pod);
  }

  #setNode(name: string, node: ReadonlyNode | undefined): void {
    const entry = this.#nodes.get(name);
    if ((entry?.node !== undefined) !== (node !== undefined)) {
      this.#nodeCount += node === undefined ? -1 : 1;
    }
    if (entry === undefined) {
      this.#nodes.set(name, { node, pods: [], part: NO_PART });
    } else {
      entry.node = node;
    }
  }

  /** Adds a pod; returns its node (undefined: it is on none yet). */
  #addPod(sources: PlanViewSources, pod: ReadonlyPod): string | undefined {
    const node = sources.nodeOf(pod);
    const state = jobPodState(sources.job, pod);
    this.#pods.set(podKey(pod), { pod, node, state });
    if (state !== 'deleting') {
      this.#counts[state] += 1;
    }
    if (node === undefined) {
      return undefined;
    }
    let entry = this.#nodes.get(node);
    if (entry === undefined) {
      entry = { node: undefined, pods: [], part: NO_PART };
      this.#nodes.set(node, entry);
    }
    insertByAge(entry.pods, pod);
    return node;
  }

  /** Removes a pod; returns its node. */
  #removePod(key: string): string | undefined {
    const known = this.#pods.get(key);
    if (known === undefined) {
      return undefined;
    }
    this.#pods.delete(key);
    if (known.state !== 'deleting') {
      this.#counts[known.state] -= 1;
    }
    if (known.node === undefined) {
      return undefined;
    }
    const pods = this.#nodes.get(known.node)?.pods;
    const index = pods?.indexOf(known.pod) ?? -1;
    if (index >= 0) {
      pods?.splice(index, 1);
    }
    return known.node;
  }

  #replan(sources: PlanViewSources, name: string): void {
    const entry = this.#nodes.get(name);
    if (entry === undefined) {
      return;
    }
    this.#apply(name, entry.part, -1);
    entry.part =
      entry.node === undefined
        ? { ...NO_PART, deletes: deletes(entry.pods, 'NodeGone') }
        : planPart(sources, entry.node, entry.pods);
    this.#apply(name, entry.part, 1);
    if (entry.node === undefined && entry.pods.length === 0) {
      this.#nodes.delete(name);
    }
  }

  /** Adds (sign 1) or takes away (sign -1) a node's part from the totals. */
  #apply(name: string, part: NodePart, sign: 1 | -1): void {
    if (sign === 1) {
      this.#add(name, part);
    } else {
      this.#remove(name, part);
    }
    if (part.unfinished) {
      this.#unfinished += sign;
    }
    for (const reason of part.unfit) {
      const count = (this.#unfitReasons.get(reason) ?? 0) + sign;
      if (count === 0) {
        this.#unfitReasons.delete(reason);
      } else {
        this.#unfitReasons.set(reason, count);
      }
    }
  }

  #add(name: string, part: NodePart): void {
    if (part.desired) {
      this.#desired.set(name, part.kept);
    }
    if (part.rest) {
      this.#rest.add(name);
    }
    if (part.duplicate) {
      this.#duplicates.add(name);
    }
    if (part.deletes.length > 0) {
      this.#deletes.set(name, part.deletes);
    }
  }

  #remove(name: string, part: NodePart): void {
    if (part.desired) {
      this.#desired.delete(name);
    }
    if (part.rest) {
      this.#rest.delete(name);
    }
    if (part.duplicate) {
      this.#duplicates.delete(name);
    }
    if (part.deletes.length > 0) {
      this.#deletes.delete(name);
    }
  }
}

/** The reconciler's test of a job's pod (its lister query): the job's uid label and controller reference. */
export function isJobPod(job: DeepReadonly<BroadcastJob>, pod: ReadonlyPod): boolean {
  const uid = job.metadata.uid ?? '';
  return (
    pod.metadata?.namespace === (job.metadata.namespace ?? '') &&
    pod.metadata.labels?.[BROADCASTJOB_CONTROLLER_UID_LABEL] === uid &&
    controllerRef(pod)?.uid === uid
  );
}
