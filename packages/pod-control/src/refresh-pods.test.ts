import { describe, expect, it } from 'vitest';

import type { Lifecycle, Pod } from '@kruise-ts/api';
import { fakeApiError } from '@kruise-ts/controller-runtime/testing';
import { podResource } from '@kruise-ts/workload';

import {
  NAMESPACE,
  owner,
  pod,
  podControlFixture,
  revision,
  storedPods,
  template,
  writes,
} from '../test/fixtures/pod-control-fixture.ts';
import type { PodControlFixture, PodOptions } from '../test/fixtures/pod-control-fixture.ts';
import { RefreshError, refreshPods } from './refresh-pods.ts';
import { InPlaceDecisions, PodUpdatePolicy, RECREATE, updatePodInPlace } from './update-pod.ts';

const FROM = revision(template('nginx:1.25'), 1);
const TO = revision(template('nginx:1.26'), 2);
const FROM_NAME = FROM.metadata?.name ?? '';
const TO_NAME = TO.metadata?.name ?? '';
const STATE_LABEL = 'lifecycle.apps.kruise.io/state';
const HOOK = 'example.com/hold';

function refresh(
  fixture: PodControlFixture,
  input: { lifecycle?: Lifecycle; podTemplateHashLabel?: boolean; names?: string[] } = {},
): ReturnType<typeof refreshPods> {
  const names = input.names ?? fixture.fake.objects(podResource).map((stored) => stored.metadata?.name ?? '');
  return refreshPods(fixture.ctx, {
    owner: owner(input.lifecycle),
    pods: storedPods(fixture, ...names),
    updateRevision: TO_NAME,
    podTemplateHashLabel: input.podTemplateHashLabel ?? false,
  });
}

function atRevision(name: string, options: PodOptions = {}): Pod {
  return pod(name, {
    running: true,
    gates: ['InPlaceUpdateReady'],
    trueConditions: ['InPlaceUpdateReady'],
    ...options,
    labels: { 'controller-revision-hash': FROM_NAME, ...options.labels },
  });
}

/** Starts the in-place update of `web-0` from FROM to TO (grace period `graceSeconds`), as the update step does. */
async function startUpdate(fixture: PodControlFixture, graceSeconds = 0): Promise<void> {
  const outcome = await updatePodInPlace(
    fixture.ctx,
    {
      owner: owner(),
      policy: PodUpdatePolicy.InPlaceIfPossible,
      gracePeriodSeconds: graceSeconds,
      revisions: [FROM, TO],
      revisionLabels: (name) => ({ 'controller-revision-hash': name }),
      stripManagedFields: false,
      recreateOnVolumeClaimTemplatesChange: false,
      decisions: new InPlaceDecisions(),
    },
    { pod: fixture.stored('web-0'), target: TO },
  );
  // These tests refresh an in-place update: one that was not started would prove nothing.
  expect(outcome).not.toBe(RECREATE);
  fixture.fake.clearActions();
}

/** The kubelet restarted `web-0`'s container on `image`. */
async function kubeletRuns(fixture: PodControlFixture, image: string): Promise<void> {
  await fixture.fake.patchStatus(
    podResource,
    { namespace: NAMESPACE, name: 'web-0' },
    {
      type: 'strategic',
      body: {
        status: {
          containerStatuses: [
            {
              name: 'main',
              image,
              imageID: `${image}@sha256:1`,
              ready: true,
              restartCount: 1,
              started: true,
              state: { running: { startedAt: '2026-01-01T00:00:01Z' } },
            },
          ],
        },
      },
    },
  );
  fixture.fake.clearActions();
}

function condition(stored: Pod, type: string): string | undefined {
  return stored.status?.conditions?.find((candidate) => candidate.type === type)?.status;
}

describe('refreshPods', () => {
  it('writes nothing for settled pods and returns the same pods', async () => {
    const fixture = podControlFixture({
      pods: [atRevision('web-0'), atRevision('web-1', { labels: { [STATE_LABEL]: 'Normal' } })],
    });
    const pods = storedPods(fixture, 'web-0', 'web-1');
    const result = await refreshPods(fixture.ctx, {
      owner: owner(),
      pods,
      updateRevision: TO_NAME,
      podTemplateHashLabel: false,
    });
    expect(result).toEqual({ pods, written: 0, skipped: [] });
    expect(result.pods).toBe(pods);
    expect(fixture.fake.actions).toEqual([]);
  });

  it('finishes an in-place update once the containers run the new images: InPlaceUpdateReady True and Normal, in one write', async () => {
    const fixture = podControlFixture({ pods: [atRevision('web-0')] });
    await startUpdate(fixture);
    expect((await refresh(fixture)).written).toBe(0);

    await kubeletRuns(fixture, 'nginx:1.26');
    const result = await refresh(fixture);
    expect(result.written).toBe(1);
    expect(writes(fixture.fake)).toEqual(['patch/status pods web-0']);
    const stored = fixture.stored('web-0');
    expect(condition(stored, 'InPlaceUpdateReady')).toBe('True');
    expect(stored.metadata?.labels?.[STATE_LABEL]).toBe('Normal');
    expect(result.pods[0]?.metadata?.resourceVersion).toBe(stored.metadata?.resourceVersion);
    expect(
      fixture.resourceVersionExpectations.isSatisfied({ metadata: { ...stored.metadata, resourceVersion: '1' } }),
    ).toBe(false);
  });

  it('applies the spec when the grace period is over, and asks to come back until then', async () => {
    const fixture = podControlFixture({ pods: [atRevision('web-0')] });
    await startUpdate(fixture, 5);
    await refresh(fixture);
    expect(fixture.fake.writes()).toEqual([]);
    expect(fixture.ctx.requeue.toResult()).toEqual({ requeueAfterMs: 6000 });

    fixture.clock.advance(6000);
    const result = await refresh(fixture);
    expect(result.written).toBe(1);
    expect(fixture.stored('web-0').spec?.containers[0]?.image).toBe('nginx:1.26');
  });

  it.each([
    {
      name: 'PreparingNormal with the preNormal hook applied',
      state: 'PreparingNormal',
      lifecycle: { preNormal: { finalizersHandler: [HOOK] } },
      finalizers: [HOOK],
      next: 'Normal',
    },
    {
      name: 'PreparingNormal without the hook applied',
      state: 'PreparingNormal',
      lifecycle: { preNormal: { finalizersHandler: [HOOK] } },
      finalizers: [],
      next: 'PreparingNormal',
    },
    { name: 'Updated without an inPlaceUpdate hook', state: 'Updated', lifecycle: {}, finalizers: [], next: 'Normal' },
    {
      name: 'Updated before the hook is back',
      state: 'Updated',
      lifecycle: { inPlaceUpdate: { finalizersHandler: [HOOK] } },
      finalizers: [],
      next: 'Updated',
    },
    { name: 'PreparingDelete', state: 'PreparingDelete', lifecycle: {}, finalizers: [], next: 'PreparingDelete' },
  ])('moves a pod in $name to $next', async ({ state, lifecycle, finalizers, next }) => {
    const fixture = podControlFixture({
      pods: [atRevision('web-0', { labels: { [STATE_LABEL]: state }, finalizers })],
    });
    const result = await refresh(fixture, { lifecycle });
    expect(result.written).toBe(next === state ? 0 : 1);
    expect(fixture.stored('web-0').metadata?.labels?.[STATE_LABEL]).toBe(next);
  });

  it('moves a pod rolled back to the update revision while in PreparingUpdate on', async () => {
    const fixture = podControlFixture({
      pods: [
        atRevision('web-0', { labels: { [STATE_LABEL]: 'PreparingUpdate', 'controller-revision-hash': TO_NAME } }),
      ],
    });
    await refresh(fixture);
    expect(fixture.stored('web-0').metadata?.labels?.[STATE_LABEL]).toBe('Normal');
  });

  it('gives pods the pod-template-hash label when the workload wants it', async () => {
    const fixture = podControlFixture({ pods: [atRevision('web-0')] });
    expect((await refresh(fixture)).written).toBe(0);
    const result = await refresh(fixture, { podTemplateHashLabel: true });
    expect(result.written).toBe(1);
    expect(fixture.stored('web-0').metadata?.labels?.['pod-template-hash']).toMatch(/^[a-z0-9]+$/);
  });

  it('skips a pod whose in-place annotation cannot be read, and refreshes the others', async () => {
    const fixture = podControlFixture({
      pods: [
        atRevision('web-0', { annotations: { 'apps.kruise.io/inplace-update-state': '{not json' } }),
        atRevision('web-1', { labels: { [STATE_LABEL]: 'Updated' } }),
      ],
    });
    const result = await refresh(fixture);
    expect(result.skipped).toMatchObject([{ name: 'web-0' }]);
    expect(result.written).toBe(1);
    expect(writes(fixture.fake)).toEqual(['patch pods web-1']);
  });

  it('tries every pod, then throws a RefreshError with what went through', async () => {
    const fixture = podControlFixture({
      pods: [
        atRevision('web-0', { labels: { [STATE_LABEL]: 'Updated' } }),
        atRevision('web-1', { labels: { [STATE_LABEL]: 'Updated' } }),
      ],
    });
    fixture.fake.prependReactor({ verb: 'patch', resource: 'pods', name: 'web-0' }, () => {
      throw fakeApiError({ code: 500, message: 'etcdserver: request timed out' });
    });
    const error = await refresh(fixture).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(RefreshError);
    const { result } = error as RefreshError;
    expect(result.written).toBe(1);
    expect(result.pods.map((p) => p.metadata?.labels?.[STATE_LABEL])).toEqual(['Updated', 'Normal']);
    expect(fixture.stored('web-1').metadata?.labels?.[STATE_LABEL]).toBe('Normal');
  });
});
