import { describe, expect, it } from 'vitest';

import type { SidecarSet, SidecarSetInput } from '@kruise-ts/api';
import { TerminalError } from '@kruise-ts/controller-runtime';
import { podResource } from '@kruise-ts/workload';

import {
  coldSpec,
  editSpec,
  imageIn,
  NAMESPACE,
  podWrites,
  runPods,
  sidecarSet,
  sidecarSetFixture,
  webPod,
} from '../test/fixtures/sync-fixture.ts';
import type { SidecarSetFixture } from '../test/fixtures/sync-fixture.ts';
import { sidecarSetResource } from './sidecarset-resource.ts';

const NAMES = ['p0', 'p1', 'p2'];

async function rollingOut(strategy: SidecarSetInput['spec']['updateStrategy'] = {}): Promise<SidecarSetFixture> {
  const old = sidecarSet({ spec: coldSpec('busybox:1') });
  const fixture = sidecarSetFixture(
    [old],
    NAMES.map((name) => webPod(name, [old])),
  );
  await editSpec(fixture, coldSpec('busybox:2', strategy));
  // The first round writes the SidecarSet's hash annotations and its revision; the pods are what matters here.
  fixture.fake.clearActions();
  return fixture;
}

function upgraded(fixture: SidecarSetFixture): string[] {
  return NAMES.filter((name) => imageIn(fixture, name, 'logger') === 'busybox:2');
}

/** Every pod write the reconcile attempted, refused ones included. */
function podPatchesTried(fixture: SidecarSetFixture): number {
  return fixture.fake.actions.filter((action) => action.resource === 'pods' && action.verb === 'patch').length;
}

function storedSet(fixture: SidecarSetFixture, name = 'mesh'): SidecarSet {
  const found = fixture.fake.objects(sidecarSetResource).find((set) => set.metadata.name === name);
  if (found === undefined) {
    throw new Error(`no SidecarSet ${name}`);
  }
  return found;
}

describe('SidecarSetReconciler: the cache-lag guard', () => {
  it('a round that starts before the cache shows our last pod patch waits instead of picking the pod again', async () => {
    const fixture = await rollingOut();
    // The pod informer lags: it keeps showing the pods as they were before this round's patches.
    fixture.freezePodCache();
    expect(await fixture.reconcile()).toBeUndefined();
    const [first] = upgraded(fixture);
    expect(upgraded(fixture)).toHaveLength(1);
    fixture.fake.clearActions();

    expect(await fixture.reconcile()).toEqual({ requeueAfterMs: 1000 });
    expect(podPatchesTried(fixture)).toBe(0);

    // Caught up: the patched pod is updated but not yet running its new image, so maxUnavailable 1 holds the others.
    fixture.thawPodCache();
    fixture.fake.clearActions();
    expect(await fixture.reconcile()).toBeUndefined();
    expect(podWrites(fixture)).toEqual([]);
    await runPods(fixture);
    await fixture.reconcile();
    expect(upgraded(fixture)).toHaveLength(2);
    expect(upgraded(fixture)).toContain(first);
  });

  it('an expectation the cache never meets is dropped after the expectation timeout, and the round goes on', async () => {
    const fixture = await rollingOut();
    fixture.freezePodCache();
    await fixture.reconcile();
    fixture.fake.clearActions();
    expect(await fixture.reconcile()).toEqual({ requeueAfterMs: 1000 });
    fixture.clock.advance(300_000);
    expect(await fixture.reconcile()).toBeUndefined();
    expect(podPatchesTried(fixture)).toBe(1);
    expect(fixture.resourceVersionExpectations.pendingKeys()).toEqual([]);
  });

  it.each([
    { name: 'paused', strategy: { paused: true } },
    { name: 'NotUpdate', strategy: { type: 'NotUpdate' as const } },
  ])('$name: no pod is touched', async ({ strategy }) => {
    const fixture = await rollingOut(strategy);
    expect(await fixture.reconcile()).toBeUndefined();
    expect(podWrites(fixture)).toEqual([]);
    expect(storedSet(fixture).status).toMatchObject({ matchedPods: 3, updatedPods: 0, readyPods: 3 });
  });
});

describe('SidecarSetReconciler: what it remembers of its reports', () => {
  it('reports each pod created without the sidecars once, and forgets it when it goes, and the SidecarSet when it goes', async () => {
    const set = sidecarSet({ spec: coldSpec('busybox:1') });
    const fixture = sidecarSetFixture([set], [webPod('bare-0', []), webPod('bare-1', []), webPod('p0', [set])]);
    await fixture.reconcile();
    expect(fixture.recorder.reasons()).toEqual(Array.from({ length: 4 }, () => 'SidecarInjectionMissed'));
    expect(fixture.reported.size()).toEqual({ sets: 1, pods: 2, conflicts: 0 });
    await fixture.reconcile();
    expect(fixture.recorder.reasons()).toHaveLength(4);

    await fixture.fake.delete(podResource, { namespace: NAMESPACE, name: 'bare-0' });
    await fixture.reconcile();
    expect(fixture.reported.size()).toEqual({ sets: 1, pods: 1, conflicts: 0 });
    expect(
      storedSet(fixture).status?.conditions?.find((condition) => condition.type === 'MissedInjection')?.message,
    ).toMatch(/^1 pod\(s\) created without the sidecars/);

    await fixture.fake.delete(sidecarSetResource, { name: 'mesh' });
    await fixture.reconcile();
    expect(fixture.reported.size()).toEqual({ sets: 0, pods: 0, conflicts: 0 });
  });

  it('remembers a conflict until it ends or the SidecarSet goes', async () => {
    const older = sidecarSet({ name: 'a-older', spec: coldSpec('busybox:1') });
    const younger = {
      ...sidecarSet({ name: 'b-younger', spec: coldSpec('busybox:9') }),
      metadata: {
        ...sidecarSet({ name: 'b-younger', spec: coldSpec('x') }).metadata,
        creationTimestamp: '2026-02-01T00:00:00Z',
      },
    };
    const fixture = sidecarSetFixture([older, younger], []);
    await fixture.reconcile('b-younger');
    expect(fixture.recorder.reasons()).toEqual(['SidecarSetConflict']);
    expect(fixture.reported.size().conflicts).toBe(1);
    await fixture.reconcile('b-younger');
    expect(fixture.recorder.reasons()).toEqual(['SidecarSetConflict']);

    await fixture.fake.delete(sidecarSetResource, { name: 'a-older' });
    await fixture.reconcile('b-younger');
    expect(fixture.reported.size().conflicts).toBe(0);
    expect(storedSet(fixture, 'b-younger').status?.conditions ?? []).toEqual([]);
  });
});

describe('SidecarSetReconciler: a SidecarSet it cannot read', () => {
  it('is reported with one Event and the InvalidSpec condition, not retried, and the condition goes once it is fixed', async () => {
    const broken = {
      ...sidecarSet({ spec: coldSpec('busybox:1') }),
      spec: { selector: { matchLabels: { app: 'web' } }, containers: 'logger' },
    } as unknown as SidecarSet;
    const fixture = sidecarSetFixture([broken], [webPod('p0', [])]);
    await expect(fixture.reconcile()).rejects.toThrow(TerminalError);
    await expect(fixture.reconcile()).rejects.toThrow(/the SidecarSet cannot be read: .*containers/);
    expect(fixture.recorder.reasons()).toEqual(['InvalidSpec']);
    expect(storedSet(fixture).status).toMatchObject({
      observedGeneration: 1,
      matchedPods: 0,
      conditions: [{ type: 'InvalidSpec', status: 'True', reason: 'InvalidSpec' }],
    });
    expect(podWrites(fixture)).toEqual([]);

    await editSpec(fixture, coldSpec('busybox:1'));
    await fixture.reconcile();
    expect(storedSet(fixture).status?.conditions?.map((condition) => condition.type)).toEqual(['MissedInjection']);
  });
});
