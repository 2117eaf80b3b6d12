/**
 * Reconcile CPU per pod event of the BroadcastJob controller, without an API server: one job over N
 * nodes with its N pods in an informer's store, then K rounds of "one pod's status changed, reconcile"
 * (the work each pod event costs the process), measured with `process.cpuUsage` after warm-up rounds.
 * Every change of the stores goes to the controller's own pod and node handlers of the plan feed, as
 * the informer calls them (store first, then handlers), so a round brings the job's plan view up to
 * date as in production; `--full` leaves the feed out and plans every node from the cache each round.
 *
 *   node --conditions=@kruise-ts/source apps/broadcastjob/test/bench/reconcile-cpu.ts [--nodes 100,1000] [--rounds 1000] [--full]
 *
 * Prints one JSON line per node count. docs/benchmarks.md ("BroadcastJob", issue 30) has the numbers.
 */
import { parseArgs } from 'node:util';

import { broadcastJobSchema } from '@kruise-ts/api';
import type { BroadcastJob, Node, Pod } from '@kruise-ts/api';
import { createLogger } from '@kruise-ts/controller-runtime';
import type { ReconcileContext } from '@kruise-ts/controller-runtime';
import { FakeClient, FakeClock, FakeEventRecorder, storeLister } from '@kruise-ts/controller-runtime/testing';
import { scriptedValidator } from '@kruise-ts/template-validation/testing';
import { podResource, ResourceVersionExpectations, ScaleExpectations } from '@kruise-ts/workload';
import { z } from 'zod';

import { broadcastJobResource } from '../../src/broadcastjob-resource.ts';
import { fitnessOf } from '../../src/nodes/node-fitness.ts';
import { nodeChangesHandler, PlanFeed, podChangesHandler } from '../../src/job/plan-feed.ts';
import { assignedNode, pinnedToNode } from '../../src/nodes/pod-node.ts';
import { BroadcastJobReconciler } from '../../src/reconciler.ts';

const NAMESPACE = 'bench';
const WARM_UP_ROUNDS = 20;

const flags = z
  .object({
    nodes: z
      .string()
      .regex(/^\d+(,\d+)*$/, 'a comma-separated list of node counts')
      .default('100,1000'),
    rounds: z.coerce.number().int().positive().default(1000),
    full: z.boolean().default(false),
  })
  .parse(
    parseArgs({ options: { nodes: { type: 'string' }, rounds: { type: 'string' }, full: { type: 'boolean' } } }).values,
  );

function node(index: number): Node {
  return {
    metadata: {
      name: `node-${String(index).padStart(5, '0')}`,
      resourceVersion: '1',
      labels: { 'kubernetes.io/os': 'linux' },
    },
    spec: {},
    status: { allocatable: { cpu: '8', memory: '32Gi', pods: '110', 'ephemeral-storage': '100Gi' } },
  };
}

function job(): BroadcastJob {
  return broadcastJobSchema.parse({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'BroadcastJob',
    metadata: { name: 'job', namespace: NAMESPACE, uid: 'job-uid', generation: 1, resourceVersion: '1' },
    spec: {
      template: {
        metadata: { labels: { app: 'job' } },
        spec: {
          containers: [
            { name: 'work', image: 'busybox:1.36', resources: { requests: { cpu: '100m', memory: '64Mi' } } },
          ],
          restartPolicy: 'Never',
          nodeSelector: { 'kubernetes.io/os': 'linux' },
        },
      },
    },
  });
}

/** The reconciler over an informer's stores; the API is a FakeClient whose writes the stores follow. */
function harness(nodeCount: number): {
  readonly reconcile: () => Promise<void>;
  readonly touchPod: (round: number) => void;
  readonly podCount: () => number;
} {
  const fake = new FakeClient();
  const clock = new FakeClock();
  const jobs = storeLister<BroadcastJob>();
  const pods = storeLister<Pod>();
  const nodes = storeLister<Node>();
  const planFeed = flags.full ? undefined : new PlanFeed();
  const podEvents = planFeed === undefined ? {} : podChangesHandler(planFeed);
  const nodeEvents = planFeed === undefined ? {} : nodeChangesHandler(planFeed);
  /** The informer's order: the store, then the handlers. */
  const upsertPod = (pod: Pod): void => {
    const object = Object.freeze(pod);
    const old = pods.store.upsert(object);
    if (old === undefined) {
      podEvents.onAdd?.(object, false);
    } else {
      podEvents.onUpdate?.(old, object);
    }
  };
  fake.seed(broadcastJobResource, [job()]);
  for (let index = 0; index < nodeCount; index++) {
    const object = Object.freeze(node(index));
    nodes.store.upsert(object);
    nodeEvents.onAdd?.(object, true);
  }
  const expectations = new ScaleExpectations({ clock });
  const reconciler = new BroadcastJobReconciler({
    api: fake,
    recorder: new FakeEventRecorder(),
    clock,
    jobs: jobs.lister,
    pods: pods.lister,
    nodes: nodes.lister,
    scaleExpectations: expectations,
    resourceVersionExpectations: new ResourceVersionExpectations({ clock }),
    fitnessOf,
    nodeOf: assignedNode,
    binding: { byScheduler: true, pin: pinnedToNode },
    templateValidator: scriptedValidator(),
    planFeed,
  });
  const context: ReconcileContext = {
    signal: new AbortController().signal,
    logger: createLogger({ level: 'silent' }),
    reconcileId: 'bench',
  };
  const sync = (): void => {
    for (const object of fake.objects(broadcastJobResource)) {
      jobs.store.upsert(Object.freeze(object));
    }
  };
  sync();
  let podKeys: string[] | undefined;
  return {
    podCount: () => pods.store.size,
    reconcile: async () => {
      await reconciler.reconcile(context, { namespace: NAMESPACE, name: 'job' });
      // The informer's view of our own writes: the job's status, and (first round) the pods created.
      sync();
      if (pods.store.size === 0) {
        for (const pod of fake.objects(podResource)) {
          upsertPod(pod);
        }
        expectations.delete(`${NAMESPACE}/job`);
      }
    },
    touchPod: (round) => {
      // The pod keys once, not a copy of the store per round: the harness's own work is not measured.
      podKeys ??= [...pods.store.keys()];
      const pod = pods.store.get(podKeys[round % podKeys.length] ?? '');
      if (pod !== undefined) {
        upsertPod({
          ...pod,
          metadata: { ...pod.metadata, resourceVersion: String(round + 2) },
          status: { phase: round % 2 === 0 ? 'Running' : 'Pending' },
        });
      }
    },
  };
}

for (const nodeCount of flags.nodes.split(',').map(Number)) {
  const { reconcile, touchPod, podCount } = harness(nodeCount);
  await reconcile();
  if (podCount() !== nodeCount) {
    throw new Error(`the first reconcile made ${String(podCount())} pods for ${String(nodeCount)} nodes`);
  }
  for (let round = 0; round < WARM_UP_ROUNDS; round++) {
    touchPod(round);
    await reconcile();
  }
  const before = process.cpuUsage();
  for (let round = 0; round < flags.rounds; round++) {
    touchPod(round);
    await reconcile();
  }
  const used = process.cpuUsage(before);
  process.stdout.write(
    `${JSON.stringify({ nodes: nodeCount, rounds: flags.rounds, plan: flags.full ? 'full' : 'incremental', reconcileCpuMsPerPodEvent: Number(((used.user + used.system) / 1000 / flags.rounds).toFixed(3)) })}\n`,
  );
}
