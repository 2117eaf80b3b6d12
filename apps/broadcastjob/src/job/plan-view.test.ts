import { describe, expect, it } from 'vitest';

import { BROADCASTJOB_CONTROLLER_UID_LABEL, broadcastJobSchema } from '@kruise-ts/api';
import type { BroadcastJob, Node, Pod } from '@kruise-ts/api';
import type { DeepReadonly, ResourceEventHandler } from '@kruise-ts/controller-runtime';
import { storeLister } from '@kruise-ts/controller-runtime/testing';

import { isJobComplete } from './job-decision.ts';
import { countJobPods } from './job-pods.ts';
import { JobPlans } from './job-plans.ts';
import { planNodes } from './node-plan.ts';
import type { FitResult, NodePlan } from './node-plan.ts';
import { nodeChangesHandler, PlanFeed, podChangesHandler } from './plan-feed.ts';

const NAMESPACE = 'ns';

const job = (generation: number): BroadcastJob =>
  broadcastJobSchema.parse({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'BroadcastJob',
    metadata: { name: 'job', namespace: NAMESPACE, uid: 'uid-1', generation },
    spec: {
      template: { spec: { containers: [{ name: 'c', image: 'busybox' }], restartPolicy: 'OnFailure' } },
      failurePolicy: { restartLimit: 1 },
      completionPolicy: { type: 'Always' },
    },
  });

/** Fits unless the node is labelled fit=no or fit=taint (two reasons). */
const fit = (node: DeepReadonly<Node>): FitResult => {
  const label = node.metadata?.labels?.['fit'];
  if (label === 'no') {
    return { fits: false, reasons: ['node(s) did not match Pod node selector'] };
  }
  if (label === 'taint') {
    return { fits: false, reasons: ['node(s) had untolerated taint', 'node(s) were unschedulable'] };
  }
  return { fits: true, reasons: [] };
};
const nodeOf = (pod: DeepReadonly<Pod>): string | undefined => pod.spec?.nodeName;

/** A seeded generator (mulberry32), so that a failure replays. */
function random(seed: number): (below: number) => number {
  let state = seed;
  return (below) => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * below);
  };
}

const PHASES = ['Pending', 'Running', 'Succeeded', 'Failed'] as const;
const FITS = ['yes', 'no', 'taint'] as const;

function pick<T>(next: (below: number) => number, items: readonly T[]): T {
  return items[next(items.length)] as T;
}

function randomPod(next: (below: number) => number, name: string): Pod {
  const owner = next(8) === 0 ? 'uid-other' : 'uid-1';
  return {
    metadata: {
      name,
      namespace: NAMESPACE,
      creationTimestamp: `2026-11-25T00:00:0${String(next(4))}Z`,
      labels: { [BROADCASTJOB_CONTROLLER_UID_LABEL]: owner },
      ownerReferences: [
        { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'BroadcastJob', name: 'job', uid: owner, controller: true },
      ],
      ...(next(6) === 0 ? { deletionTimestamp: '2026-11-25T00:01:00Z' } : {}),
    },
    spec: { containers: [{ name: 'c' }], ...(next(10) === 0 ? {} : { nodeName: `node-${String(next(12))}` }) },
    status: {
      phase: pick(next, PHASES),
      containerStatuses: [{ name: 'c', ready: false, restartCount: next(3), image: 'busybox', imageID: '' }],
    },
  };
}

/** The cache and the controller's handlers, changed as an informer does: the store first, then the handlers. */
function cluster() {
  const pods = storeLister<Pod>();
  const nodes = storeLister<Node>();
  const feed = new PlanFeed();
  const podHandler: ResourceEventHandler<Pod> = podChangesHandler(feed);
  const nodeHandler: ResourceEventHandler<Node> = nodeChangesHandler(feed);
  let version = 0;
  const upsertPod = (pod: Pod): void => {
    const object = Object.freeze({ ...pod, metadata: { ...pod.metadata, resourceVersion: String(++version) } });
    const old = pods.store.upsert(object);
    if (old === undefined) {
      podHandler.onAdd?.(object, false);
    } else {
      podHandler.onUpdate?.(old, object);
    }
  };
  const upsertNode = (name: string, fits: string): void => {
    const object = Object.freeze({ metadata: { name, resourceVersion: String(++version), labels: { fit: fits } } });
    const old = nodes.store.upsert(object);
    if (old === undefined) {
      nodeHandler.onAdd?.(object, false);
    } else {
      nodeHandler.onUpdate?.(old, object);
    }
  };
  const remove = (key: string, kind: 'pod' | 'node'): void => {
    if (kind === 'pod') {
      const old = pods.store.delete(key);
      if (old !== undefined) {
        podHandler.onDelete?.(old);
      }
      return;
    }
    const old = nodes.store.delete(key);
    if (old !== undefined) {
      nodeHandler.onDelete?.(old);
    }
  };
  return { pods, nodes, feed, upsertPod, upsertNode, remove };
}

type Cluster = ReturnType<typeof cluster>;

/** One random change of a pod or a node. */
function change(next: (below: number) => number, state: Cluster, step: number): void {
  const pods = [...state.pods.store.values()];
  const nodes = [...state.nodes.store.values()];
  const roll = next(10);
  if (roll < 3 || pods.length === 0) {
    state.upsertPod(randomPod(next, `pod-${String(step)}`));
  } else if (roll < 6) {
    const existing = pick(next, pods);
    state.upsertPod({
      ...randomPod(next, existing.metadata?.name ?? ''),
      metadata: { ...randomPod(next, '').metadata, name: existing.metadata?.name ?? '' },
    });
  } else if (roll < 7) {
    state.remove(`${NAMESPACE}/${pick(next, pods).metadata?.name ?? ''}`, 'pod');
  } else if (roll < 9 || nodes.length === 0) {
    state.upsertNode(`node-${String(next(12))}`, pick(next, FITS));
  } else {
    state.remove(pick(next, nodes).metadata?.name ?? '', 'node');
  }
}

/** A plan in a form that ignores the order of `desired` and `podsToDelete` (nothing reads it). */
function comparable(plan: NodePlan) {
  return {
    desired: [...plan.desired].map(([node, pod]) => [node, pod?.metadata?.name]).sort(),
    restNodes: plan.restNodes,
    podsToDelete: plan.podsToDelete.map((entry) => `${entry.pod.metadata?.name ?? ''}:${entry.reason}`).sort(),
    duplicateNodes: plan.duplicateNodes,
    unfitReasons: [...plan.unfitReasons].sort(),
  };
}

function fullPlan(state: Cluster, current: BroadcastJob) {
  const pods = state.pods.lister
    .list({ namespace: NAMESPACE, labelSelector: { matchLabels: { [BROADCASTJOB_CONTROLLER_UID_LABEL]: 'uid-1' } } })
    .filter((pod) => pod.metadata?.ownerReferences?.[0]?.uid === 'uid-1');
  const nodes = state.nodes.lister.list();
  const plan = planNodes({ pods, nodes, fit, nodeOf });
  return {
    plan: comparable(plan),
    counts: countJobPods(current, pods),
    complete: isJobComplete(current, plan.desired),
    nodeCount: nodes.length,
    pods: pods.map((pod) => pod.metadata?.name).sort(),
  };
}

describe('JobPlans', () => {
  it.each([1, 2, 3, 4, 5])(
    'keeps the plan and counts of a full planNodes over random pod and node changes (seed %i)',
    (seed) => {
      const next = random(seed);
      const state = cluster();
      for (let index = 0; index < 8; index++) {
        state.upsertNode(`node-${String(index)}`, pick(next, FITS));
      }
      const plans = new JobPlans({ pods: state.pods.lister, nodes: state.nodes.lister, nodeOf, feed: state.feed });
      let generation = 1;
      let current = job(generation);
      for (let step = 0; step < 200; step++) {
        const changes = next(4) + 1;
        for (let index = 0; index < changes; index++) {
          change(next, state, step * 10 + index);
        }
        if (next(50) === 0) {
          generation++;
          current = job(generation);
        }
        const view = plans.viewOf(current, fit);
        const incremental = {
          plan: comparable(view.plan()),
          counts: view.counts(),
          complete: view.complete(current),
          nodeCount: view.nodeCount,
          pods: view
            .pods()
            .map((pod) => pod.metadata?.name)
            .sort(),
        };
        expect(incremental, `seed ${String(seed)} step ${String(step)}`).toEqual(fullPlan(state, current));
      }
      // Built once per generation, then only brought up to date.
      expect(plans.builds).toBe(generation);
    },
  );

  it('builds the view from the cache again when the job is forgotten, and every round without a feed', () => {
    const state = cluster();
    state.upsertNode('node-0', 'yes');
    const fed = new JobPlans({ pods: state.pods.lister, nodes: state.nodes.lister, nodeOf, feed: state.feed });
    fed.viewOf(job(1), fit);
    fed.viewOf(job(1), fit);
    fed.forget(`${NAMESPACE}/job`);
    fed.viewOf(job(1), fit);
    expect(fed.builds).toBe(2);
    const unfed = new JobPlans({ pods: state.pods.lister, nodes: state.nodes.lister, nodeOf });
    unfed.viewOf(job(1), fit);
    unfed.viewOf(job(1), fit);
    expect(unfed.builds).toBe(2);
  });
});
