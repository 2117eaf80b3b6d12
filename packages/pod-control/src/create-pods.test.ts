import { describe, expect, it } from 'vitest';

import type { PersistentVolumeClaim, Pod } from '@kruise-ts/api';
import { fakeApiError, podQuotaExceeded } from '@kruise-ts/controller-runtime/testing';
import { podResource, pvcResource, SlowStartMemory } from '@kruise-ts/workload';

import {
  claim,
  NAMESPACE,
  owner,
  OWNER_KEY,
  pod,
  podControlFixture,
  probed,
  writes,
} from '../test/fixtures/pod-control-fixture.ts';
import { CreatePodsError, createPods } from './create-pods.ts';

const GATES = ['InPlaceUpdateReady', 'KruisePodReady'];

function pods(count: number, options: { gates?: string[] } = {}): Pod[] {
  return Array.from({ length: count }, (_, index) => pod(`web-${String(index)}`, options));
}

const noClaims = (): PersistentVolumeClaim[] => [];

async function failure(promise: Promise<unknown>): Promise<CreatePodsError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof CreatePodsError)) {
    throw new Error(`expected a CreatePodsError, got ${String(error)}`);
  }
  return error;
}

describe('createPods', () => {
  it('creates every pod with an Event each and returns them as the API server stored them', async () => {
    const fixture = podControlFixture();
    const created = await createPods(fixture.ctx, owner(), { pods: pods(3), claimsFor: noClaims });
    expect(created.map((p) => [p.metadata?.name, p.metadata?.uid === undefined])).toEqual([
      ['web-0', false],
      ['web-1', false],
      ['web-2', false],
    ]);
    expect(writes(fixture.fake)).toEqual(['create pods web-0', 'create pods web-1', 'create pods web-2']);
    expect(fixture.recorder.events).toEqual([
      { object: owner().ref, type: 'Normal', reason: 'SuccessfulCreate', message: 'succeed to create pod web-0' },
      { object: owner().ref, type: 'Normal', reason: 'SuccessfulCreate', message: 'succeed to create pod web-1' },
      { object: owner().ref, type: 'Normal', reason: 'SuccessfulCreate', message: 'succeed to create pod web-2' },
    ]);
  });

  it('leaves create expectations for the pods it created, to be observed by the informer', async () => {
    const fixture = podControlFixture();
    await createPods(fixture.ctx, owner(), { pods: pods(2), claimsFor: noClaims });
    expect(fixture.scaleExpectations.satisfied(OWNER_KEY).pending).toEqual({ create: ['web-0', 'web-1'], delete: [] });
  });

  it.each([
    { count: 1, initial: undefined, waves: [1] },
    { count: 10, initial: undefined, waves: [1, 2, 4, 3] },
    { count: 7, initial: 4, waves: [4, 3] },
    { count: 200, initial: 64, waves: [64, 64, 64, 8] },
    { count: 300, initial: undefined, waves: [1, 2, 4, 8, 16, 32, 64, 64, 64, 45] },
  ])(
    'creates $count pods in slow-start batches $waves (from $initial), never more than 64 at once',
    async ({ count, initial, waves }) => {
      const fixture = podControlFixture();
      const { client, probe } = probed(fixture.ctx.pods, 'create');
      const batchSizes = new SlowStartMemory();
      if (initial !== undefined) {
        batchSizes.record(OWNER_KEY, { errors: [], largestBatch: initial });
      }
      await createPods({ ...fixture.ctx, pods: client }, owner(), {
        pods: pods(count),
        claimsFor: noClaims,
        batchSizes,
      });
      expect(probe.waves).toEqual(waves);
      expect(probe.max).toBeLessThanOrEqual(64);
      expect(fixture.fake.objects(podResource)).toHaveLength(count);
    },
  );

  it('remembers the largest batch that went through for the next slow start, and 1 after a failure', async () => {
    const fixture = podControlFixture();
    const batchSizes = new SlowStartMemory();
    await createPods(fixture.ctx, owner(), { pods: pods(7), claimsFor: noClaims, batchSizes });
    expect(batchSizes.initialBatchSize(OWNER_KEY)).toBe(4);
    fixture.fake.prependReactor({ verb: 'create', resource: 'pods' }, (action) => {
      throw podQuotaExceeded(action.name);
    });
    await failure(createPods(fixture.ctx, owner(), { pods: [pod('web-7')], claimsFor: noClaims, batchSizes }));
    expect(batchSizes.initialBatchSize(OWNER_KEY)).toBe(1);
  });

  it('creates a pod’s claims before it, and reuses a claim that already exists', async () => {
    const fixture = podControlFixture({ claims: [claim('data-web-0')] });
    await createPods(fixture.ctx, owner(), {
      pods: [pod('web-0')],
      claimsFor: (p) => [claim(`data-${p.metadata?.name ?? ''}`), claim(`logs-${p.metadata?.name ?? ''}`)],
    });
    expect(writes(fixture.fake)).toEqual([
      'create persistentvolumeclaims data-web-0',
      'create persistentvolumeclaims logs-web-0',
      'create pods web-0',
    ]);
    expect(fixture.fake.objects(pvcResource).map((c) => c.metadata?.name)).toEqual(['data-web-0', 'logs-web-0']);
    // The claim that existed is not awaited from the informer; the new claim and the pod are.
    expect(fixture.scaleExpectations.satisfied(OWNER_KEY).pending).toEqual({
      create: ['logs-web-0', 'web-0'],
      delete: [],
    });
    expect(fixture.recorder.reasons()).toEqual(['SuccessfulCreate']);
  });

  it('does not create a pod whose claim could not be created, and says so', async () => {
    const fixture = podControlFixture();
    fixture.fake.prependReactor({ verb: 'create', resource: 'persistentvolumeclaims' }, () => {
      throw fakeApiError({
        code: 403,
        reason: 'Forbidden',
        message: 'persistentvolumeclaims "data-web-0" is forbidden: exceeded quota: storage',
      });
    });
    const error = await failure(
      createPods(fixture.ctx, owner(), { pods: [pod('web-0')], claimsFor: () => [claim('data-web-0')] }),
    );
    // The ordinal is cut out of the name: the same cause gives the same condition message for every pod.
    expect(error.message).toBe(
      'failed to create 1 of 1 pods: persistentvolumeclaims "data-web-" is forbidden: exceeded quota: storage',
    );
    expect(error.created).toEqual([]);
    expect(writes(fixture.fake)).toEqual(['create persistentvolumeclaims data-web-0']);
    expect(fixture.recorder.events).toMatchObject([
      {
        type: 'Warning',
        reason: 'FailedCreate',
        message: expect.stringMatching(/^failed to create pvc: .*exceeded quota: storage, pvc: \{/) as unknown,
      },
    ]);
    expect(fixture.scaleExpectations.satisfied(OWNER_KEY).satisfied).toBe(true);
  });

  it('stops at the failing batch, lowers the expectations of the pods never created and throws one stable message', async () => {
    const fixture = podControlFixture();
    fixture.fake.prependReactor({ verb: 'create', resource: 'pods', name: 'web-2' }, (action) => {
      throw podQuotaExceeded(action.name);
    });
    const error = await failure(createPods(fixture.ctx, owner(), { pods: pods(6), claimsFor: noClaims }));
    // Batches 1 (web-0), 2 (web-1, web-2: web-2 fails); the rest are never tried.
    expect(writes(fixture.fake)).toEqual(['create pods web-0', 'create pods web-1', 'create pods web-2']);
    expect(error.message).toBe('failed to create 4 of 6 pods: pods "web-" is forbidden: exceeded quota: pods');
    expect(error.created.map((p) => p.metadata?.name)).toEqual(['web-0', 'web-1']);
    expect(fixture.scaleExpectations.satisfied(OWNER_KEY).pending).toEqual({ create: ['web-0', 'web-1'], delete: [] });
    expect(fixture.recorder.reasons()).toEqual(['SuccessfulCreate', 'SuccessfulCreate', 'FailedCreate']);
    expect(fixture.recorder.events[2]?.message).toMatch(
      /^failed to create pod: pods "web-2" is forbidden: exceeded quota: pods, pod: \{"apiVersion":"v1"/,
    );
  });

  it('records no Event for a creation the reconcile’s abort cancelled', async () => {
    const fixture = podControlFixture();
    fixture.abort.abort(new Error('shutting down'));
    const error = await failure(createPods(fixture.ctx, owner(), { pods: pods(2), claimsFor: noClaims }));
    expect(error.message).toBe('failed to create 2 of 2 pods: shutting down');
    expect(fixture.recorder.events).toEqual([]);
    expect(fixture.fake.actions).toEqual([]);
    expect(fixture.scaleExpectations.satisfied(OWNER_KEY).satisfied).toBe(true);
  });

  it('gives a new pod its readiness-gate conditions right after its creation and returns it as written', async () => {
    const fixture = podControlFixture();
    const [created] = await createPods(fixture.ctx, owner(), {
      pods: [pod('web-0', { gates: GATES })],
      claimsFor: noClaims,
    });
    expect(writes(fixture.fake)).toEqual(['create pods web-0', 'patch/status pods web-0']);
    const conditions = created?.status?.conditions?.filter((condition) => GATES.includes(condition.type));
    expect(conditions?.map((condition) => [condition.type, condition.status])).toEqual([
      ['InPlaceUpdateReady', 'True'],
      ['KruisePodReady', 'True'],
    ]);
    expect(created?.metadata?.resourceVersion).toBe(fixture.stored('web-0').metadata?.resourceVersion);
    // The status write is awaited from the cache before the next plan.
    expect(
      fixture.resourceVersionExpectations.isSatisfied({ metadata: { ...created?.metadata, resourceVersion: '1' } }),
    ).toBe(false);
  });

  it('counts a pod whose readiness-gate write failed as created (the next reconcile writes them)', async () => {
    const fixture = podControlFixture();
    fixture.fake.prependReactor({ verb: 'patch', resource: 'pods', subresource: 'status' }, () => {
      throw fakeApiError({ code: 500, message: 'etcdserver: request timed out' });
    });
    const created = await createPods(fixture.ctx, owner(), {
      pods: [pod('web-0', { gates: GATES })],
      claimsFor: noClaims,
    });
    expect(created.map((p) => p.metadata?.name)).toEqual(['web-0']);
    expect(fixture.stored('web-0').status?.conditions?.map((condition) => condition.type)).toEqual(['Ready']);
  });

  it('writes no readiness-gate conditions a pod does not declare', async () => {
    const fixture = podControlFixture();
    await createPods(fixture.ctx, owner(), {
      pods: [pod('web-0', { gates: ['example.com/custom'] })],
      claimsFor: noClaims,
    });
    expect(writes(fixture.fake)).toEqual(['create pods web-0']);
  });

  it('fails on a name that is taken, naming no pod in the message', async () => {
    const fixture = podControlFixture({ pods: [pod('web-0')] });
    const error = await failure(createPods(fixture.ctx, owner(), { pods: [pod('web-0')], claimsFor: noClaims }));
    expect(error.message).toBe('failed to create 1 of 1 pods: pods "web-" already exists');
    expect(fixture.fake.objects(podResource).map((p) => p.metadata?.namespace)).toEqual([NAMESPACE]);
  });
});
