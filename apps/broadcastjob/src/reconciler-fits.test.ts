import { describe, expect, it } from 'vitest';

import type { BroadcastJob, Node } from '@kruise-ts/api';
import { TerminalError } from '@kruise-ts/controller-runtime';
import type { DeepReadonly, ResourceEventHandler } from '@kruise-ts/controller-runtime';
import { BucketGate, bucketOf } from '@kruise-ts/sharding';
import { nodeResource, podResource } from '@kruise-ts/workload';

import { broadcastJobResource } from './broadcastjob-resource.ts';
import { broadcastJob, NAMESPACE, reconcileFixture } from '../test/fixtures/reconcile-fixture.ts';
import type { ReconcileFixture } from '../test/fixtures/reconcile-fixture.ts';
import type { FitnessOf } from './job/node-fit-cache.ts';
import { PlanFeed } from './job/plan-feed.ts';
import { freeJobCaches } from './controller.ts';
import { reconcilesHere, watchNodes } from './node-events.ts';

const KEY = `${NAMESPACE}/job`;

/** Counts template pods made (one per template) and fit checks (one per node and change); a node labelled fit=no does not fit. */
function countingFitness(): { readonly fitnessOf: FitnessOf; readonly templates: number; readonly checks: number } {
  const counts = { templates: 0, checks: 0 };
  return {
    fitnessOf: () => {
      counts.templates++;
      return (node) => {
        counts.checks++;
        return node.metadata?.labels?.['fit'] === 'no'
          ? { fits: false, reasons: ['untolerated'] }
          : { fits: true, reasons: [] };
      };
    },
    get templates() {
      return counts.templates;
    },
    get checks() {
      return counts.checks;
    },
  };
}

/** One round, then the cache catching up with its writes (the informer would check the expectations off). */
async function settledRound(fixture: ReconcileFixture): Promise<void> {
  await fixture.reconcile();
  fixture.scaleExpectations.delete(KEY);
}

const nodes = (count: number): string[] =>
  Array.from({ length: count }, (_unused, index) => `node-${String(index + 1)}`);

/** Stores the node with a change (labels), as the API server would: a new resourceVersion. */
async function relabel(fixture: ReconcileFixture, name: string, labels: Record<string, string>): Promise<void> {
  const node = fixture.fake.objects<Node>(nodeResource).find((candidate) => candidate.metadata?.name === name);
  await fixture.fake.update(nodeResource, { ...node, metadata: { ...node?.metadata, labels } });
}

describe('BroadcastJobReconciler node fits (over the in-memory API)', () => {
  it('checks each node once per template: later rounds (pod events) look the fits up', async () => {
    const fitness = countingFitness();
    const fixture = reconcileFixture([broadcastJob({ uid: 'uid-1' })], {
      nodes: nodes(50),
      fitnessOf: fitness.fitnessOf,
    });
    await settledRound(fixture);
    expect([fitness.templates, fitness.checks]).toEqual([1, 50]);
    for (let round = 0; round < 5; round++) {
      await settledRound(fixture);
    }
    expect([fitness.templates, fitness.checks]).toEqual([1, 50]);
    expect(fixture.reconciler.nodeFits.size(KEY)).toBe(50);
  });

  it('checks again only a node that changed, and every node for a new template (generation)', async () => {
    const fitness = countingFitness();
    const fixture = reconcileFixture([broadcastJob({ uid: 'uid-1' })], {
      nodes: nodes(3),
      fitnessOf: fitness.fitnessOf,
    });
    await settledRound(fixture);
    await relabel(fixture, 'node-2', { fit: 'no' });
    await settledRound(fixture);
    expect(fitness.checks).toBe(4);
    // The pod on node-2 no longer fits: it is deleted.
    expect(
      fixture
        .pods()
        .map(
          (pod) =>
            pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms[0]
              ?.matchFields?.[0]?.values?.[0],
        )
        .sort(),
    ).toEqual(['node-1', 'node-3']);
    // A template change: the API server moves the generation.
    const stored = fixture.stored();
    const template = {
      ...stored.spec.template,
      metadata: { ...stored.spec.template.metadata, labels: { app: 'job', version: '2' } },
    };
    await fixture.fake.update(broadcastJobResource, { ...stored, spec: { ...stored.spec, template } });
    await settledRound(fixture);
    expect([fitness.templates, fitness.checks]).toEqual([2, 7]);
  });

  it('forgets the fits of nodes that left, and of a job that was deleted', async () => {
    const fitness = countingFitness();
    const fixture = reconcileFixture([broadcastJob({ uid: 'uid-1' })], {
      nodes: nodes(3),
      fitnessOf: fitness.fitnessOf,
    });
    await settledRound(fixture);
    await fixture.fake.delete(nodeResource, { name: 'node-3' });
    await settledRound(fixture);
    expect(fixture.reconciler.nodeFits.size(KEY)).toBe(2);
    await fixture.fake.delete(broadcastJobResource, { namespace: NAMESPACE, name: 'job' });
    await settledRound(fixture);
    expect(fixture.reconciler.nodeFits.size(KEY)).toBe(0);
  });
});

describe('BroadcastJobReconciler: a job it cannot read', () => {
  it('is reported as CloneSet reports one: a Warning Event, the FailedCreatePod condition, a TerminalError, no pod', async () => {
    const job = broadcastJob({ uid: 'uid-1' });
    const unreadable = {
      ...job,
      spec: { ...job.spec, completionPolicy: { type: 'Sometimes' } },
    } as unknown as BroadcastJob;
    const fixture = reconcileFixture([unreadable]);
    const error = await fixture.reconcileError();
    expect(error).toBeInstanceOf(TerminalError);
    expect(fixture.pods()).toEqual([]);
    const [event] = fixture.recorder.events;
    expect(event).toMatchObject({ type: 'Warning', reason: 'FailedCreate' });
    expect(event?.message).toContain('spec.completionPolicy.type');
    const condition = fixture.stored().status?.conditions?.find((candidate) => candidate.type === 'FailedCreatePod');
    expect(condition).toMatchObject({ status: 'True', reason: 'InvalidTemplate', message: event?.message });
    expect(fixture.stored().status).toMatchObject({ active: 0, desired: 0 });
    // Reported once: the next round sends no second Event and writes nothing.
    fixture.fake.clearActions();
    await fixture.reconcileError();
    expect(fixture.recorder.events).toHaveLength(1);
    expect(fixture.fake.writes()).toEqual([]);
  });
});

/** The names of two jobs in different buckets. */
function inTwoBuckets(): [string, string] {
  const names = Array.from({ length: 40 }, (_unused, index) => `job-${String(index)}`);
  const [first = '', second = ''] = [
    names[0],
    names.find((name) => bucketOf(NAMESPACE, name) !== bucketOf(NAMESPACE, names[0] ?? '')),
  ];
  return [first, second];
}

describe('BroadcastJob caches freed (issue 38)', () => {
  it('keeps no fits or plan views for jobs that moved to another replica or were deleted, whatever the replica reconciled', async () => {
    const [first, second] = inTwoBuckets();
    const fixture = reconcileFixture(
      [broadcastJob({ name: first, uid: 'uid-1' }), broadcastJob({ name: second, uid: 'uid-2' })],
      { nodes: nodes(10), planFeed: new PlanFeed() },
    );
    const gate = new BucketGate();
    const handlers: ResourceEventHandler<BroadcastJob>[] = [];
    freeJobCaches(fixture.reconciler, { jobs: { addEventHandler: (handler) => void handlers.push(handler) }, gate });
    for (const name of [first, second]) {
      gate.set(bucketOf(NAMESPACE, name), 'active');
      await fixture.reconcile(name);
    }
    const kept = (): string[] =>
      [...new Set([...fixture.reconciler.nodeFits.jobKeys(), ...fixture.reconciler.jobPlans.jobKeys()])].sort();
    expect(kept()).toEqual([`${NAMESPACE}/${first}`, `${NAMESPACE}/${second}`].sort());
    // The first job's bucket goes to another replica: nothing of it stays here.
    gate.delete(bucketOf(NAMESPACE, first));
    expect(kept()).toEqual([`${NAMESPACE}/${second}`]);
    // The second job is deleted (its delete event reaches every replica).
    const deleted = fixture.stored(second) as DeepReadonly<BroadcastJob>;
    for (const handler of handlers) {
      handler.onDelete?.(deleted);
    }
    expect(kept()).toEqual([]);
    expect(fixture.reconciler.nodeFits.size(`${NAMESPACE}/${second}`)).toBe(0);
  });

  it("keeps no template fits for jobs a replica never reconciles: node events on a standby, or on a sharded replica for other buckets' jobs, compute and keep nothing", () => {
    const [first, second] = inTwoBuckets();
    const keys = [`${NAMESPACE}/${first}`, `${NAMESPACE}/${second}`].sort();
    const fixture = reconcileFixture(
      [broadcastJob({ name: first, uid: 'uid-1' }), broadcastJob({ name: second, uid: 'uid-2' })],
      { nodes: nodes(10), planFeed: new PlanFeed() },
    );
    const controller = { running: false };
    const replica = (gate: BucketGate | undefined): { readonly queued: string[]; readonly nodeEvents: () => void } => {
      const handlers: ResourceEventHandler<Node>[] = [];
      const queued: string[] = [];
      watchNodes(
        { addEventHandler: (handler) => void handlers.push(handler) },
        {
          jobs: fixture.fake.lister(broadcastJobResource),
          pods: fixture.fake.lister(podResource),
          fits: fixture.reconciler.nodeFits,
          reconcilesHere: reconcilesHere(controller, gate),
          enqueue: (key) => void queued.push(key),
        },
      );
      const nodeEvents = (): void => {
        for (const node of fixture.fake.objects<Node>(nodeResource)) {
          for (const handler of handlers) {
            handler.onAdd?.(node, false);
          }
        }
      };
      return { queued, nodeEvents };
    };
    // A standby (leader election, not elected): its controller's workers do not run.
    const standby = replica(undefined);
    standby.nodeEvents();
    expect([fixture.reconciler.nodeFits.jobKeys(), standby.queued]).toEqual([[], []]);
    // Elected, it looks at every job again.
    controller.running = true;
    standby.nodeEvents();
    expect(fixture.reconciler.nodeFits.jobKeys().sort()).toEqual(keys);
    expect([...new Set(standby.queued)].sort()).toEqual(keys);
    fixture.reconciler.forgetJobs(() => true);
    // A sharded replica holding the second job's bucket only; then that bucket goes elsewhere too.
    const gate = new BucketGate();
    gate.set(bucketOf(NAMESPACE, second), 'active');
    freeJobCaches(fixture.reconciler, { jobs: { addEventHandler: () => undefined }, gate });
    const sharded = replica(gate);
    sharded.nodeEvents();
    expect([fixture.reconciler.nodeFits.jobKeys(), [...new Set(sharded.queued)]]).toEqual([
      [`${NAMESPACE}/${second}`],
      [`${NAMESPACE}/${second}`],
    ]);
    gate.delete(bucketOf(NAMESPACE, second));
    sharded.nodeEvents();
    expect(fixture.reconciler.nodeFits.jobKeys()).toEqual([]);
  });
});
