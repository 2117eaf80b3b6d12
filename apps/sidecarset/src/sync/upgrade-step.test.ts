import { describe, expect, it } from 'vitest';

import { IN_PLACE_UPDATE_READY } from '@kruise-ts/api';
import type { SidecarSetInput } from '@kruise-ts/api';
import { fakeApiError } from '@kruise-ts/controller-runtime/testing';
import { podResource } from '@kruise-ts/workload';

import {
  coldSpec,
  editSpec,
  imageIn,
  NAMESPACE,
  podWrites,
  sidecarSet,
  sidecarSetFixture,
  webPod,
} from '../../test/fixtures/sync-fixture.ts';
import type { SidecarSetFixture } from '../../test/fixtures/sync-fixture.ts';

type Strategy = SidecarSetInput['spec']['updateStrategy'];

/** Three (or `names`) Ready pods injected with logger busybox:1, whose SidecarSet then moves to busybox:2 with `strategy`. */
async function rollingOut(
  strategy: Strategy,
  options: { readonly names?: readonly string[]; readonly spec?: SidecarSetInput['spec'] } = {},
): Promise<SidecarSetFixture> {
  const old = sidecarSet({ spec: coldSpec('busybox:1') });
  const names = options.names ?? ['p0', 'p1', 'p2'];
  const fixture = sidecarSetFixture(
    [old],
    names.map((name) => webPod(name, [old], name === 'canary' ? { app: 'web', track: 'canary' } : { app: 'web' })),
  );
  await editSpec(fixture, options.spec ?? coldSpec('busybox:2', strategy));
  fixture.fake.clearActions();
  return fixture;
}

function upgradedPods(fixture: SidecarSetFixture, names: readonly string[]): string[] {
  return names.filter((name) => imageIn(fixture, name, 'logger') === 'busybox:2');
}

describe('the in-place upgrade step (over the in-memory API)', () => {
  it.each<{ name: string; strategy: Strategy; upgraded: number }>([
    { name: 'maxUnavailable 1 (the default): one pod per round', strategy: {}, upgraded: 1 },
    { name: 'maxUnavailable 2: two pods', strategy: { maxUnavailable: 2 }, upgraded: 2 },
    { name: 'maxUnavailable 50% of 3 rounds up to 2', strategy: { maxUnavailable: '50%' }, upgraded: 2 },
    {
      name: 'partition 2 keeps two of three on the old sidecar',
      strategy: { maxUnavailable: 3, partition: 2 },
      upgraded: 1,
    },
    {
      name: 'partition 50% keeps two of three (rounded up)',
      strategy: { maxUnavailable: 3, partition: '50%' },
      upgraded: 1,
    },
    { name: 'partition 100% keeps every pod', strategy: { maxUnavailable: 3, partition: '100%' }, upgraded: 0 },
  ])('$name', async ({ strategy, upgraded }) => {
    const fixture = await rollingOut(strategy);
    const result = await fixture.upgradeStep();
    expect(result).toEqual({ flipped: 0, upgraded });
    const names = upgradedPods(fixture, ['p0', 'p1', 'p2']);
    expect(names).toHaveLength(upgraded);
    // One JSON patch of the pod, then its SidecarSetUpgradable condition, per upgraded pod.
    expect(podWrites(fixture).sort()).toEqual(
      names.flatMap((name) => [`patch ${name}`, `patch/status ${name}`]).sort(),
    );
  });

  it('writes the images, the hash record and the in-place state in one patch guarded by the resourceVersion', async () => {
    const fixture = await rollingOut({}, { names: ['p0'] });
    await fixture.upgradeStep();
    const [patch] = fixture.fake
      .writes()
      .filter((action) => action.resource === 'pods' && action.subresource === undefined);
    expect(patch?.patchType).toBe('json');
    expect((patch?.body as readonly { op: string; path: string; value?: unknown }[])[0]).toEqual({
      op: 'test',
      path: '/metadata/resourceVersion',
      value: '1',
    });
    const pod = fixture.pod('p0');
    expect(JSON.parse(pod.metadata?.annotations?.['kruise.io/sidecarset-inplace-update-state'] ?? '{}')).toMatchObject({
      mesh: { lastContainerStatuses: { logger: { imageID: 'busybox:1@sha256:0' } } },
    });
    expect(pod.status?.conditions?.find((condition) => condition.type === 'SidecarSetUpgradable')).toMatchObject({
      status: 'True',
      reason: 'AllSidecarsetUpgradable',
    });
  });

  it('records the resourceVersion each write returned, until the cache shows it', async () => {
    const fixture = await rollingOut({}, { names: ['p0'] });
    await fixture.upgradeStep();
    expect(fixture.resourceVersionExpectations.pendingKeys()).toEqual([`${NAMESPACE}/p0`]);
    expect(fixture.resourceVersionExpectations.isSatisfied(fixture.pod('p0'))).toBe(true);
    expect(fixture.resourceVersionExpectations.pendingKeys()).toEqual([]);
  });

  it('takes only the pods updateStrategy.selector selects', async () => {
    const fixture = await rollingOut(
      {},
      {
        names: ['p0', 'canary'],
        spec: coldSpec('busybox:2', { maxUnavailable: 2, selector: { matchLabels: { track: 'canary' } } }),
      },
    );
    expect(await fixture.upgradeStep()).toEqual({ flipped: 0, upgraded: 1 });
    expect(upgradedPods(fixture, ['p0', 'canary'])).toEqual(['canary']);
  });

  it('leaves a pod its workload is updating in place for a later round', async () => {
    const fixture = await rollingOut({ maxUnavailable: 2 }, { names: ['p0', 'p1'] });
    await fixture.fake.patchStatus(
      podResource,
      { namespace: NAMESPACE, name: 'p0' },
      { type: 'strategic', body: { status: { conditions: [{ type: IN_PLACE_UPDATE_READY, status: 'False' }] } } },
    );
    expect(await fixture.upgradeStep()).toEqual({ flipped: 0, upgraded: 1 });
    expect(upgradedPods(fixture, ['p0', 'p1'])).toEqual(['p1']);
  });

  it('does not upgrade pods whose sidecars changed in more than their images: a Warning and SidecarSetUpgradable False', async () => {
    const fixture = await rollingOut(
      {},
      {
        names: ['p0'],
        spec: {
          ...coldSpec('busybox:2'),
          containers: [{ name: 'logger', image: 'busybox:2', env: [{ name: 'LEVEL', value: 'debug' }] }],
        },
      },
    );
    expect(await fixture.upgradeStep()).toEqual({ flipped: 0, upgraded: 0 });
    expect(podWrites(fixture)).toEqual(['patch/status p0']);
    expect(
      fixture.pod('p0').status?.conditions?.find((condition) => condition.type === 'SidecarSetUpgradable'),
    ).toMatchObject({ status: 'False', reason: 'UpdateImmutableField' });
    expect(fixture.recorder.reasons()).toEqual(['NotUpgradablePods']);
  });

  it('a pod changed since it was read (the resourceVersion test fails) waits for the next round without an error', async () => {
    const fixture = await rollingOut({}, { names: ['p0'] });
    fixture.freezePodCache();
    await fixture.fake.patch(
      podResource,
      { namespace: NAMESPACE, name: 'p0' },
      { type: 'merge', body: { metadata: { labels: { touched: 'yes' } } } },
    );
    fixture.fake.clearActions();
    expect(await fixture.upgradeStep()).toEqual({ flipped: 0, upgraded: 0 });
    expect(imageIn(fixture, 'p0', 'logger')).toBe('busybox:1');
    expect(fixture.recorder.reasons()).toEqual([]);
  });

  it('any other failure is thrown once every patch settled, for the queue to retry with backoff', async () => {
    const fixture = await rollingOut({ maxUnavailable: 2 }, { names: ['p0', 'p1'] });
    fixture.fake.prependReactor({ verb: 'patch', resource: 'pods', name: 'p0' }, () => {
      throw fakeApiError({ code: 500, reason: 'InternalError', message: 'etcd is down' });
    });
    await expect(fixture.upgradeStep()).rejects.toThrow('etcd is down');
    expect(upgradedPods(fixture, ['p0', 'p1'])).toEqual(['p1']);
  });
});
