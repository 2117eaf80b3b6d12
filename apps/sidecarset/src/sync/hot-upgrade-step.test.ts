import { describe, expect, it } from 'vitest';

import { SIDECARSET_WORKING_HOT_UPGRADE_CONTAINER_ANNOTATION } from '@kruise-ts/api';
import type { SidecarSetInput } from '@kruise-ts/api';
import { fakeApiError } from '@kruise-ts/controller-runtime/testing';
import { podResource } from '@kruise-ts/workload';

import { sidecarSetResource } from '../sidecarset-resource.ts';
import {
  editSpec,
  hotSpec,
  imageIn,
  NAMESPACE,
  podWrites,
  runPods,
  sidecarSet,
  sidecarSetFixture,
  webPod,
} from '../../test/fixtures/sync-fixture.ts';
import type { SidecarSetFixture } from '../../test/fixtures/sync-fixture.ts';

/** Ready pods injected with the hot sidecar proxy on envoy:1 (proxy-1 working, proxy-2 idle), whose SidecarSet then moves to envoy:2. */
async function hotRollingOut(
  names: readonly string[],
  strategy: SidecarSetInput['spec']['updateStrategy'] = {},
): Promise<SidecarSetFixture> {
  const old = sidecarSet({ spec: hotSpec('envoy:1') });
  const fixture = sidecarSetFixture(
    [old],
    names.map((name) => webPod(name, [old])),
  );
  await editSpec(fixture, hotSpec('envoy:2', strategy));
  fixture.fake.clearActions();
  return fixture;
}

function pair(
  fixture: SidecarSetFixture,
  name: string,
): { working: string | undefined; images: [string | undefined, string | undefined] } {
  const working = JSON.parse(
    fixture.pod(name).metadata?.annotations?.[SIDECARSET_WORKING_HOT_UPGRADE_CONTAINER_ANNOTATION] ?? '{}',
  ) as Record<string, string>;
  return { working: working['proxy'], images: [imageIn(fixture, name, 'proxy-1'), imageIn(fixture, name, 'proxy-2')] };
}

describe('the hot upgrade step (over the in-memory API)', () => {
  it('puts the new image on the idle member, which becomes the working one; the old member keeps running', async () => {
    const fixture = await hotRollingOut(['p0']);
    expect(await fixture.upgradeStep()).toEqual({ flipped: 0, upgraded: 1 });
    expect(pair(fixture, 'p0')).toEqual({ working: 'proxy-2', images: ['envoy:1', 'envoy:2'] });
    const annotations = fixture.pod('p0').metadata?.annotations ?? {};
    // The new member's version is the SidecarSet's resourceVersion; its alternate the old member's version.
    expect(annotations['version.sidecarset.kruise.io/proxy-2']).toBe(
      fixture.fake.objects(sidecarSetResource)[0]?.metadata.resourceVersion,
    );
    expect(annotations['versionalt.sidecarset.kruise.io/proxy-2']).toBe('1');
  });

  it.each<{ name: string; ready: boolean; flipped: number }>([
    {
      name: 'once the new member runs and the pod is Ready, the old member goes back to the empty image',
      ready: true,
      flipped: 1,
    },
    { name: 'not while the pod is not Ready and a container is not ready', ready: false, flipped: 0 },
  ])('flip: $name', async ({ ready, flipped }) => {
    const fixture = await hotRollingOut(['p0']);
    await fixture.upgradeStep();
    await runPods(fixture);
    if (!ready) {
      const statuses = (fixture.pod('p0').status?.containerStatuses ?? []).map((status) => ({
        ...status,
        ready: status.name !== 'app',
      }));
      await fixture.fake.patchStatus(
        podResource,
        { namespace: NAMESPACE, name: 'p0' },
        {
          type: 'merge',
          body: { status: { containerStatuses: statuses, conditions: [{ type: 'Ready', status: 'False' }] } },
        },
      );
      fixture.fake.clearActions();
    }
    expect(await fixture.upgradeStep()).toEqual({ flipped, upgraded: 0 });
    expect(pair(fixture, 'p0').images).toEqual([flipped === 1 ? 'empty:1' : 'envoy:1', 'envoy:2']);
    expect(fixture.recorder.reasons()).toEqual(flipped === 1 ? ['ResetContainerSucceed'] : []);
  });

  it('a flip in a round starts no upgrade of another pod; the next round does', async () => {
    const fixture = await hotRollingOut(['p0', 'p1']);
    expect(await fixture.upgradeStep()).toEqual({ flipped: 0, upgraded: 1 });
    const [first, second] = pair(fixture, 'p0').working === 'proxy-2' ? ['p0', 'p1'] : ['p1', 'p0'];
    // Before the kubelet ran the new member, the pod is unavailable: maxUnavailable 1 holds the other one.
    expect(await fixture.upgradeStep()).toEqual({ flipped: 0, upgraded: 0 });
    await runPods(fixture);
    expect(await fixture.upgradeStep()).toEqual({ flipped: 1, upgraded: 0 });
    expect(podWrites(fixture)).toEqual([`patch ${first}`]);
    expect(pair(fixture, second).working).toBe('proxy-1');
    await runPods(fixture);
    expect(await fixture.upgradeStep()).toEqual({ flipped: 0, upgraded: 1 });
    expect(pair(fixture, second)).toEqual({ working: 'proxy-2', images: ['envoy:1', 'envoy:2'] });
  });

  it('a flip the API server refuses is reported on the pod (ResetContainerFailed) and thrown', async () => {
    const fixture = await hotRollingOut(['p0']);
    await fixture.upgradeStep();
    await runPods(fixture);
    fixture.fake.prependReactor({ verb: 'patch', resource: 'pods', name: 'p0' }, () => {
      throw fakeApiError({ code: 500, reason: 'InternalError', message: 'etcd is down' });
    });
    await expect(fixture.upgradeStep()).rejects.toThrow('etcd is down');
    expect(fixture.recorder.reasons()).toEqual(['ResetContainerFailed']);
    expect(pair(fixture, 'p0').images).toEqual(['envoy:1', 'envoy:2']);
  });
});
