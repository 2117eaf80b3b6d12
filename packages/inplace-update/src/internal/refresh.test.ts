import { describe, expect, it } from 'vitest';

import type { Pod } from '@kruise-ts/api';

import { fakeClient } from '../../test/fixtures/fake-client.ts';
import { runningPod } from '../../test/fixtures/revisions.ts';
import { InPlaceUpdateAnnotationError } from './errors.ts';
import { formatGraceSpec } from './grace-spec.ts';
import { refreshInPlaceUpdate } from './refresh.ts';
import { formatInPlaceUpdateState } from './state.ts';
import type { InPlaceUpdateState } from './state.ts';
import type { UpdateSpec } from './update-spec.ts';

const NOW = Date.parse('2026-01-02T03:04:10Z');
const STATE_KEY = 'apps.kruise.io/inplace-update-state';
const GRACE_KEY = 'apps.kruise.io/inplace-update-grace';
const started: InPlaceUpdateState = {
  revision: 'demo-2',
  updateTimestamp: '2026-01-02T03:04:05Z',
  lastContainerStatuses: null,
  updateImages: true,
};
const spec: UpdateSpec = {
  revision: 'demo-2',
  containerImages: { main: 'nginx:1.27' },
  containerRefMetadata: {},
  containerResources: {},
  metadataPatch: undefined,
  updateEnvFromMetadata: false,
  graceSeconds: 5,
};

function podWith(
  annotations: Record<string, string>,
  options: { readonly revision?: string; readonly inPlaceReady?: string; readonly mainImage?: string } = {},
): Pod {
  const base = runningPod({ annotations, labels: { 'controller-revision-hash': options.revision ?? 'demo-2' } });
  const conditions = (base.status?.conditions ?? []).map((c) =>
    c.type === 'InPlaceUpdateReady' ? { ...c, status: options.inPlaceReady ?? 'True' } : c,
  );
  const containers = (base.spec?.containers ?? []).map((c) =>
    c.name === 'main' && options.mainImage !== undefined ? { ...c, image: options.mainImage } : c,
  );
  return { ...base, spec: { ...base.spec, containers }, status: { ...base.status, conditions } };
}

async function refresh(
  pod: Pod,
  now = NOW,
): Promise<{
  result: Awaited<ReturnType<typeof refreshInPlaceUpdate>>;
  calls: ReturnType<typeof fakeClient>['calls'];
}> {
  const { client, calls } = fakeClient(pod);
  const result = await refreshInPlaceUpdate({ client, pod, now, verticalScaling: false });
  return { result, calls };
}

describe('refreshInPlaceUpdate', () => {
  it('none: no update and the condition is True', async () => {
    const { result, calls } = await refresh(podWith({}));
    expect(result).toMatchObject({ outcome: 'none', writes: 0, delayMs: undefined });
    expect(calls).toEqual([]);
  });

  it('in-progress: the old image still runs', async () => {
    const state = { ...started, lastContainerStatuses: { main: { imageID: 'sim/nginx@sha256:1' } } };
    const { result } = await refresh(
      podWith({ [STATE_KEY]: formatInPlaceUpdateState(state) }, { inPlaceReady: 'False', mainImage: 'nginx:1.27' }),
    );
    expect(result).toMatchObject({ outcome: 'in-progress', writes: 0 });
  });

  it('completed: the containers are done and the condition is still False; nothing is written', async () => {
    const state = { ...started, lastContainerStatuses: { main: { imageID: 'sim/nginx@sha256:0' } } };
    const { result, calls } = await refresh(
      podWith({ [STATE_KEY]: formatInPlaceUpdateState(state) }, { inPlaceReady: 'False' }),
    );
    expect(result).toMatchObject({ outcome: 'completed', writes: 0 });
    expect(calls).toEqual([]);
  });

  it.each<[string, number, number]>([
    // Started within 03:04:05 (the state's whole second), so the 5 s count from 03:04:06.
    ['1 s after the start second ended', Date.parse('2026-01-02T03:04:07Z'), 4000],
    ['1.5 s after: rounded up to whole seconds', Date.parse('2026-01-02T03:04:07.500Z'), 4000],
    ['0.1 s before the end', Date.parse('2026-01-02T03:04:10.900Z'), 1000],
    ['5 s after the start second began: still 1 s to go', Date.parse('2026-01-02T03:04:10Z'), 1000],
  ])('grace-waiting: %s', async (_name, now, delayMs) => {
    const pod = podWith(
      { [STATE_KEY]: formatInPlaceUpdateState(started), [GRACE_KEY]: formatGraceSpec(spec) },
      { inPlaceReady: 'False' },
    );
    const { result, calls } = await refresh(pod, now);
    expect(result).toMatchObject({ outcome: 'grace-waiting', delayMs, writes: 0 });
    expect(calls).toEqual([]);
  });

  it('grace-applied: images, state and the grace annotation removed in one patch', async () => {
    const pod = podWith(
      { [STATE_KEY]: formatInPlaceUpdateState(started), [GRACE_KEY]: formatGraceSpec(spec) },
      { inPlaceReady: 'False' },
    );
    const { result, calls } = await refresh(pod, Date.parse('2026-01-02T03:04:11Z'));
    expect(result).toMatchObject({ outcome: 'grace-applied', writes: 1 });
    expect(calls[0]?.body).toEqual({
      metadata: {
        resourceVersion: '10',
        annotations: {
          [GRACE_KEY]: null,
          [STATE_KEY]:
            '{"revision":"demo-2","updateTimestamp":"2026-01-02T03:04:05Z","lastContainerStatuses":{"main":{"imageID":"sim/nginx@sha256:1"}},"updateImages":true,"containerBatchesRecord":[{"timestamp":"2026-01-02T03:04:11Z","containers":["main"]}]}',
        },
      },
      spec: { containers: [{ name: 'main', image: 'nginx:1.27' }] },
    });
  });

  it('grace-dropped: the pod moved to another revision meanwhile', async () => {
    const pod = podWith(
      { [STATE_KEY]: formatInPlaceUpdateState(started), 'inplace-update-grace': formatGraceSpec(spec) },
      { revision: 'demo-3' },
    );
    const { result, calls } = await refresh(pod);
    expect(result).toMatchObject({ outcome: 'grace-dropped', writes: 1 });
    expect(calls[0]?.body).toEqual({
      metadata: { resourceVersion: '10', annotations: { 'inplace-update-grace': null } },
    });
  });

  it('grace-dropped accepts a short-hash label (CloneSetShortHash) as the same revision', async () => {
    const pod = podWith(
      { [STATE_KEY]: formatInPlaceUpdateState(started), [GRACE_KEY]: formatGraceSpec(spec) },
      { revision: '2' },
    );
    const { result } = await refresh(pod, Date.parse('2026-01-02T03:04:06Z'));
    expect(result.outcome).toBe('grace-waiting');
  });

  it.each<[string, Record<string, string>]>([
    ['a grace annotation without state', { [GRACE_KEY]: formatGraceSpec(spec) }],
    ['a malformed grace annotation', { [GRACE_KEY]: '{' }],
    ['a malformed state annotation', { [STATE_KEY]: '[1]' }],
  ])('throws for %s', async (_name, annotations) => {
    await expect(refresh(podWith(annotations))).rejects.toBeInstanceOf(InPlaceUpdateAnnotationError);
  });

  it('applies a batch OpenKruise deferred once the previous batch is ready', async () => {
    const deferred: InPlaceUpdateState = {
      ...started,
      lastContainerStatuses: { main: { imageID: 'sim/nginx@sha256:0' } },
      nextContainerImages: { sidecar: 'busybox:2' },
      preCheckBeforeNext: { containersRequiredReady: ['main'] },
      containerBatchesRecord: [{ timestamp: '2026-01-02T03:04:05Z', containers: ['main'] }],
    };
    const { result, calls } = await refresh(
      podWith({ [STATE_KEY]: formatInPlaceUpdateState(deferred) }, { inPlaceReady: 'False' }),
    );
    expect(result).toMatchObject({ outcome: 'in-progress', writes: 1 });
    expect(calls[0]?.body).toEqual({
      metadata: {
        resourceVersion: '10',
        annotations: {
          [STATE_KEY]:
            '{"revision":"demo-2","updateTimestamp":"2026-01-02T03:04:05Z","lastContainerStatuses":{"main":{"imageID":"sim/nginx@sha256:0"},"sidecar":{"imageID":"sim/busybox@sha256:1"}},"updateImages":true,' +
            '"containerBatchesRecord":[{"timestamp":"2026-01-02T03:04:05Z","containers":["main"]},{"timestamp":"2026-01-02T03:04:10Z","containers":["sidecar"]}]}',
        },
      },
      spec: { containers: [{ name: 'sidecar', image: 'busybox:2' }] },
    });
  });

  it('waits for the previous batch to be ready before the next', async () => {
    const deferred: InPlaceUpdateState = {
      ...started,
      lastContainerStatuses: {},
      nextContainerImages: { sidecar: 'busybox:2' },
      preCheckBeforeNext: { containersRequiredReady: ['ghost'] },
    };
    const { result, calls } = await refresh(podWith({ [STATE_KEY]: formatInPlaceUpdateState(deferred) }));
    expect(result).toMatchObject({ outcome: 'in-progress', writes: 0 });
    expect(calls).toEqual([]);
  });
});
