import { describe, expect, it } from 'vitest';

import { refreshPods } from '@kruise-ts/pod-control';
import { podResource } from '@kruise-ts/workload';

import {
  cloneSet,
  editSpec,
  NAMESPACE,
  podNames,
  runPods,
  settle,
  syncFixture,
  webSpec,
} from '../../test/fixtures/sync-fixture.ts';
import type { SyncFixture } from '../../test/fixtures/sync-fixture.ts';
import { diffsOf } from './diffs.ts';
import { refreshInputOf, update } from './update.ts';

function podWrites(fixture: SyncFixture): string[] {
  return fixture.fake
    .writes()
    .filter((action) => action.resource === 'pods')
    .map((action) => `${action.verb}${action.subresource === undefined ? '' : `/${action.subresource}`}`);
}

async function startUpdate(fixture: SyncFixture): Promise<void> {
  const state = await fixture.state();
  const context = fixture.context();
  await update(context, state, diffsOf(context, state, 'update'));
  fixture.fake.clearActions();
}

async function refresh(
  fixture: SyncFixture,
): Promise<{ readonly written: number; readonly requeueMs: number | undefined }> {
  const context = fixture.context();
  const result = await refreshPods(context, refreshInputOf(await fixture.state()));
  return { written: result.written, requeueMs: context.requeue.delayMs };
}

describe("refreshPods of the CloneSet's pods (over the in-memory API)", () => {
  it('gracePeriodSeconds: the new image is written only once the grace period has passed on the clock', async () => {
    const strategy = {
      type: 'InPlaceIfPossible' as const,
      maxUnavailable: 1,
      inPlaceUpdateStrategy: { gracePeriodSeconds: 3 },
    };
    const fixture = syncFixture([cloneSet({ spec: webSpec(1, { updateStrategy: strategy }) })]);
    await settle(fixture);
    await editSpec(fixture, webSpec(1, { updateStrategy: strategy }, 'nginx:1.27'));
    await startUpdate(fixture);
    const [name] = podNames(fixture);
    const image = (): string | undefined =>
      fixture.fake.objects(podResource).find((pod) => pod.metadata?.name === name)?.spec?.containers[0]?.image;
    expect(image()).toBe('nginx:1.25');

    // The period counts from the end of the second the update started in (never shorter than asked).
    fixture.clock.advance(3000);
    const early = await refresh(fixture);
    expect(early.written).toBe(0);
    expect(early.requeueMs).toBeGreaterThan(0);
    expect(image()).toBe('nginx:1.25');

    fixture.clock.advance(1000);
    const due = await refresh(fixture);
    expect(due.written).toBe(1);
    expect(podWrites(fixture)).toEqual(['patch']);
    expect(image()).toBe('nginx:1.27');
  });

  it('completes an update once the containers run the new image: ready again and Normal in one pods/status write', async () => {
    const fixture = syncFixture([cloneSet({ spec: webSpec(1, { updateStrategy: { type: 'InPlaceIfPossible' } }) })]);
    await settle(fixture);
    await editSpec(fixture, webSpec(1, { updateStrategy: { type: 'InPlaceIfPossible' } }, 'nginx:1.27'));
    await startUpdate(fixture);
    expect((await refresh(fixture)).written).toBe(0);

    await runPods(fixture);
    expect((await refresh(fixture)).written).toBe(1);
    expect(podWrites(fixture)).toEqual(['patch/status']);
    const [pod] = fixture.fake.objects(podResource);
    expect(pod?.status?.conditions?.find((condition) => condition.type === 'InPlaceUpdateReady')?.status).toBe('True');
    expect(pod?.metadata?.labels?.['lifecycle.apps.kruise.io/state']).toBe('Normal');
  });

  it('skips a pod with an unreadable grace annotation without writing it', async () => {
    const fixture = syncFixture([cloneSet({ spec: webSpec(2) })]);
    await settle(fixture);
    const [bad] = podNames(fixture);
    await fixture.fake.patch(
      podResource,
      { namespace: NAMESPACE, name: bad ?? '' },
      { type: 'merge', body: { metadata: { annotations: { 'apps.kruise.io/inplace-update-grace': 'not json' } } } },
    );
    fixture.fake.clearActions();
    const result = await refreshPods(fixture.context(), refreshInputOf(await fixture.state()));
    expect(result.skipped).toEqual([
      { name: bad, reason: expect.stringContaining('apps.kruise.io/inplace-update-grace') as unknown },
    ]);
    expect(fixture.fake.writes()).toEqual([]);
  });
});
