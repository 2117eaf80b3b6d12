import { describe, expect, it } from 'vitest';

import type { Pod } from '@kruise-ts/api';
import { isConflict } from '@kruise-ts/controller-runtime';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { fakeApiError } from '@kruise-ts/controller-runtime/testing';
import { podResource, pvcResource } from '@kruise-ts/workload';

import {
  claim,
  owner,
  OWNER_KEY,
  pod,
  podControlFixture,
  probed,
  storedPods,
  writes,
} from '../test/fixtures/pod-control-fixture.ts';
import { deleteClaim, deletePod, deletePods } from './delete-pods.ts';

const HOLD = 'example.com/hold';
const PRE_DELETE = { preDelete: { finalizersHandler: [HOLD] } };

describe('deletePods', () => {
  it('deletes each pod with a uid precondition, an Event and a delete expectation', async () => {
    const fixture = podControlFixture({ pods: [pod('web-0'), pod('web-1')] });
    const victims = storedPods(fixture, 'web-0', 'web-1');
    expect(await deletePods(fixture.ctx, owner(), { pods: victims })).toBe(true);
    expect(fixture.fake.objects(podResource)).toEqual([]);
    expect(fixture.fake.writes().map((action) => [action.verb, action.name, action.body])).toEqual([
      ['delete', 'web-0', { uid: victims[0]?.metadata?.uid }],
      ['delete', 'web-1', { uid: victims[1]?.metadata?.uid }],
    ]);
    expect(fixture.recorder.events).toMatchObject([
      { type: 'Normal', reason: 'SuccessfulDelete', message: 'succeed to delete pod web-0' },
      { type: 'Normal', reason: 'SuccessfulDelete', message: 'succeed to delete pod web-1' },
    ]);
    expect(fixture.scaleExpectations.satisfied(OWNER_KEY).pending).toEqual({ create: [], delete: ['web-0', 'web-1'] });
  });

  it('runs afterDelete for each deleted pod (CloneSet deletes its PVCs there)', async () => {
    const fixture = podControlFixture({ pods: [pod('web-0')] });
    const after: string[] = [];
    await deletePods(fixture.ctx, owner(), {
      pods: storedPods(fixture, 'web-0'),
      afterDelete: (deleted) => {
        after.push(deleted.metadata?.name ?? '');
        return Promise.resolve();
      },
    });
    expect(after).toEqual(['web-0']);
  });

  it('moves a pod the preDelete hook holds to PreparingDelete instead, and awaits that write from the cache', async () => {
    const fixture = podControlFixture({ pods: [pod('web-0', { finalizers: [HOLD] })] });
    const after: string[] = [];
    const changed = await deletePods(fixture.ctx, owner(PRE_DELETE), {
      pods: storedPods(fixture, 'web-0'),
      afterDelete: (deleted) => {
        after.push(deleted.metadata?.name ?? '');
        return Promise.resolve();
      },
    });
    expect(changed).toBe(true);
    expect(writes(fixture.fake)).toEqual(['patch pods web-0']);
    const stored = fixture.stored('web-0');
    expect(stored.metadata?.labels?.['lifecycle.apps.kruise.io/state']).toBe('PreparingDelete');
    expect(after).toEqual([]);
    expect(fixture.recorder.events).toEqual([]);
    expect(fixture.scaleExpectations.satisfied(OWNER_KEY).satisfied).toBe(true);
    expect(
      fixture.resourceVersionExpectations.isSatisfied({ metadata: { ...stored.metadata, resourceVersion: '1' } }),
    ).toBe(false);
  });

  it('marks a held pod not ready when the hook asks', async () => {
    const fixture = podControlFixture({
      pods: [pod('web-0', { finalizers: [HOLD], gates: ['KruisePodReady'], trueConditions: ['KruisePodReady'] })],
    });
    await deletePods(fixture.ctx, owner({ preDelete: { finalizersHandler: [HOLD], markPodNotReady: true } }), {
      pods: storedPods(fixture, 'web-0'),
    });
    const stored = fixture.stored('web-0');
    expect(stored.metadata?.labels?.['lifecycle.apps.kruise.io/state']).toBe('PreparingDelete');
    expect(stored.status?.conditions?.find((condition) => condition.type === 'KruisePodReady')?.status).toBe('False');
  });

  it('changes nothing for a pod already in PreparingDelete that the hook still holds', async () => {
    const fixture = podControlFixture({
      pods: [pod('web-0', { finalizers: [HOLD], labels: { 'lifecycle.apps.kruise.io/state': 'PreparingDelete' } })],
    });
    expect(await deletePods(fixture.ctx, owner(PRE_DELETE), { pods: storedPods(fixture, 'web-0') })).toBe(false);
    expect(fixture.fake.writes()).toEqual([]);
  });

  it('deletes a pod the hook no longer holds', async () => {
    const fixture = podControlFixture({
      pods: [pod('web-0', { labels: { 'lifecycle.apps.kruise.io/state': 'PreparingDelete' } })],
    });
    expect(await deletePods(fixture.ctx, owner(PRE_DELETE), { pods: storedPods(fixture, 'web-0') })).toBe(true);
    expect(writes(fixture.fake)).toEqual(['delete pods web-0']);
  });

  it('deletes at most 64 pods at once', async () => {
    const names = Array.from({ length: 150 }, (_, index) => `web-${String(index)}`);
    const fixture = podControlFixture({ pods: names.map((name) => pod(name)) });
    const { client, probe } = probed(fixture.ctx.pods, 'delete');
    await deletePods({ ...fixture.ctx, pods: client }, owner(), { pods: storedPods(fixture, ...names) });
    expect(probe.max).toBe(64);
    expect(fixture.fake.objects(podResource)).toEqual([]);
  });
});

describe('deletePod', () => {
  it('is fine with a pod already gone, and lowers its expectation', async () => {
    const fixture = podControlFixture();
    const gone: DeepReadonly<Pod> = { metadata: { name: 'web-0', namespace: 'ns', uid: 'uid-old' } };
    await deletePod(fixture.ctx, owner(), gone);
    expect(fixture.recorder.events).toEqual([]);
    expect(fixture.scaleExpectations.satisfied(OWNER_KEY).satisfied).toBe(true);
  });

  it('never deletes a newer pod that reused the name: Conflict, a Warning, the expectation lowered', async () => {
    const fixture = podControlFixture({ pods: [pod('web-0')] });
    const stale: DeepReadonly<Pod> = { metadata: { name: 'web-0', namespace: 'ns', uid: 'uid-of-an-older-pod' } };
    const error = await deletePod(fixture.ctx, owner(), stale).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(isConflict(error)).toBe(true);
    expect(fixture.fake.objects(podResource)).toHaveLength(1);
    expect(fixture.recorder.events).toMatchObject([
      {
        type: 'Warning',
        reason: 'FailedDelete',
        message: expect.stringMatching(/^failed to delete pod web-0: /) as unknown,
      },
    ]);
    expect(fixture.scaleExpectations.satisfied(OWNER_KEY).satisfied).toBe(true);
  });

  it('records no Event for a deletion the reconcile’s abort cancelled', async () => {
    const fixture = podControlFixture({ pods: [pod('web-0')] });
    const [victim] = storedPods(fixture, 'web-0');
    fixture.abort.abort(new Error('shutting down'));
    await expect(deletePod(fixture.ctx, owner(), victim ?? {})).rejects.toThrow('shutting down');
    expect(fixture.recorder.events).toEqual([]);
    expect(fixture.scaleExpectations.satisfied(OWNER_KEY).satisfied).toBe(true);
  });

  it('passes a failure of the API server on after its Warning', async () => {
    const fixture = podControlFixture({ pods: [pod('web-0')] });
    fixture.fake.prependReactor({ verb: 'delete', resource: 'pods' }, () => {
      throw fakeApiError({ code: 500, message: 'etcdserver: leader changed' });
    });
    await expect(deletePod(fixture.ctx, owner(), fixture.stored('web-0'))).rejects.toThrow(
      'etcdserver: leader changed',
    );
    expect(fixture.recorder.events).toMatchObject([
      { type: 'Warning', reason: 'FailedDelete', message: 'failed to delete pod web-0: etcdserver: leader changed' },
    ]);
  });
});

describe('deleteClaim', () => {
  it('deletes the claim with a uid precondition and a delete expectation, without an Event', async () => {
    const fixture = podControlFixture({ claims: [claim('data-web-0')] });
    const [stored] = fixture.fake.objects(pvcResource);
    await deleteClaim(fixture.ctx, owner(), stored ?? {});
    expect(fixture.fake.writes().map((action) => [action.verb, action.resource, action.body])).toEqual([
      ['delete', 'persistentvolumeclaims', { uid: stored?.metadata?.uid }],
    ]);
    expect(fixture.fake.objects(pvcResource)).toEqual([]);
    expect(fixture.scaleExpectations.satisfied(OWNER_KEY).pending).toEqual({ create: [], delete: ['data-web-0'] });
    expect(fixture.recorder.events).toEqual([]);
  });

  it('is fine with a claim already gone', async () => {
    const fixture = podControlFixture();
    await deleteClaim(fixture.ctx, owner(), { metadata: { name: 'data-web-0', namespace: 'ns', uid: 'uid-old' } });
    expect(fixture.scaleExpectations.satisfied(OWNER_KEY).satisfied).toBe(true);
  });

  it('reports a failure with a Warning and lowers the expectation', async () => {
    const fixture = podControlFixture({ claims: [claim('data-web-0')] });
    fixture.fake.prependReactor({ verb: 'delete', resource: 'persistentvolumeclaims' }, () => {
      throw fakeApiError({ code: 403, reason: 'Forbidden', message: 'forbidden by policy' });
    });
    const [stored] = fixture.fake.objects(pvcResource);
    await expect(deleteClaim(fixture.ctx, owner(), stored ?? {})).rejects.toThrow('forbidden by policy');
    expect(fixture.recorder.events).toMatchObject([
      { type: 'Warning', reason: 'FailedDelete', message: 'failed to delete pvc data-web-0: forbidden by policy' },
    ]);
    expect(fixture.scaleExpectations.satisfied(OWNER_KEY).satisfied).toBe(true);
  });
});
