import { describe, expect, it } from 'vitest';

import type { StatefulSetInput } from '@kruise-ts/api';
import { CreatePodsError } from '@kruise-ts/pod-control';
import { fakeApiError, podQuotaExceeded } from '@kruise-ts/controller-runtime/testing';
import { podResource } from '@kruise-ts/workload';

import {
  editSpec,
  NAMESPACE,
  podNames,
  revisionOf,
  runPods,
  settle,
  statefulSet,
  storedPod,
  syncFixture,
  webSpec,
  writes,
} from '../../test/fixtures/sync-fixture.ts';
import type { SyncFixture } from '../../test/fixtures/sync-fixture.ts';
import { scale } from './scale.ts';

const KEY = `${NAMESPACE}/web`;
const HOLD = 'example.com/hold';

async function scaleOnce(fixture: SyncFixture): Promise<Awaited<ReturnType<typeof scale>>> {
  const state = await fixture.state();
  return scale(fixture.context(), state);
}

function creations(fixture: SyncFixture): string[] {
  return fixture.fake
    .writes()
    .filter((action) => action.verb === 'create' && action.resource === 'pods')
    .map((action) => action.name);
}

function deletions(fixture: SyncFixture): string[] {
  return fixture.fake
    .writes()
    .filter((action) => action.verb === 'delete' && action.resource === 'pods')
    .map((action) => action.name);
}

/** A set settled at `initial`, then edited to `edited`; the actions so far are forgotten. */
async function settledThenEdited(
  initial: StatefulSetInput['spec'],
  edited: StatefulSetInput['spec'],
): Promise<SyncFixture> {
  const fixture = syncFixture([statefulSet({ spec: initial })]);
  await settle(fixture);
  await editSpec(fixture, edited);
  return fixture;
}

describe('scale: creating pods (over the in-memory API)', () => {
  it('OrderedReady creates the lowest missing ordinal only, with its readiness-gate condition, and stops', async () => {
    const fixture = syncFixture([statefulSet({ spec: webSpec(3) })]);
    expect(await scaleOnce(fixture)).toEqual({ changed: true, stop: true });
    expect(writes(fixture.fake)).toEqual(['create pods web-0', 'patch/status pods web-0']);
    expect(fixture.recorder.reasons()).toEqual(['SuccessfulCreate']);
    const pod = storedPod(fixture.fake, 'web-0');
    expect(pod.metadata?.labels).toMatchObject({
      app: 'web',
      'statefulset.kubernetes.io/pod-name': 'web-0',
      'apps.kubernetes.io/pod-index': '0',
      'lifecycle.apps.kruise.io/state': 'Normal',
    });
    expect(pod.spec).toMatchObject({
      hostname: 'web-0',
      subdomain: 'web',
      readinessGates: [{ conditionType: 'KruisePodReady' }],
    });
    expect(pod.metadata?.ownerReferences).toMatchObject([
      { kind: 'StatefulSet', name: 'web', uid: 'sts-web', controller: true },
    ]);
    expect(fixture.scaleExpectations.satisfied(KEY).pending.create).toEqual(['web-0']);
  });

  it('OrderedReady waits for the last pod to be ready before creating the next', async () => {
    const fixture = syncFixture([statefulSet({ spec: webSpec(3) })]);
    await fixture.reconcile();
    fixture.fake.clearActions();
    expect(await scaleOnce(fixture)).toEqual({ changed: false, stop: true });
    expect(fixture.fake.writes()).toEqual([]);

    await runPods(fixture);
    await scaleOnce(fixture);
    expect(creations(fixture)).toEqual(['web-1']);
  });

  it('OrderedReady waits out minReadySeconds of the last pod and asks to come back when it is over', async () => {
    const rolling = { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { minReadySeconds: 10 } } } as const;
    const fixture = syncFixture([statefulSet({ spec: webSpec(2, rolling) })]);
    await fixture.reconcile();
    await runPods(fixture);
    const readySince = new Date(fixture.clock.now() - 4000).toISOString();
    await fixture.fake.patchStatus(
      podResource,
      { namespace: NAMESPACE, name: 'web-0' },
      {
        type: 'strategic',
        body: { status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: readySince }] } },
      },
    );
    fixture.fake.clearActions();
    const ctx = fixture.context();
    expect(await scale(ctx, await fixture.state())).toEqual({ changed: false, stop: true });
    // Available once Ready for more than minReadySeconds.
    expect(ctx.requeue.toResult()).toEqual({ requeueAfterMs: 6001 });

    fixture.clock.advance(6001);
    await scaleOnce(fixture);
    expect(creations(fixture)).toEqual(['web-1']);
  });

  it('Parallel creates every missing ordinal at once and goes on', async () => {
    const fixture = syncFixture([statefulSet({ spec: webSpec(3, { podManagementPolicy: 'Parallel' }) })]);
    expect(await scaleOnce(fixture)).toEqual({ changed: true, stop: false });
    expect(creations(fixture).sort()).toEqual(['web-0', 'web-1', 'web-2']);
  });

  it.each([
    { maxUnavailable: 2, created: ['web-0', 'web-1'] },
    { maxUnavailable: '50%', created: ['web-0', 'web-1'] },
    { maxUnavailable: '10%', created: ['web-0'] },
  ])(
    'Parallel with scaleStrategy.maxUnavailable $maxUnavailable creates $created of 4',
    async ({ maxUnavailable, created }) => {
      const fixture = syncFixture([
        statefulSet({ spec: webSpec(4, { podManagementPolicy: 'Parallel', scaleStrategy: { maxUnavailable } }) }),
      ]);
      await scaleOnce(fixture);
      expect(creations(fixture).sort()).toEqual(created);
    },
  );

  it('Parallel with a budget creates more only as pods become available', async () => {
    const fixture = syncFixture([
      statefulSet({ spec: webSpec(4, { podManagementPolicy: 'Parallel', scaleStrategy: { maxUnavailable: 2 } }) }),
    ]);
    await fixture.reconcile();
    await runPods(fixture, ['web-0']);
    await scaleOnce(fixture);
    expect(creations(fixture)).toEqual(['web-2']);
  });

  it('skips reserved ordinals: replicas 3 with reserveOrdinals [1] run 0, 2 and 3', async () => {
    const fixture = syncFixture([
      statefulSet({ spec: webSpec(3, { podManagementPolicy: 'Parallel', reserveOrdinals: [1] }) }),
    ]);
    await scaleOnce(fixture);
    expect(podNames(fixture)).toEqual(['web-0', 'web-2', 'web-3']);
  });

  it('reserves a range of ordinals', async () => {
    const fixture = syncFixture([
      statefulSet({ spec: webSpec(3, { podManagementPolicy: 'Parallel', reserveOrdinals: ['1-2'] }) }),
    ]);
    await scaleOnce(fixture);
    expect(podNames(fixture)).toEqual(['web-0', 'web-3', 'web-4']);
  });

  it('starts at ordinals.start with the StatefulSetStartOrdinal gate, and at 0 without it', async () => {
    const spec = webSpec(2, { podManagementPolicy: 'Parallel', ordinals: { start: 5 } });
    const gated = syncFixture([statefulSet({ spec })], { featureGates: 'StatefulSetStartOrdinal=true' });
    await scaleOnce(gated);
    expect(podNames(gated)).toEqual(['web-5', 'web-6']);
    expect(storedPod(gated.fake, 'web-5').metadata?.labels?.['apps.kubernetes.io/pod-index']).toBe('5');

    const ungated = syncFixture([statefulSet({ spec })]);
    await scaleOnce(ungated);
    expect(podNames(ungated)).toEqual(['web-0', 'web-1']);
  });

  it('skips reserved ordinals from ordinals.start on', async () => {
    const fixture = syncFixture(
      [
        statefulSet({
          spec: webSpec(3, { podManagementPolicy: 'Parallel', ordinals: { start: 5 }, reserveOrdinals: [1, 6] }),
        }),
      ],
      { featureGates: 'StatefulSetStartOrdinal=true' },
    );
    await scaleOnce(fixture);
    expect(podNames(fixture)).toEqual(['web-5', 'web-7', 'web-8']);
  });

  it('creates a pod below the partition at the current revision and one above at the update revision', async () => {
    const fixture = syncFixture([statefulSet({ spec: webSpec(3, { podManagementPolicy: 'Parallel' }) })]);
    await settle(fixture);
    const current = revisionOf(fixture.fake, 'web-0');
    const next = webSpec(3, {
      podManagementPolicy: 'Parallel',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } },
    });
    await editSpec(fixture, {
      ...next,
      template: { ...next.template, spec: { containers: [{ name: 'main', image: 'nginx:1.26' }] } },
    });
    await fixture.fake.delete(podResource, { namespace: NAMESPACE, name: 'web-0' });
    await fixture.fake.delete(podResource, { namespace: NAMESPACE, name: 'web-2' });
    fixture.fake.clearActions();
    await scaleOnce(fixture);
    expect(creations(fixture).sort()).toEqual(['web-0', 'web-2']);
    expect(revisionOf(fixture.fake, 'web-0')).toBe(current);
    expect(revisionOf(fixture.fake, 'web-2')).not.toBe(current);
    expect(storedPod(fixture.fake, 'web-2').spec?.containers[0]?.image).toBe('nginx:1.26');
  });

  it('reports a creation the API server refuses as a CreatePodsError, with a Warning, and lowers the expectation', async () => {
    const fixture = syncFixture([statefulSet({ spec: webSpec(2) })]);
    fixture.fake.prependReactor({ verb: 'create', resource: 'pods' }, (action) => {
      throw podQuotaExceeded(action.name);
    });
    await expect(scaleOnce(fixture)).rejects.toBeInstanceOf(CreatePodsError);
    expect(fixture.recorder.reasons()).toEqual(['FailedCreate']);
    expect(fixture.scaleExpectations.satisfied(KEY).satisfied).toBe(true);
  });

  it('in the reconcile: a refused creation sets FailedCreatePod and goes to the backoff; the next creation clears it', async () => {
    const fixture = syncFixture([statefulSet({ spec: webSpec(1) })]);
    fixture.fake.prependReactor({ verb: 'create', resource: 'pods' }, (action) => {
      if (action.name === 'web-0' && fixture.recorder.events.length === 0) {
        throw fakeApiError({
          code: 500,
          reason: 'InternalError',
          message: 'Internal error occurred: failed calling webhook "pods.example.com": context deadline exceeded',
        });
      }
      return undefined;
    });
    await expect(fixture.reconcile()).rejects.toThrow(CreatePodsError);
    const failed = fixture.stored().status?.conditions?.find((condition) => condition.type === 'FailedCreatePod');
    expect(failed).toMatchObject({
      status: 'True',
      message:
        'failed to create 1 of 1 pods: Internal error occurred: failed calling webhook "pods.example.com": context deadline exceeded',
    });

    await fixture.reconcile();
    expect(podNames(fixture)).toEqual(['web-0']);
    expect(
      fixture.stored().status?.conditions?.find((condition) => condition.type === 'FailedCreatePod'),
    ).toBeUndefined();
  });

  it('fixes the identity labels of a pod that lost them', async () => {
    const fixture = syncFixture([statefulSet({ spec: webSpec(1) })]);
    await settle(fixture);
    await fixture.fake.patch(
      podResource,
      { namespace: NAMESPACE, name: 'web-0' },
      { type: 'merge', body: { metadata: { labels: { 'apps.kubernetes.io/pod-index': '7' } } } },
    );
    fixture.fake.clearActions();
    expect(await scaleOnce(fixture)).toMatchObject({ changed: true });
    expect(writes(fixture.fake)).toEqual(['patch pods web-0']);
    expect(storedPod(fixture.fake, 'web-0').metadata?.labels?.['apps.kubernetes.io/pod-index']).toBe('0');
  });
});

describe('scale: deleting pods (over the in-memory API)', () => {
  it('OrderedReady deletes the highest condemned pod only, and stops', async () => {
    const fixture = await settledThenEdited(webSpec(3), webSpec(1));
    expect(await scaleOnce(fixture)).toEqual({ changed: true, stop: true });
    expect(deletions(fixture)).toEqual(['web-2']);
    expect(fixture.recorder.reasons()).toEqual(['SuccessfulDelete']);
    expect(fixture.scaleExpectations.satisfied(KEY).pending.delete).toEqual(['web-2']);
  });

  it('Parallel deletes every condemned pod at once, highest first', async () => {
    const fixture = await settledThenEdited(
      webSpec(3, { podManagementPolicy: 'Parallel' }),
      webSpec(1, { podManagementPolicy: 'Parallel' }),
    );
    await scaleOnce(fixture);
    expect(deletions(fixture)).toEqual(['web-2', 'web-1']);
  });

  it('OrderedReady does not scale in while a live pod is not ready', async () => {
    const fixture = await settledThenEdited(webSpec(3), webSpec(1));
    await fixture.fake.patchStatus(
      podResource,
      { namespace: NAMESPACE, name: 'web-0' },
      { type: 'strategic', body: { status: { conditions: [{ type: 'Ready', status: 'False' }] } } },
    );
    fixture.fake.clearActions();
    expect(await scaleOnce(fixture)).toEqual({ changed: false, stop: true });
    expect(fixture.fake.writes()).toEqual([]);
  });

  it('deletes the pod of an ordinal newly reserved, and creates the next ordinal instead', async () => {
    const fixture = await settledThenEdited(
      webSpec(3, { podManagementPolicy: 'Parallel' }),
      webSpec(3, { podManagementPolicy: 'Parallel', reserveOrdinals: [1] }),
    );
    await scaleOnce(fixture);
    expect(creations(fixture)).toEqual(['web-3']);
    expect(deletions(fixture)).toEqual(['web-1']);
  });

  it('moves a condemned pod the preDelete hook holds to PreparingDelete instead of deleting it', async () => {
    const spec = webSpec(2, { lifecycle: { preDelete: { finalizersHandler: [HOLD] } } });
    const fixture = syncFixture([
      statefulSet({
        spec: { ...spec, template: { ...spec.template, metadata: { labels: { app: 'web' }, finalizers: [HOLD] } } },
      }),
    ]);
    await settle(fixture);
    await editSpec(fixture, {
      ...spec,
      replicas: 1,
      template: { ...spec.template, metadata: { labels: { app: 'web' }, finalizers: [HOLD] } },
    });
    await scaleOnce(fixture);
    expect(writes(fixture.fake)).toEqual(['patch pods web-1']);
    expect(storedPod(fixture.fake, 'web-1').metadata?.labels?.['lifecycle.apps.kruise.io/state']).toBe(
      'PreparingDelete',
    );
  });

  it('deletes a pod in PreparingDelete once the preDelete hook lets it go', async () => {
    const spec = webSpec(2, { lifecycle: { preDelete: { finalizersHandler: [HOLD] } } });
    const held = { ...spec, template: { ...spec.template, metadata: { labels: { app: 'web' }, finalizers: [HOLD] } } };
    const fixture = syncFixture([statefulSet({ spec: held })]);
    await settle(fixture);
    await editSpec(fixture, { ...held, replicas: 1 });
    await scaleOnce(fixture);
    fixture.fake.clearActions();
    // Held: nothing written, and OrderedReady goes no further while it waits (as OpenKruise).
    expect(await scaleOnce(fixture)).toEqual({ changed: false, stop: true });
    expect(fixture.fake.writes()).toEqual([]);

    await fixture.fake.patch(
      podResource,
      { namespace: NAMESPACE, name: 'web-1' },
      { type: 'json', body: [{ op: 'remove', path: '/metadata/finalizers' }] },
    );
    fixture.fake.clearActions();
    await scaleOnce(fixture);
    expect(deletions(fixture)).toEqual(['web-1']);
  });

  it('recreates a failed pod: a Warning, the deletion, and the creation in a later round', async () => {
    const fixture = syncFixture([statefulSet({ spec: webSpec(2) })]);
    await settle(fixture);
    await fixture.fake.patchStatus(
      podResource,
      { namespace: NAMESPACE, name: 'web-0' },
      { type: 'strategic', body: { status: { phase: 'Failed' } } },
    );
    fixture.fake.clearActions();
    expect(await scaleOnce(fixture)).toEqual({ changed: true, stop: true });
    expect(deletions(fixture)).toEqual(['web-0']);
    expect(fixture.recorder.events[0]).toMatchObject({
      type: 'Warning',
      reason: 'RecreatingFailedPod',
      message: `StatefulSet ${KEY} is recreating failed Pod web-0`,
    });
    fixture.fake.clearActions();
    await scaleOnce(fixture);
    expect(creations(fixture)).toEqual(['web-0']);
  });
});
