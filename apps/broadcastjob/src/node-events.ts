/**
 * Node events and the jobs they concern, and which jobs a replica keeps per-job state for. A node
 * event reconciles only the unfinished jobs it can matter to, which the templates' fits decide; those
 * fits are kept (NodeFitCache) only for jobs this replica reconciles now: a standby, or a sharded
 * replica for other buckets' jobs, would otherwise compute and keep every job's fit on every node.
 */
import { BROADCASTJOB_CONTROLLER_UID_LABEL } from '@kruise-ts/api';
import type { BroadcastJob, Node, Pod } from '@kruise-ts/api';
import { requestKey } from '@kruise-ts/controller-runtime';
import type { DeepReadonly, Informer, Lister } from '@kruise-ts/controller-runtime';
import { bucketOfKey } from '@kruise-ts/sharding';
import type { BucketGate } from '@kruise-ts/sharding';

import type { NodeFitCache } from './job/node-fit-cache.ts';
import { assignedNode } from './nodes/pod-node.ts';

/** What the node handler reads and does: the jobs, their pods, the templates' kept fits, and the queue. */
export interface NodeWatch {
  readonly jobs: Lister<BroadcastJob>;
  readonly pods: Lister<Pod>;
  readonly fits: NodeFitCache;
  /** Whether this replica reconciles the job of `key` now (see `reconcilesHere`). */
  readonly reconcilesHere: (key: string) => boolean;
  readonly enqueue: (key: string) => void;
}

/**
 * Whether this replica reconciles a job now: its controller's workers run (not a standby), and, when
 * sharded, it holds the job's bucket. A job it does not reconcile needs nothing queued either: a
 * standby's queue holds every job since the jobs' initial list, and a bucket taken queues its jobs.
 */
export function reconcilesHere(
  controller: { readonly running: boolean },
  gate: Pick<BucketGate, 'state'> | undefined,
): (key: string) => boolean {
  return (key) => controller.running && (gate === undefined || gate.state(bucketOfKey(key)) !== undefined);
}

/** What of a node decides whether a pod fits it. */
function fitnessFields(node: DeepReadonly<Node>): string {
  return JSON.stringify([node.metadata?.labels, node.spec?.taints, node.spec?.unschedulable, node.status?.allocatable]);
}

function isFinished(job: DeepReadonly<BroadcastJob>): boolean {
  return (job.status?.conditions ?? []).some(
    (condition) => condition.status === 'True' && (condition.type === 'Complete' || condition.type === 'Failed'),
  );
}

/**
 * Whether a change of these nodes (a node before and after) can matter to a job: its template fits one
 * of them, or one of its pods is there. Another job's nodes (a taint the template does not tolerate, a
 * selector it does not match) then never reconcile it: in a cluster where nodes come and go that was a
 * reconcile of every job per node event, and for a job whose creations fail, one more step of its
 * backoff each time.
 */
function concernsJob(watch: NodeWatch, job: DeepReadonly<BroadcastJob>, nodes: readonly DeepReadonly<Node>[]): boolean {
  try {
    const fit = watch.fits.fitOf(job);
    if (nodes.some((node) => fit(node).fits)) {
      return true;
    }
  } catch {
    return true;
  }
  const names = new Set(nodes.map((node) => node.metadata?.name ?? ''));
  const selector = { matchLabels: { [BROADCASTJOB_CONTROLLER_UID_LABEL]: job.metadata.uid ?? '' } };
  return watch.pods
    .list({ namespace: job.metadata.namespace ?? '', labelSelector: selector })
    .some((pod) => names.has(assignedNode(pod) ?? ''));
}

/** Node events: every unfinished job of this replica's that it concerns looks again when a node comes, goes, or changes what fits it (status heartbeats do not count). */
export function watchNodes(nodes: Pick<Informer<Node>, 'addEventHandler'>, watch: NodeWatch): void {
  const enqueueJobs = (...changed: DeepReadonly<Node>[]): void => {
    for (const job of watch.jobs.list()) {
      const key = requestKey({ namespace: job.metadata.namespace ?? '', name: job.metadata.name ?? '' });
      if (watch.reconcilesHere(key) && !isFinished(job) && concernsJob(watch, job, changed)) {
        watch.enqueue(key);
      }
    }
  };
  nodes.addEventHandler({
    onAdd: (node) => {
      enqueueJobs(node);
    },
    onUpdate: (oldNode, newNode) => {
      if (fitnessFields(oldNode) !== fitnessFields(newNode)) {
        enqueueJobs(oldNode, newNode);
      }
    },
    onDelete: (node) => {
      enqueueJobs(node);
    },
  });
}
