import { describe, expect, it } from 'vitest';

import type { StatefulSetInput } from '@kruise-ts/api';
import { fakeApiError } from '@kruise-ts/controller-runtime/testing';
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
import { rollingUpdate } from './update.ts';

type Spec = StatefulSetInput['spec'];
type RollingUpdate = NonNullable<NonNullable<Spec['updateStrategy']>['rollingUpdate']>;

/**
 * `replicas` pods running `image` (with the InPlaceUpdateReady gate when `gate`), updated as `rolling`
 * says; Parallel (the rolling update's order does not depend on it, and the set settles in fewer rounds).
 */
function spec(
  replicas: number,
  input: { image?: string; command?: string[]; gate?: boolean; rolling?: RollingUpdate; extra?: Partial<Spec> } = {},
): Spec {
  const base = webSpec(replicas, {
    podManagementPolicy: 'Parallel',
    updateStrategy: { type: 'RollingUpdate', rollingUpdate: input.rolling ?? {} },
    ...input.extra,
  });
  const container = {
    name: 'main',
    image: input.image ?? 'nginx:1.25',
    ...(input.command === undefined ? {} : { command: input.command }),
  };
  return {
    ...base,
    template: {
      ...base.template,
      spec: {
        containers: [container],
        ...(input.gate === true ? { readinessGates: [{ conditionType: 'InPlaceUpdateReady' }] } : {}),
      },
    },
  };
}

/** A set settled with `initial`, then edited to `next` (a new update revision); the actions so far are forgotten. */
async function rollout(initial: Spec, next: Spec): Promise<{ fixture: SyncFixture; old: string | undefined }> {
  const fixture = syncFixture([statefulSet({ spec: initial })]);
  await settle(fixture);
  const old = revisionOf(fixture.fake, 'web-0');
  await editSpec(fixture, next);
  return { fixture, old };
}

async function updateOnce(fixture: SyncFixture): Promise<Awaited<ReturnType<typeof rollingUpdate>>> {
  const state = await fixture.state();
  return rollingUpdate(fixture.context(), state);
}

function deletions(fixture: SyncFixture): string[] {
  return fixture.fake
    .writes()
    .filter((action) => action.verb === 'delete' && action.resource === 'pods')
    .map((action) => action.name);
}

function podWrites(fixture: SyncFixture): string[] {
  return writes(fixture.fake).filter((write) => write.includes(' pods '));
}

describe('rollingUpdate (over the in-memory API)', () => {
  it('recreates the highest ordinal first, one at a time by default (OrderedReady)', async () => {
    const ordered = { podManagementPolicy: 'OrderedReady' } as const;
    const { fixture } = await rollout(spec(3, { extra: ordered }), spec(3, { image: 'nginx:1.26', extra: ordered }));
    expect(await updateOnce(fixture)).toEqual({ changed: true });
    expect(deletions(fixture)).toEqual(['web-2']);
    expect(fixture.recorder.reasons()).toEqual(['SuccessfulDelete']);
  });

  it.each([
    { replicas: 3, maxUnavailable: 2, deleted: ['web-2', 'web-1'] },
    { replicas: 4, maxUnavailable: '50%', deleted: ['web-3', 'web-2'] },
    // Rounded down, at least 1.
    { replicas: 4, maxUnavailable: '10%', deleted: ['web-3'] },
    { replicas: 3, maxUnavailable: 5, deleted: ['web-2', 'web-1', 'web-0'] },
  ])(
    'recreates up to maxUnavailable $maxUnavailable of $replicas at once',
    async ({ replicas, maxUnavailable, deleted }) => {
      const { fixture } = await rollout(
        spec(replicas),
        spec(replicas, { image: 'nginx:1.26', rolling: { maxUnavailable } }),
      );
      await updateOnce(fixture);
      expect(deletions(fixture)).toEqual(deleted);
    },
  );

  it('counts a pod that is not ready against maxUnavailable', async () => {
    const { fixture } = await rollout(spec(3), spec(3, { image: 'nginx:1.26' }));
    await fixture.fake.patchStatus(
      podResource,
      { namespace: NAMESPACE, name: 'web-0' },
      { type: 'strategic', body: { status: { conditions: [{ type: 'Ready', status: 'False' }] } } },
    );
    fixture.fake.clearActions();
    expect(await updateOnce(fixture)).toEqual({ changed: false });
    expect(fixture.fake.writes()).toEqual([]);
  });

  it('leaves the lowest `partition` ordinals at the current revision', async () => {
    const { fixture, old } = await rollout(spec(3), spec(3, { image: 'nginx:1.26', rolling: { partition: 2 } }));
    await settle(fixture);
    expect(podNames(fixture).map((name) => revisionOf(fixture.fake, name) === old)).toEqual([true, true, false]);
    expect(storedPod(fixture.fake, 'web-2').spec?.containers[0]?.image).toBe('nginx:1.26');
  });

  it('rolls every pod out, highest ordinal first, until all run the update revision', async () => {
    const { fixture, old } = await rollout(spec(3), spec(3, { image: 'nginx:1.26' }));
    const uids = (): (string | undefined)[] =>
      podNames(fixture).map((name) => storedPod(fixture.fake, name).metadata?.uid);
    const before = uids();
    const deleted: string[] = [];
    const done = (): boolean =>
      podNames(fixture).length === 3 && podNames(fixture).every((name) => revisionOf(fixture.fake, name) !== old);
    for (let round = 0; round < 20 && !done(); round++) {
      fixture.fake.clearActions();
      await fixture.reconcile();
      deleted.push(...deletions(fixture));
      await runPods(fixture);
    }
    expect(deleted).toEqual(['web-2', 'web-1', 'web-0']);
    expect(podNames(fixture).map((name) => storedPod(fixture.fake, name).spec?.containers[0]?.image)).toEqual([
      'nginx:1.26',
      'nginx:1.26',
      'nginx:1.26',
    ]);
    // Recreated, not updated in place: each name now belongs to a new pod.
    expect(before.every((uid) => uid !== undefined)).toBe(true);
    expect(uids().map((uid, index) => uid === before[index])).toEqual([false, false, false]);
  });

  it('unorderedUpdate: updates by priority (weight of matching labels), not by ordinal', async () => {
    const unorderedUpdate = {
      priorityStrategy: { weightPriority: [{ weight: 50, matchSelector: { matchLabels: { tier: 'first' } } }] },
    };
    const { fixture } = await rollout(spec(3), spec(3, { image: 'nginx:1.26', rolling: { unorderedUpdate } }));
    await fixture.fake.patch(
      podResource,
      { namespace: NAMESPACE, name: 'web-0' },
      { type: 'merge', body: { metadata: { labels: { tier: 'first' } } } },
    );
    fixture.fake.clearActions();
    await updateOnce(fixture);
    expect(deletions(fixture)).toEqual(['web-0']);
  });

  it('deletes a pod labelled specified-delete whatever the partition', async () => {
    const { fixture } = await rollout(spec(3), spec(3, { image: 'nginx:1.26', rolling: { partition: 3 } }));
    await fixture.fake.patch(
      podResource,
      { namespace: NAMESPACE, name: 'web-0' },
      { type: 'merge', body: { metadata: { labels: { 'apps.kruise.io/specified-delete': 'true' } } } },
    );
    fixture.fake.clearActions();
    expect(await updateOnce(fixture)).toEqual({ changed: true });
    expect(deletions(fixture)).toEqual(['web-0']);
  });
});

describe('rollingUpdate: podUpdatePolicy', () => {
  it('InPlaceIfPossible updates an image change in place: no deletion, the pod at the update revision', async () => {
    const { fixture, old } = await rollout(
      spec(3, { gate: true }),
      spec(3, { gate: true, image: 'nginx:1.26', rolling: { podUpdatePolicy: 'InPlaceIfPossible' } }),
    );
    const uid = storedPod(fixture.fake, 'web-2').metadata?.uid;
    expect(await updateOnce(fixture)).toEqual({ changed: true });
    expect(podWrites(fixture)).toEqual(['patch/status pods web-2', 'patch pods web-2']);
    const pod = storedPod(fixture.fake, 'web-2');
    expect(pod.spec?.containers[0]?.image).toBe('nginx:1.26');
    expect(revisionOf(fixture.fake, 'web-2')).not.toBe(old);
    // The same pod, not a new one under the same name.
    expect(uid).toBeDefined();
    expect(pod.metadata?.uid).toBe(uid);
    expect(fixture.recorder.reasons()).toEqual(['SuccessfulUpdatePodInPlace']);
  });

  it('InPlaceIfPossible holds a pod in PreparingUpdate while the inPlaceUpdate hook holds it, then updates it in place', async () => {
    const hooked = (input: Parameters<typeof spec>[1]): Spec => {
      const base = spec(2, {
        gate: true,
        ...input,
        extra: { lifecycle: { inPlaceUpdate: { labelsHandler: { 'example.com/hold': 'true' } } } },
      });
      return {
        ...base,
        template: { ...base.template, metadata: { labels: { app: 'web', 'example.com/hold': 'true' } } },
      };
    };
    const { fixture } = await rollout(
      hooked({}),
      hooked({ image: 'nginx:1.26', rolling: { podUpdatePolicy: 'InPlaceIfPossible' } }),
    );
    expect(await updateOnce(fixture)).toEqual({ changed: true });
    expect(podWrites(fixture)).toEqual(['patch pods web-1']);
    expect(storedPod(fixture.fake, 'web-1').metadata?.labels?.['lifecycle.apps.kruise.io/state']).toBe(
      'PreparingUpdate',
    );
    expect(storedPod(fixture.fake, 'web-1').spec?.containers[0]?.image).toBe('nginx:1.25');

    fixture.fake.clearActions();
    expect(await updateOnce(fixture)).toEqual({ changed: false });
    expect(podWrites(fixture)).toEqual([]);

    await fixture.fake.patch(
      podResource,
      { namespace: NAMESPACE, name: 'web-1' },
      { type: 'merge', body: { metadata: { labels: { 'example.com/hold': null } } } },
    );
    fixture.fake.clearActions();
    await updateOnce(fixture);
    expect(podWrites(fixture)).toEqual(['patch/status pods web-1', 'patch pods web-1']);
    expect(storedPod(fixture.fake, 'web-1').spec?.containers[0]?.image).toBe('nginx:1.26');
  });

  it('InPlaceIfPossible finishes the rollout in place once the kubelet runs the new images', async () => {
    const { fixture } = await rollout(
      spec(2, { gate: true }),
      spec(2, { gate: true, image: 'nginx:1.26', rolling: { podUpdatePolicy: 'InPlaceIfPossible' } }),
    );
    const uids = podNames(fixture).map((name) => storedPod(fixture.fake, name).metadata?.uid);
    await settle(fixture);
    expect(podNames(fixture).map((name) => storedPod(fixture.fake, name).metadata?.uid)).toEqual(uids);
    expect(podNames(fixture).map((name) => storedPod(fixture.fake, name).spec?.containers[0]?.image)).toEqual([
      'nginx:1.26',
      'nginx:1.26',
    ]);
    expect(fixture.stored().status).toMatchObject({ updatedReplicas: 2, readyReplicas: 2 });
  });

  it('InPlaceIfPossible recreates a pod whose change cannot be made in place', async () => {
    const { fixture } = await rollout(
      spec(3, { gate: true }),
      spec(3, {
        gate: true,
        command: ['nginx', '-g', 'daemon off;'],
        rolling: { podUpdatePolicy: 'InPlaceIfPossible' },
      }),
    );
    await updateOnce(fixture);
    expect(deletions(fixture)).toEqual(['web-2']);
  });

  it('InPlaceOnly reports a change it cannot make in place and writes no pod', async () => {
    const { fixture } = await rollout(
      spec(3, { gate: true }),
      spec(3, { gate: true, command: ['nginx', '-g', 'daemon off;'], rolling: { podUpdatePolicy: 'InPlaceOnly' } }),
    );
    const result = await updateOnce(fixture);
    expect(result.changed).toBe(false);
    expect(result.blocked).toMatch(/^find Pod web-2 update strategy is InPlaceOnly but can not update in-place: /);
    expect(podWrites(fixture)).toEqual([]);
  });
});

describe('rollingUpdate in the reconcile', () => {
  it('does nothing while paused, and goes on once resumed', async () => {
    const { fixture } = await rollout(spec(3), spec(3, { image: 'nginx:1.26', rolling: { paused: true } }));
    await fixture.reconcile();
    expect(podWrites(fixture)).toEqual([]);

    await editSpec(fixture, spec(3, { image: 'nginx:1.26', rolling: { paused: false } }));
    await fixture.reconcile();
    expect(deletions(fixture)).toEqual(['web-2']);
  });

  it('leaves pods alone under OnDelete, and recreates a deleted one at the update revision', async () => {
    const onDelete = (image: string): Spec => ({ ...spec(2, { image }), updateStrategy: { type: 'OnDelete' } });
    const { fixture, old } = await rollout(onDelete('nginx:1.25'), onDelete('nginx:1.26'));
    await fixture.reconcile();
    expect(podWrites(fixture)).toEqual([]);

    await fixture.fake.delete(podResource, { namespace: NAMESPACE, name: 'web-1' });
    await settle(fixture);
    expect(revisionOf(fixture.fake, 'web-0')).toBe(old);
    expect(storedPod(fixture.fake, 'web-1').spec?.containers[0]?.image).toBe('nginx:1.26');
  });

  it('reports an InPlaceOnly update it cannot make as FailedUpdatePod', async () => {
    const { fixture } = await rollout(
      spec(2, { gate: true }),
      spec(2, { gate: true, command: ['nginx', '-g', 'daemon off;'], rolling: { podUpdatePolicy: 'InPlaceOnly' } }),
    );
    await fixture.reconcile();
    expect(podWrites(fixture)).toEqual([]);
    expect(
      fixture.stored().status?.conditions?.find((condition) => condition.type === 'FailedUpdatePod'),
    ).toMatchObject({ status: 'True', reason: 'InPlaceOnlyNotPossible' });
  });

  it('reports a refresh write that failed as FailedUpdatePod, writes the status, and goes to the backoff', async () => {
    const fixture = syncFixture([statefulSet({ spec: spec(2) })]);
    await settle(fixture);
    await fixture.fake.patch(
      podResource,
      { namespace: NAMESPACE, name: 'web-0' },
      { type: 'merge', body: { metadata: { labels: { 'lifecycle.apps.kruise.io/state': 'Updated' } } } },
    );
    fixture.fake.prependReactor({ verb: 'patch', resource: 'pods', name: 'web-0' }, () => {
      throw fakeApiError({ code: 500, reason: 'InternalError', message: 'etcdserver: request timed out' });
    });
    fixture.fake.clearActions();
    await expect(fixture.reconcile()).rejects.toThrow('etcdserver: request timed out');
    expect(writes(fixture.fake)).toContain('patch/status statefulsets web');
    expect(
      fixture.stored().status?.conditions?.find((condition) => condition.type === 'FailedUpdatePod'),
    ).toMatchObject({ status: 'True', message: 'refreshing pods failed: etcdserver: request timed out' });
  });

  it('waits for the scale step: no update in a round that created a pod', async () => {
    const { fixture } = await rollout(spec(3), spec(3, { image: 'nginx:1.26' }));
    await fixture.fake.delete(podResource, { namespace: NAMESPACE, name: 'web-0' });
    fixture.fake.clearActions();
    await fixture.reconcile();
    expect(podWrites(fixture)).toEqual(['create pods web-0', 'patch/status pods web-0']);
  });
});
