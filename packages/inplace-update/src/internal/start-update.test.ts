import { describe, expect, it } from 'vitest';

import type { Pod } from '@kruise-ts/api';
import { ApiError } from '@kruise-ts/controller-runtime';

import { fakeClient } from '../../test/fixtures/fake-client.ts';
import { runningPod } from '../../test/fixtures/revisions.ts';
import { podNeedsUnready, startInPlaceUpdate, updateRestartsContainers } from './start-update.ts';
import type { UpdateSpec } from './update-spec.ts';

const NOW = Date.parse('2026-01-02T03:04:05Z');
const SPEC: UpdateSpec = {
  revision: 'demo-2',
  containerImages: { main: 'nginx:1.27' },
  containerRefMetadata: {},
  containerResources: {},
  metadataPatch: undefined,
  updateEnvFromMetadata: false,
  graceSeconds: 0,
};
const CALLER = {
  labels: { 'controller-revision-hash': 'demo-2', 'lifecycle.apps.kruise.io/state': 'Updating' },
  annotations: { 'lifecycle.apps.kruise.io/timestamp': '2026-01-02T03:04:05Z' },
};

function withoutGate(pod: Pod): Pod {
  return { ...pod, spec: { ...pod.spec, containers: pod.spec?.containers ?? [], readinessGates: [] } };
}

describe('startInPlaceUpdate', () => {
  it('image update: status write, then one pod patch on its resourceVersion', async () => {
    const { client, calls } = fakeClient(runningPod());
    const result = await startInPlaceUpdate({
      client,
      pod: runningPod(),
      spec: SPEC,
      now: NOW,
      ...CALLER,
      verticalScaling: false,
    });
    expect(result.writes).toBe(2);
    expect(result.delayMs).toBeUndefined();
    expect(calls.map((call) => call.verb)).toEqual(['patchStatus', 'patch']);
    expect(calls[0]?.body).toEqual({
      status: {
        conditions: [
          {
            type: 'InPlaceUpdateReady',
            status: 'False',
            reason: 'StartInPlaceUpdate',
            message: null,
            lastTransitionTime: '2026-01-02T03:04:05Z',
          },
          {
            type: 'Ready',
            status: 'False',
            reason: 'ReadinessGatesNotReady',
            message:
              'set by the workload controller before the kubelet: the status of pod readiness gate "InPlaceUpdateReady" is not "True", but False',
            lastTransitionTime: '2026-01-02T03:04:05Z',
          },
        ],
      },
    });
    expect(calls[1]?.body).toEqual({
      metadata: {
        resourceVersion: '11',
        labels: CALLER.labels,
        annotations: {
          ...CALLER.annotations,
          'apps.kruise.io/inplace-update-state':
            '{"revision":"demo-2","updateTimestamp":"2026-01-02T03:04:05Z","lastContainerStatuses":{"main":{"imageID":"sim/nginx@sha256:1"}},"updateImages":true,"containerBatchesRecord":[{"timestamp":"2026-01-02T03:04:05Z","containers":["main"]}]}',
        },
      },
      spec: { containers: [{ name: 'main', image: 'nginx:1.27' }] },
    });
  });

  it('stripManagedFields: the pod patch resets managedFields ([{}]), the status write does not (a subresource cannot)', async () => {
    const { client, calls } = fakeClient(runningPod());
    await startInPlaceUpdate({
      client,
      pod: runningPod(),
      spec: SPEC,
      now: NOW,
      ...CALLER,
      verticalScaling: false,
      stripManagedFields: true,
    });
    expect(calls.map((call) => call.verb)).toEqual(['patchStatus', 'patch']);
    expect(calls[0]?.body).not.toHaveProperty('metadata');
    expect(calls[1]?.body).toMatchObject({
      metadata: { resourceVersion: '11', managedFields: [{}] },
      spec: { containers: [{ name: 'main', image: 'nginx:1.27' }] },
    });
  });

  it('stripManagedFields with a grace period: the first pod patch (annotations only) resets them', async () => {
    const { client, calls } = fakeClient(runningPod());
    await startInPlaceUpdate({
      client,
      pod: runningPod(),
      spec: { ...SPEC, graceSeconds: 5 },
      now: NOW,
      ...CALLER,
      verticalScaling: false,
      stripManagedFields: true,
    });
    expect(calls[1]?.body).toMatchObject({ metadata: { managedFields: [{}] } });
  });

  it('grace period: the spec goes into the grace annotation, the pod spec is untouched', async () => {
    const { client, calls } = fakeClient(runningPod());
    const result = await startInPlaceUpdate({
      client,
      pod: runningPod(),
      spec: { ...SPEC, graceSeconds: 5 },
      now: NOW,
      ...CALLER,
      verticalScaling: false,
    });
    // NOW is a whole second; the grace counts from the end of that second (the state keeps whole seconds).
    expect(result).toMatchObject({ writes: 2, delayMs: 6000 });
    const body = calls[1]?.body as { metadata: { annotations: Record<string, string> }; spec?: unknown };
    expect(body.spec).toBeUndefined();
    expect(body.metadata.annotations['apps.kruise.io/inplace-update-grace']).toBe(
      '{"revision":"demo-2","containerImages":{"main":"nginx:1.27"},"graceSeconds":5}',
    );
    expect(body.metadata.annotations['apps.kruise.io/inplace-update-state']).toBe(
      '{"revision":"demo-2","updateTimestamp":"2026-01-02T03:04:05Z","lastContainerStatuses":null,"updateImages":true}',
    );
  });

  it('without the readiness gate: one write', async () => {
    const pod = withoutGate(runningPod());
    const { client, calls } = fakeClient(pod);
    const result = await startInPlaceUpdate({ client, pod, spec: SPEC, now: NOW, ...CALLER, verticalScaling: false });
    expect(result.writes).toBe(1);
    expect(calls.map((call) => call.verb)).toEqual(['patch']);
    expect(calls[0]?.body).toMatchObject({ metadata: { resourceVersion: '10' } });
  });

  it('env from metadata and template metadata: labels merged, legacy and grace keys deleted', async () => {
    const pod = runningPod({
      annotations: { 'inplace-update-state': '{}', 'apps.kruise.io/inplace-update-grace': '{"revision":"x"}' },
    });
    const { client, calls } = fakeClient(pod);
    const spec: UpdateSpec = {
      ...SPEC,
      containerImages: {},
      containerRefMetadata: { main: { labels: { track: 'canary' } } },
      metadataPatch: { labels: { extra: 'x', gone: null }, annotations: { note2: 'n' } },
      updateEnvFromMetadata: true,
    };
    await startInPlaceUpdate({ client, pod, spec, now: NOW, ...CALLER, verticalScaling: false });
    const body = calls[1]?.body as {
      metadata: { labels: Record<string, unknown>; annotations: Record<string, unknown> };
      spec?: unknown;
    };
    expect(body.spec).toBeUndefined();
    expect(body.metadata.labels).toEqual({ ...CALLER.labels, extra: 'x', gone: null, track: 'canary' });
    expect(body.metadata.annotations).toMatchObject({
      note2: 'n',
      'inplace-update-state': null,
      'apps.kruise.io/inplace-update-grace': null,
    });
    expect(body.metadata.annotations['apps.kruise.io/inplace-update-state']).toBe(
      '{"revision":"demo-2","updateTimestamp":"2026-01-02T03:04:05Z","lastContainerStatuses":null,"updateEnvFromMetadata":true,"containerBatchesRecord":[{"timestamp":"2026-01-02T03:04:05Z","containers":["main"]}]}',
    );
  });

  it('resize only: no readiness change, then pods/resize with the changed amounts', async () => {
    const { client, calls } = fakeClient(runningPod());
    const spec: UpdateSpec = {
      ...SPEC,
      containerImages: {},
      containerResources: { main: { limits: { cpu: '500m', memory: '128Mi' } } },
    };
    const result = await startInPlaceUpdate({
      client,
      pod: runningPod(),
      spec,
      now: NOW,
      ...CALLER,
      verticalScaling: true,
    });
    expect(result.writes).toBe(2);
    expect(calls.map((call) => [call.verb, call.subresource])).toEqual([
      ['patch', 'resize'],
      ['patch', undefined],
    ]);
    expect(calls[0]?.body).toEqual({
      spec: { containers: [{ name: 'main', resources: { limits: { cpu: '500m' } } }] },
    });
  });

  it('resize of a resource whose resizePolicy restarts the container: out of service first', async () => {
    const base = runningPod();
    const pod: Pod = {
      ...base,
      spec: {
        ...base.spec,
        containers: (base.spec?.containers ?? []).map((c) => ({
          ...c,
          resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'RestartContainer' }],
        })),
      },
    };
    const { client, calls } = fakeClient(pod);
    const spec: UpdateSpec = {
      ...SPEC,
      containerImages: {},
      containerResources: { main: { limits: { cpu: '500m' } } },
    };
    const result = await startInPlaceUpdate({ client, pod, spec, now: NOW, ...CALLER, verticalScaling: true });
    expect(result.writes).toBe(3);
    expect(calls.map((call) => call.verb)).toEqual(['patchStatus', 'patch', 'patch']);
  });

  it('retries a Conflict on a fresh read, and does not repeat the status write when it is there', async () => {
    const base = runningPod();
    const fresh: Pod = {
      ...base,
      status: {
        ...base.status,
        conditions: [
          { type: 'InPlaceUpdateReady', status: 'False' },
          { type: 'ContainersReady', status: 'True' },
          { type: 'Ready', status: 'False' },
        ],
      },
    };
    const { client, calls } = fakeClient(base, { patchConflicts: 1, fresh });
    const result = await startInPlaceUpdate({
      client,
      pod: base,
      spec: SPEC,
      now: NOW,
      ...CALLER,
      verticalScaling: false,
    });
    expect(calls.map((call) => call.verb)).toEqual(['patchStatus', 'patch', 'get', 'patch']);
    expect(result.writes).toBe(3);
  });

  it('gives up after a bounded number of Conflicts', async () => {
    const { client, calls } = fakeClient(runningPod(), { patchConflicts: 100 });
    await expect(
      startInPlaceUpdate({ client, pod: runningPod(), spec: SPEC, now: NOW, ...CALLER, verticalScaling: false }),
    ).rejects.toBeInstanceOf(ApiError);
    expect(calls.filter((call) => call.verb === 'get')).toHaveLength(5);
  });
});

describe('updateRestartsContainers and podNeedsUnready', () => {
  const resize: UpdateSpec = {
    ...SPEC,
    containerImages: {},
    containerResources: { main: { limits: { cpu: '500m' } } },
  };
  const restartOnCpu = (pod: Pod): Pod => ({
    ...pod,
    spec: {
      ...pod.spec,
      containers: (pod.spec?.containers ?? []).map((c) => ({
        ...c,
        resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'RestartContainer' }],
      })),
    },
  });
  it.each([
    { name: 'image change', pod: runningPod(), spec: SPEC, verticalScaling: false, restarts: true, unready: true },
    {
      name: 'image change, gate-less pod',
      pod: withoutGate(runningPod()),
      spec: SPEC,
      verticalScaling: false,
      restarts: true,
      unready: false,
    },
    {
      name: 'resize without vertical scaling (an image-less change is still a restart)',
      pod: runningPod(),
      spec: resize,
      verticalScaling: false,
      restarts: true,
      unready: true,
    },
    {
      name: 'resize, NotRequired policy',
      pod: runningPod(),
      spec: resize,
      verticalScaling: true,
      restarts: false,
      unready: false,
    },
    {
      name: 'resize, RestartContainer for cpu',
      pod: restartOnCpu(runningPod()),
      spec: resize,
      verticalScaling: true,
      restarts: true,
      unready: true,
    },
    {
      name: 'resize, RestartContainer for cpu, gate-less pod',
      pod: withoutGate(restartOnCpu(runningPod())),
      spec: resize,
      verticalScaling: true,
      restarts: true,
      unready: false,
    },
  ])('$name: restarts $restarts, leaves service $unready', ({ pod, spec, verticalScaling, restarts, unready }) => {
    expect(updateRestartsContainers(pod, spec, verticalScaling)).toBe(restarts);
    expect(podNeedsUnready(pod, spec, verticalScaling)).toBe(unready);
  });
});
