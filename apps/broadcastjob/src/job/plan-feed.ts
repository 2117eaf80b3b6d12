/**
 * What changed since each BroadcastJob's last reconcile, as the controller's pod and node events say
 * (the pods by key, the nodes by name), so that a reconcile after one pod event re-plans one node
 * instead of every node (issue 30). It says only where to look: the plan reads the objects from the
 * informer's cache, which the informer updates before it calls its handlers. Only jobs with a plan
 * view are recorded; a job without one is planned from the whole cache.
 */
import { APPS_KRUISE_IO_GROUP, BROADCASTJOB_KIND } from '@kruise-ts/api';
import type { Node, Pod } from '@kruise-ts/api';
import type { DeepReadonly, ResourceEventHandler } from '@kruise-ts/controller-runtime';
import { ownerKeyOf } from '@kruise-ts/workload';

type ReadonlyPod = DeepReadonly<Pod>;

const OWNER = { group: APPS_KRUISE_IO_GROUP, kind: BROADCASTJOB_KIND };

/** A job's changes since its last reconcile. */
export interface PlanChanges {
  /** Pod keys (`namespace/name`). */
  readonly pods: ReadonlySet<string>;
  /** Node names. */
  readonly nodes: ReadonlySet<string>;
}

interface Pending {
  readonly pods: Set<string>;
  readonly nodes: Set<string>;
}

/** The changes of the jobs being tracked (see the file's comment). */
export class PlanFeed {
  /** Job key → its changes since its view was built or last brought up to date. */
  readonly #jobs = new Map<string, Pending>();

  /** Starts (or restarts) recording for a job whose view is built from the cache now. */
  track(jobKey: string): void {
    this.#jobs.set(jobKey, { pods: new Set(), nodes: new Set() });
  }

  /** Stops recording for a job (deleted or finished). */
  untrack(jobKey: string): void {
    this.#jobs.delete(jobKey);
  }

  podChanged(jobKey: string, podKey: string): void {
    this.#jobs.get(jobKey)?.pods.add(podKey);
  }

  nodeChanged(name: string): void {
    for (const pending of this.#jobs.values()) {
      pending.nodes.add(name);
    }
  }

  /** The job's changes since the last take, cleared; undefined when it is not tracked (its view must be built). */
  take(jobKey: string): PlanChanges | undefined {
    const pending = this.#jobs.get(jobKey);
    if (pending === undefined) {
      return undefined;
    }
    this.#jobs.set(jobKey, { pods: new Set(), nodes: new Set() });
    return pending;
  }
}

function podKey(pod: ReadonlyPod): string {
  return `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;
}

/** The pod informer's handler that records a changed pod for its job (and its former job, were the owner changed). */
export function podChangesHandler(feed: PlanFeed): ResourceEventHandler<Pod> {
  const record = (pod: ReadonlyPod): void => {
    const owner = ownerKeyOf(OWNER, pod);
    if (owner !== undefined) {
      feed.podChanged(owner, podKey(pod));
    }
  };
  return {
    onAdd: record,
    onUpdate: (oldPod, newPod) => {
      record(oldPod);
      record(newPod);
    },
    onDelete: record,
  };
}

/** The node informer's handler: every change of a node (status heartbeats too: the plan holds the node object) marks it for every job. */
export function nodeChangesHandler(feed: PlanFeed): ResourceEventHandler<Node> {
  const record = (node: DeepReadonly<Node>): void => {
    feed.nodeChanged(node.metadata?.name ?? '');
  };
  return {
    onAdd: record,
    onUpdate: (_oldNode, newNode) => {
      record(newNode);
    },
    onDelete: record,
  };
}
