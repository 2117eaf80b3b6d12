import { describe, expect, it } from 'vitest';

import { podQuotaExceeded } from '@kruise-ts/controller-runtime/testing';
import { podResource, pvcResource } from '@kruise-ts/workload';

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
import { CreatePodsError } from './create-pods.ts';
import { diffsOf } from './diffs.ts';
import { scale } from './scale.ts';

const HOLD = 'example.com/hold';

function writes(fixture: SyncFixture): string[] {
  return fixture.fake
    .writes()
    .map(
      (action) =>
        `${action.verb}${action.subresource === undefined ? '' : `/${action.subresource}`} ${action.resource}`,
    );
}

async function setLabel(fixture: SyncFixture, name: string, labels: Record<string, string | null>): Promise<void> {
  await fixture.fake.patch(
    podResource,
    { namespace: NAMESPACE, name },
    { type: 'merge', body: { metadata: { labels } } },
  );
  fixture.fake.clearActions();
}

describe('scale (over the in-memory API)', () => {
  it('creates the missing pods in slow-start batches, each with its readiness-gate conditions', async () => {
    const fixture = syncFixture([cloneSet({ spec: webSpec(3) })]);
    const result = await scale(fixture.context(), await fixture.state());
    expect(result).toMatchObject({ changed: true, created: expect.any(Array) as unknown });
    expect(writes(fixture)).toEqual([
      'create controllerrevisions',
      'create pods',
      'patch/status pods',
      'create pods',
      'create pods',
      'patch/status pods',
      'patch/status pods',
    ]);
    expect(fixture.recorder.reasons()).toEqual(['SuccessfulCreate', 'SuccessfulCreate', 'SuccessfulCreate']);
  });

  it('creates a pod’s PVCs before the pod', async () => {
    const spec = webSpec(1, {
      volumeClaimTemplates: [
        {
          metadata: { name: 'data' },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
        },
      ],
    });
    const fixture = syncFixture([cloneSet({ spec })]);
    const state = await fixture.state();
    fixture.fake.clearActions();
    await scale(fixture.context(), state);
    expect(writes(fixture).slice(0, 2)).toEqual(['create persistentvolumeclaims', 'create pods']);
    const [claim] = fixture.fake.objects(pvcResource);
    expect(claim?.metadata?.name).toBe(`data-${podNames(fixture)[0] ?? ''}`);
  });

  it('stops at the first failing batch, rolls back its expectations and reports a message that names no pod', async () => {
    const fixture = syncFixture([cloneSet({ spec: webSpec(4) })]);
    fixture.fake.prependReactor({ verb: 'create', resource: 'pods' }, (action) => {
      throw podQuotaExceeded(action.name);
    });
    const state = await fixture.state();
    fixture.fake.clearActions();
    const failure = await scale(fixture.context(), state).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(CreatePodsError);
    expect((failure as CreatePodsError).message).toBe(
      'failed to create 4 of 4 pods: pods "web-" is forbidden: exceeded quota: pods',
    );
    expect(writes(fixture)).toEqual(['create pods']);
    expect(fixture.recorder.reasons()).toEqual(['FailedCreate']);
    const key = `${NAMESPACE}/web`;
    expect(fixture.context().scaleExpectations.satisfied(key).satisfied).toBe(true);
  });

  it('deletes not-ready pods first when scaling in', async () => {
    const fixture = syncFixture([cloneSet({ spec: webSpec(3) })]);
    await settle(fixture);
    const [, unready] = podNames(fixture);
    await fixture.fake.patchStatus(
      podResource,
      { namespace: NAMESPACE, name: unready ?? '' },
      { type: 'strategic', body: { status: { conditions: [{ type: 'Ready', status: 'False' }] } } },
    );
    await editSpec(fixture, webSpec(2));
    fixture.fake.clearActions();
    await scale(fixture.context(), await fixture.state());
    expect(
      fixture.fake
        .writes()
        .filter((action) => action.verb === 'delete')
        .map((action) => action.name),
    ).toEqual([unready]);
  });

  it('keeps a pod held by its preDelete hook in PreparingDelete: not deleted, not replaced, until the hook lets go', async () => {
    const spec = webSpec(3, { lifecycle: { preDelete: { finalizersHandler: [HOLD] } } });
    const fixture = syncFixture([
      cloneSet({
        spec: { ...spec, template: { ...spec.template, metadata: { labels: { app: 'web' }, finalizers: [HOLD] } } },
      }),
    ]);
    await settle(fixture);
    const [victim] = podNames(fixture);
    await setLabel(fixture, victim ?? '', { 'apps.kruise.io/specified-delete': 'true' });

    await scale(fixture.context(), await fixture.state());
    expect(writes(fixture)).toEqual(['patch pods']);
    expect(
      fixture.fake.objects(podResource).find((pod) => pod.metadata?.name === victim)?.metadata?.labels?.[
        'lifecycle.apps.kruise.io/state'
      ],
    ).toBe('PreparingDelete');

    // Held: later scales neither delete it nor create its replacement.
    fixture.fake.clearActions();
    const held = await scale(fixture.context(), await fixture.state());
    expect(held.changed).toBe(false);
    expect(writes(fixture)).toEqual([]);
    expect(podNames(fixture)).toHaveLength(3);

    // Released: deleted.
    await fixture.fake.patch(
      podResource,
      { namespace: NAMESPACE, name: victim ?? '' },
      { type: 'json', body: [{ op: 'remove', path: '/metadata/finalizers' }] },
    );
    fixture.fake.clearActions();
    await scale(fixture.context(), await fixture.state());
    expect(fixture.fake.writes().map((action) => `${action.verb} ${action.name}`)).toEqual([`delete ${victim ?? ''}`]);
  });

  it('cancelled: an aborted signal sends nothing and reports nothing', async () => {
    const fixture = syncFixture([cloneSet({ spec: webSpec(3) })]);
    const state = await fixture.state();
    fixture.fake.clearActions();
    const stop = new AbortController();
    stop.abort(new Error('shutting down'));
    await expect(scale(fixture.context(stop.signal), state)).rejects.toBeInstanceOf(CreatePodsError);
    expect(fixture.fake.actions).toEqual([]);
    expect(fixture.recorder.events).toEqual([]);
  });
});

describe('PreparingUpdateAsUpdate', () => {
  // replicas 4, partition 3 (one pod expected at the update revision), 3 old pods, one of them in PreparingUpdate.
  async function preparing(featureGates: string): Promise<SyncFixture> {
    const fixture = syncFixture(
      [cloneSet({ spec: webSpec(3, { updateStrategy: { type: 'InPlaceIfPossible', partition: 3 } }) })],
      { featureGates },
    );
    await settle(fixture);
    const [first] = podNames(fixture);
    await setLabel(fixture, first ?? '', { 'lifecycle.apps.kruise.io/state': 'PreparingUpdate' });
    await editSpec(fixture, webSpec(4, { updateStrategy: { type: 'InPlaceIfPossible', partition: 3 } }, 'nginx:1.27'));
    await runPods(fixture);
    return fixture;
  }

  it.each([
    { gate: 'off', featureGates: '', expected: { scaleUpNum: 1, scaleUpNumOldRevision: 0 } },
    { gate: 'on', featureGates: 'PreparingUpdateAsUpdate=true', expected: { scaleUpNum: 1, scaleUpNumOldRevision: 1 } },
  ])(
    'gate $gate: the new pod is created at the old revision only when the PreparingUpdate pod counts as updated',
    async ({ featureGates, expected }) => {
      const fixture = await preparing(featureGates);
      const state = await fixture.state();
      expect(diffsOf(fixture.context(), state, 'scale')).toMatchObject(expected);
    },
  );

  it('gate on: the update step still counts exact revisions, so the PreparingUpdate pod is still to be updated', async () => {
    const fixture = await preparing('PreparingUpdateAsUpdate=true');
    await scale(fixture.context(), await fixture.state());
    await runPods(fixture);
    const state = await fixture.state();
    expect(diffsOf(fixture.context(), state, 'scale').updateNum).toBe(0);
    expect(diffsOf(fixture.context(), state, 'update').updateNum).toBe(1);
  });
});
