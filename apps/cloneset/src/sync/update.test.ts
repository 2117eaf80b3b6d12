import { describe, expect, it } from 'vitest';

import type { CloneSetInput } from '@kruise-ts/api';
import { fakeApiError } from '@kruise-ts/controller-runtime/testing';
import { podResource } from '@kruise-ts/workload';

import {
  cloneSet,
  editSpec,
  NAMESPACE,
  podNames,
  settle,
  syncFixture,
  webSpec,
} from '../../test/fixtures/sync-fixture.ts';
import type { SyncFixture } from '../../test/fixtures/sync-fixture.ts';
import { diffsOf } from './diffs.ts';
import { update, UpdateError } from './update.ts';
import type { UpdateResult } from './update.ts';

type Strategy = NonNullable<CloneSetInput['spec']['updateStrategy']>;

/** A settled CloneSet of `replicas` pods at nginx:1.25 whose template then moves to `image` with `strategy`. */
async function rollingOut(
  replicas: number,
  strategy: Strategy,
  options: { image?: string; before?: (fixture: SyncFixture) => Promise<void> } = {},
): Promise<SyncFixture> {
  const fixture = syncFixture([cloneSet({ spec: webSpec(replicas, { updateStrategy: strategy }) })]);
  await settle(fixture);
  await options.before?.(fixture);
  await editSpec(fixture, webSpec(replicas, { updateStrategy: strategy }, options.image ?? 'nginx:1.27'));
  fixture.fake.clearActions();
  return fixture;
}

async function runUpdate(fixture: SyncFixture, signal?: AbortSignal): Promise<UpdateResult> {
  const state = await fixture.state();
  fixture.fake.clearActions();
  const context = fixture.context(signal);
  return update(context, state, diffsOf(context, state, 'update'));
}

/** `verb[/subresource] pod-name` of every pod write. */
function podWrites(fixture: SyncFixture): string[] {
  return fixture.fake
    .writes()
    .filter((action) => action.resource === 'pods')
    .map(
      (action) => `${action.verb}${action.subresource === undefined ? '' : `/${action.subresource}`} ${action.name}`,
    );
}

async function annotate(fixture: SyncFixture, name: string, annotations: Record<string, string>): Promise<void> {
  await fixture.fake.patch(
    podResource,
    { namespace: NAMESPACE, name },
    { type: 'merge', body: { metadata: { annotations } } },
  );
}

describe('update (over the in-memory API)', () => {
  it('updates in place within maxUnavailable: out of service, then the image, two writes per pod', async () => {
    const fixture = await rollingOut(3, { type: 'InPlaceIfPossible', maxUnavailable: 1 });
    const result = await runUpdate(fixture);
    expect(result).toEqual({ changed: true, blocked: [], skipped: [] });
    const [updated] = podWrites(fixture).map((write) => write.split(' ')[1]);
    expect(podWrites(fixture)).toEqual([`patch/status ${updated ?? ''}`, `patch ${updated ?? ''}`]);
    const pod = fixture.fake.objects(podResource).find((candidate) => candidate.metadata?.name === updated);
    expect(pod?.spec?.containers[0]?.image).toBe('nginx:1.27');
    expect(pod?.status?.conditions?.find((condition) => condition.type === 'InPlaceUpdateReady')?.status).toBe('False');
    expect(fixture.recorder.reasons()).toEqual(['SuccessfulUpdatePodInPlace']);
  });

  it('paused: a new revision updates nothing', async () => {
    const fixture = await rollingOut(3, { type: 'InPlaceIfPossible', paused: true });
    expect(await runUpdate(fixture)).toEqual({ changed: false, blocked: [], skipped: [] });
    expect(podWrites(fixture)).toEqual([]);
  });

  it('InPlaceOnly with a change that needs new pods: blocked, reported, no pod written', async () => {
    const fixture = syncFixture([cloneSet({ spec: webSpec(2, { updateStrategy: { type: 'InPlaceOnly' } }) })]);
    await settle(fixture);
    const spec = webSpec(2, { updateStrategy: { type: 'InPlaceOnly' } });
    await editSpec(fixture, {
      ...spec,
      template: {
        ...spec.template,
        spec: { containers: [{ name: 'main', image: 'nginx:1.25', env: [{ name: 'MODE', value: 'strict' }] }] },
      },
    });
    const result = await runUpdate(fixture);
    expect(result.blocked).toHaveLength(1);
    expect(result.blocked[0]).toContain('update strategy is InPlaceOnly but can not update in-place');
    expect(podWrites(fixture)).toEqual([]);
    expect(fixture.recorder.reasons()).toEqual(['FailedUpdatePodInPlace']);
  });

  it('skips a pod whose in-place update state cannot be read, and updates the others', async () => {
    let bad = '';
    const fixture = await rollingOut(
      3,
      { type: 'InPlaceIfPossible', maxUnavailable: '100%' },
      {
        before: async (f) => {
          bad = podNames(f)[0] ?? '';
          await annotate(f, bad, { 'apps.kruise.io/inplace-update-state': '{not json' });
        },
      },
    );
    const result = await runUpdate(fixture);
    expect(result.skipped).toEqual([
      { name: bad, reason: expect.stringContaining('apps.kruise.io/inplace-update-state') as unknown },
    ]);
    const written = new Set(podWrites(fixture).map((write) => write.split(' ')[1]));
    expect([...written].sort()).toEqual(podNames(fixture).filter((name) => name !== bad));
  });

  it('a refresh that writes a pod and the update of others happen in the same call', async () => {
    let relabelled = '';
    const fixture = await rollingOut(
      3,
      { type: 'InPlaceIfPossible', maxUnavailable: 1 },
      {
        before: async (f) => {
          relabelled = podNames(f)[2] ?? '';
          await f.fake.patch(
            podResource,
            { namespace: NAMESPACE, name: relabelled },
            { type: 'json', body: [{ op: 'remove', path: '/metadata/labels/pod-template-hash' }] },
          );
        },
      },
    );
    await runUpdate(fixture);
    const writes = podWrites(fixture);
    expect(writes[0]).toBe(`patch ${relabelled}`);
    expect(writes.slice(1)).toHaveLength(2);
    expect(writes.slice(1).every((write) => write.startsWith('patch'))).toBe(true);
  });

  it('leaves a pod waiting in PreparingDelete alone', async () => {
    let waiting = '';
    const fixture = await rollingOut(
      3,
      { type: 'InPlaceIfPossible', maxUnavailable: '100%' },
      {
        before: async (f) => {
          waiting = podNames(f)[1] ?? '';
          await f.fake.patch(
            podResource,
            { namespace: NAMESPACE, name: waiting },
            { type: 'merge', body: { metadata: { labels: { 'lifecycle.apps.kruise.io/state': 'PreparingDelete' } } } },
          );
        },
      },
    );
    await runUpdate(fixture);
    expect(podWrites(fixture).some((write) => write.endsWith(` ${waiting}`))).toBe(false);
    expect(podWrites(fixture)).toHaveLength(4);
  });

  it('tries every selected pod, then throws the failure with what went through', async () => {
    const fixture = await rollingOut(3, { type: 'InPlaceIfPossible', maxUnavailable: '100%' });
    const [refused] = podNames(fixture);
    fixture.fake.prependReactor({ verb: 'patch', resource: 'pods', name: refused ?? '' }, () => {
      throw fakeApiError({ code: 403, reason: 'Forbidden', message: 'forbidden by policy' });
    });
    const failure = await runUpdate(fixture).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(UpdateError);
    expect((failure as UpdateError).result.changed).toBe(true);
    expect(
      fixture.fake.objects(podResource).filter((pod) => pod.spec?.containers[0]?.image === 'nginx:1.27'),
    ).toHaveLength(2);
    expect(fixture.recorder.reasons().filter((reason) => reason === 'FailedUpdatePodInPlace')).toHaveLength(1);
  });

  it('cancelled: an aborted signal writes nothing and reports nothing', async () => {
    const fixture = await rollingOut(3, { type: 'InPlaceIfPossible', maxUnavailable: '100%' });
    const stop = new AbortController();
    stop.abort(new Error('shutting down'));
    await expect(runUpdate(fixture, stop.signal)).rejects.toBeInstanceOf(UpdateError);
    expect(fixture.fake.writes()).toEqual([]);
    expect(fixture.recorder.events).toEqual([]);
  });

  it('ReCreate deletes the selected pods at once', async () => {
    const fixture = await rollingOut(4, { type: 'ReCreate', maxUnavailable: 2 });
    await runUpdate(fixture);
    expect(podWrites(fixture).map((write) => write.split(' ')[0])).toEqual(['delete', 'delete']);
    expect(fixture.recorder.reasons().sort()).toEqual([
      'SuccessfulDelete',
      'SuccessfulDelete',
      'SuccessfulUpdatePodReCreate',
      'SuccessfulUpdatePodReCreate',
    ]);
  });

  it('ReCreate: a refused delete is a Warning of the delete and of the recreate, and an UpdateError after the other pod was deleted', async () => {
    const fixture = await rollingOut(4, { type: 'ReCreate', maxUnavailable: 2 });
    const [refused] = podNames(fixture);
    fixture.fake.prependReactor({ verb: 'delete', resource: 'pods', name: refused ?? '' }, () => {
      throw fakeApiError({ code: 403, reason: 'Forbidden', message: 'forbidden by policy' });
    });
    const failure = await runUpdate(fixture).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(UpdateError);
    expect((failure as UpdateError).result.changed).toBe(true);
    expect(fixture.fake.objects(podResource)).toHaveLength(3);
    expect(fixture.recorder.reasons().sort()).toEqual([
      'FailedDelete',
      'FailedUpdatePodReCreate',
      'SuccessfulDelete',
      'SuccessfulUpdatePodReCreate',
    ]);
  });
});

describe('partition (over the in-memory API)', () => {
  const strategy = (partition: number): Strategy => ({ type: 'InPlaceIfPossible', maxUnavailable: '100%', partition });

  /** 4 pods rolled out to nginx:1.27 as far as partition 2 allows, settled. */
  async function partitioned(featureGates = ''): Promise<SyncFixture> {
    const fixture = syncFixture([cloneSet({ spec: webSpec(4, { updateStrategy: strategy(2) }) })], { featureGates });
    await settle(fixture);
    await editSpec(fixture, webSpec(4, { updateStrategy: strategy(2) }, 'nginx:1.27'));
    await settle(fixture);
    return fixture;
  }

  const images = (fixture: SyncFixture): string[] =>
    fixture.fake
      .objects(podResource)
      .map((pod) => pod.spec?.containers[0]?.image ?? '')
      .sort();

  it('stops at the partition: two pods updated, two kept, and nothing more to write', async () => {
    const fixture = await partitioned();
    expect(images(fixture)).toEqual(['nginx:1.25', 'nginx:1.25', 'nginx:1.27', 'nginx:1.27']);
    expect(await runUpdate(fixture)).toEqual({ changed: false, blocked: [], skipped: [] });
    expect(podWrites(fixture)).toEqual([]);
  });

  it.each([
    { gate: 'off', featureGates: '', after: ['nginx:1.25', 'nginx:1.25', 'nginx:1.27', 'nginx:1.27'] },
    {
      gate: 'on',
      featureGates: 'CloneSetPartitionRollback=true',
      after: ['nginx:1.25', 'nginx:1.25', 'nginx:1.25', 'nginx:1.27'],
    },
  ])(
    'raising the partition over updated pods with CloneSetPartitionRollback $gate',
    async ({ featureGates, after }) => {
      const fixture = await partitioned(featureGates);
      await editSpec(fixture, webSpec(4, { updateStrategy: strategy(3) }, 'nginx:1.27'));
      await settle(fixture);
      expect(images(fixture)).toEqual(after);
    },
  );
});

describe('update order (over the in-memory API)', () => {
  it('scatterStrategy (the seed example): with a budget for all, the 3 labelled pods of 10 are chosen 1st, 6th and 10th', async () => {
    const strategy: Strategy = {
      type: 'InPlaceIfPossible',
      maxUnavailable: '100%',
      scatterStrategy: [{ key: 'foo', value: 'bar' }],
    };
    const labelled = new Set<string>();
    const fixture = await rollingOut(10, strategy, {
      before: async (f) => {
        for (const index of [2, 3, 7]) {
          const name = podNames(f)[index] ?? '';
          labelled.add(name);
          await f.fake.patch(
            podResource,
            { namespace: NAMESPACE, name },
            { type: 'merge', body: { metadata: { labels: { foo: 'bar' } } } },
          );
        }
      },
    });
    await runUpdate(fixture);
    // The writes start in the order the pods were chosen: the first write of each pod gives it.
    const chosen = [
      ...new Set(
        fixture.fake
          .writes()
          .filter((action) => action.resource === 'pods')
          .map((action) => action.name),
      ),
    ];
    expect(chosen).toHaveLength(10);
    expect(chosen.flatMap((name, index) => (labelled.has(name) ? [index + 1] : []))).toEqual([1, 6, 10]);
  });
});
