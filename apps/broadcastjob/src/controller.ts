import { APPS_KRUISE_IO_GROUP, BROADCASTJOB_CONTROLLER_UID_LABEL, BROADCASTJOB_KIND } from '@kruise-ts/api';
import type { BroadcastJob, Pod } from '@kruise-ts/api';
import { objectKey, requestForObject } from '@kruise-ts/controller-runtime';
import type { Controller, DeepReadonly, Informer, Manager } from '@kruise-ts/controller-runtime';
import { bucketOfKey, labelForSharding, shardGateOf } from '@kruise-ts/sharding';
import type { BucketGate } from '@kruise-ts/sharding';
import { templateValidatorFor } from '@kruise-ts/template-validation';
import {
  nodeResource,
  ownerKeyOf,
  podResource,
  trimCachedNodes,
  resourceVersionExpectationsFor,
  scaleExpectationsFor,
  trimCachedPods,
  watchOwnWrites,
} from '@kruise-ts/workload';
import type { ScaleExpectations } from '@kruise-ts/workload';

import { broadcastJobResource } from './broadcastjob-resource.ts';
import { fitnessOf } from './nodes/node-fitness.ts';
import { assignedNode, pinnedToNode } from './nodes/pod-node.ts';
import { nodeChangesHandler, PlanFeed, podChangesHandler } from './job/plan-feed.ts';
import { reconcilesHere, watchNodes } from './node-events.ts';
import { BroadcastJobReconciler } from './reconciler.ts';

/** Options of the controller, decided by the app's main (flags). */
export interface BroadcastJobControllerOptions {
  /** Reconciles at once (OpenKruise's `--broadcastjob-workers`, default 3). */
  readonly workers: number;
  /** Pods bound by the scheduler through node affinity (default, OpenKruise's `--assign-bcj-pods-by-scheduler`), else by spec.nodeName. */
  readonly assignPodsByScheduler: boolean;
  readonly expectationTimeoutMs: number;
  /**
   * How long a job waits after one of its pods changed (not created or deleted) before it is
   * reconciled (`--broadcastjob-pod-update-batch-period`): the changes of the job's pods within it
   * cost one reconcile and one status write. Default 0: every change at once.
   */
  readonly podUpdateBatchPeriodMs?: number | undefined;
}

/** The controller's name: in logs, metrics (`controller="broadcastjob"`) and the work queue. */
export const BROADCASTJOB_CONTROLLER_NAME = 'broadcastjob';
/** The component name of its Events, as OpenKruise's. */
export const BROADCASTJOB_EVENT_COMPONENT = 'broadcastjob-controller';

const OWNER = { group: APPS_KRUISE_IO_GROUP, kind: BROADCASTJOB_KIND };

/**
 * Pod events: a created pod checks off its job's create expectation for its node, a deleted (or
 * deleting) one the delete expectation; each enqueues the job at once. Any other change of a pod
 * enqueues it after `batchMs` (the Job controller's batching: a job whose pods run and end together is
 * reconciled, and its status written, once per period, not once per pod; the queue keeps one entry
 * per job).
 */
function watchJobPods(
  controller: Controller,
  pods: Informer<Pod>,
  watch: { readonly expectations: ScaleExpectations; readonly batchMs: number },
): void {
  const { expectations, batchMs } = watch;
  const settle = (pod: DeepReadonly<Pod>, action: 'create' | 'delete'): void => {
    const owner = ownerKeyOf(OWNER, pod);
    if (owner === undefined) {
      return;
    }
    expectations.observe(owner, action, assignedNode(pod) ?? pod.metadata?.name ?? '');
    controller.queue.add(owner);
  };
  pods.addEventHandler({
    onAdd: (pod) => {
      settle(pod, 'create');
    },
    onUpdate: (oldPod, newPod) => {
      if (newPod.metadata?.deletionTimestamp !== undefined && oldPod.metadata?.deletionTimestamp === undefined) {
        settle(newPod, 'delete');
        return;
      }
      const owner = ownerKeyOf(OWNER, newPod);
      if (owner !== undefined) {
        controller.queue.addAfter(owner, batchMs);
      }
    },
    onDelete: (pod) => {
      settle(pod, 'delete');
    },
  });
  controller.addSource(pods);
}

/**
 * Frees what the reconciler keeps per job when the job is deleted (whoever reconciled it: this replica
 * may have let its bucket go before) and when this replica stops holding the job's bucket, so that a
 * replica keeps entries only for the jobs it reconciles.
 */
export function freeJobCaches(
  reconciler: Pick<BroadcastJobReconciler, 'forgetJobs'>,
  sources: {
    readonly jobs: Pick<Informer<BroadcastJob>, 'addEventHandler'>;
    readonly gate: Pick<BucketGate, 'onLeave'> | undefined;
  },
): void {
  sources.jobs.addEventHandler({
    onDelete: (job) => {
      const key = objectKey(job);
      reconciler.forgetJobs((candidate) => candidate === key);
    },
  });
  sources.gate?.onLeave((bucket) => {
    reconciler.forgetJobs((key) => bucketOfKey(key) === bucket);
  });
}

/**
 * Registers the BroadcastJob controller with a manager: informers (BroadcastJobs, pods, nodes), event
 * handlers and the reconciler. The manager runs it while it holds the leader lease.
 */
export function setupBroadcastJobController(manager: Manager, options: BroadcastJobControllerOptions): Controller {
  trimCachedPods(manager.informers);
  trimCachedNodes(manager.informers);
  const jobs = manager.informers.informerFor({ resource: broadcastJobResource });
  // Only BroadcastJob pods (the reconciler reads no other); sharded (docs/sharding.md), only those of
  // the buckets this replica holds.
  const pods = manager.informers.informerFor({
    resource: podResource,
    labelSelector: BROADCASTJOB_CONTROLLER_UID_LABEL,
    sharded: true,
  });
  labelForSharding(manager, {
    resource: podResource,
    labelSelector: BROADCASTJOB_CONTROLLER_UID_LABEL,
    ownerKind: BROADCASTJOB_KIND,
    ownerGroup: APPS_KRUISE_IO_GROUP,
  });
  const nodes = manager.informers.informerFor({ resource: nodeResource });
  const expectations = scaleExpectationsFor(manager, BROADCASTJOB_CONTROLLER_NAME, {
    timeoutMs: options.expectationTimeoutMs,
  });
  // Registered before the handlers that enqueue: a reconcile never runs before its changes are recorded.
  const planFeed = new PlanFeed();
  pods.addEventHandler(podChangesHandler(planFeed));
  nodes.addEventHandler(nodeChangesHandler(planFeed));
  const resourceVersionExpectations = resourceVersionExpectationsFor(manager, BROADCASTJOB_CONTROLLER_NAME, {
    timeoutMs: options.expectationTimeoutMs,
  });
  const reconciler = new BroadcastJobReconciler({
    api: manager.client,
    recorder: manager.eventRecorder(BROADCASTJOB_EVENT_COMPONENT),
    clock: { now: () => Date.now() },
    jobs: jobs.lister(),
    pods: pods.lister(),
    nodes: nodes.lister(),
    scaleExpectations: expectations,
    resourceVersionExpectations,
    fitnessOf,
    nodeOf: assignedNode,
    binding: { byScheduler: options.assignPodsByScheduler, pin: pinnedToNode },
    templateValidator: templateValidatorFor(manager),
    planFeed,
  });
  const controller = manager.newController({
    name: BROADCASTJOB_CONTROLLER_NAME,
    reconciler,
    workers: options.workers,
    shardedBy: jobs,
  });
  watchOwnWrites(jobs, resourceVersionExpectations);
  controller.watch(jobs, requestForObject());
  watchJobPods(controller, pods, { expectations, batchMs: options.podUpdateBatchPeriodMs ?? 0 });
  watchNodes(nodes, {
    jobs: jobs.lister(),
    pods: pods.lister(),
    fits: reconciler.nodeFits,
    reconcilesHere: reconcilesHere(controller, shardGateOf(manager)),
    enqueue: (key) => {
      controller.queue.add(key);
    },
  });
  controller.addSource(nodes);
  freeJobCaches(reconciler, { jobs, gate: shardGateOf(manager) });
  return controller;
}
