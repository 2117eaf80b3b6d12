import { describe, expect, it } from 'vitest';

import type { Pod } from '@kruise-ts/api';

import { runningPod } from '../../test/fixtures/revisions.ts';
import { isInPlaceUpdateCompleted } from './completion.ts';
import { envFromMetadataHash } from './env-from-metadata.ts';
import { formatRuntimeContainerMeta } from './runtime-containers-meta.ts';
import { formatInPlaceUpdateState } from './state.ts';
import type { InPlaceUpdateState } from './state.ts';

type Status = NonNullable<NonNullable<Pod['status']>['containerStatuses']>[number];

const STATE_KEY = 'apps.kruise.io/inplace-update-state';
const imageUpdate: InPlaceUpdateState = {
  revision: 'demo-2',
  updateTimestamp: '2026-01-02T00:00:00Z',
  lastContainerStatuses: { main: { imageID: 'sim/nginx@sha256:1' } },
  updateImages: true,
};

interface PodChange {
  readonly state?: InPlaceUpdateState | string;
  readonly annotations?: Record<string, string>;
  readonly image?: string;
  readonly status?: Partial<Status>;
  readonly dropStatus?: boolean;
}

/** The fixture pod whose main container was updated to nginx:1.27 in spec, with its status changed by `status`. */
function pod(change: PodChange): Pod {
  const base = runningPod();
  const state =
    change.state === undefined
      ? {}
      : { [STATE_KEY]: typeof change.state === 'string' ? change.state : formatInPlaceUpdateState(change.state) };
  const containers = (base.spec?.containers ?? []).map((c) =>
    c.name === 'main' ? { ...c, image: change.image ?? 'nginx:1.27' } : c,
  );
  const statuses = (base.status?.containerStatuses ?? []).flatMap((s) =>
    s.name !== 'main' ? [s] : change.dropStatus === true ? [] : [{ ...s, ...change.status }],
  );
  return {
    ...base,
    metadata: { ...base.metadata, annotations: { ...base.metadata?.annotations, ...state, ...change.annotations } },
    spec: { ...base.spec, containers },
    status: { ...base.status, containerStatuses: statuses },
  };
}

const newImage: Partial<Status> = { image: 'nginx:1.27', imageID: 'sim/nginx@sha256:2', containerID: 'sim://main-1' };

describe('isInPlaceUpdateCompleted: images', () => {
  it.each<[string, PodChange, boolean]>([
    ['no state: never updated in place', {}, true],
    ['the new image runs', { state: imageUpdate, status: newImage }, true],
    ['the old image still runs', { state: imageUpdate }, false],
    [
      'same imageID but the status shows the spec image (a retag)',
      { state: imageUpdate, status: { image: 'nginx:1.27' } },
      true,
    ],
    [
      'a spec image without tag matches :latest',
      { state: imageUpdate, image: 'nginx', status: { image: 'nginx:latest' } },
      true,
    ],
    ['a recorded container has no status', { state: imageUpdate, dropStatus: true }, false],
    [
      'a grace period is pending',
      {
        state: imageUpdate,
        status: newImage,
        annotations: { 'apps.kruise.io/inplace-update-grace': '{"revision":"demo-2"}' },
      },
      false,
    ],
    [
      'a legacy grace annotation is pending',
      { state: imageUpdate, status: newImage, annotations: { 'inplace-update-grace': '{"revision":"demo-2"}' } },
      false,
    ],
    ['a malformed state', { state: '{"revision":' }, false],
    [
      'a deferred batch',
      { state: { ...imageUpdate, nextContainerImages: { sidecar: 'busybox:2' } }, status: newImage },
      false,
    ],
    ['a legacy state key', { annotations: { 'inplace-update-state': formatInPlaceUpdateState(imageUpdate) } }, false],
  ])('%s → %s', (_name, change, expected) => {
    expect(isInPlaceUpdateCompleted(pod(change), { verticalScaling: false })).toBe(expected);
  });
});

describe('isInPlaceUpdateCompleted: env from metadata', () => {
  const envUpdate: InPlaceUpdateState = {
    revision: 'demo-2',
    updateTimestamp: '2026-01-02T00:00:00Z',
    lastContainerStatuses: null,
    updateEnvFromMetadata: true,
  };

  function meta(p: Pod, overrides: { readonly hash?: number; readonly id?: string } = {}): string {
    const source = { labels: p.metadata?.labels, annotations: p.metadata?.annotations };
    return formatRuntimeContainerMeta({
      containers: (p.spec?.containers ?? []).map((c) => ({
        name: c.name,
        containerID: c.name === 'main' ? (overrides.id ?? 'sim://main-0') : 'sim://sidecar-0',
        restartCount: 0,
        hashes: {
          plainHash: 0,
          extractedEnvFromMetadataHash:
            c.name === 'main' ? (overrides.hash ?? envFromMetadataHash(c, source)) : envFromMetadataHash(c, source),
        },
      })),
    });
  }

  const envPod = (annotations: (p: Pod) => Record<string, string>): Pod => {
    const p = pod({ state: envUpdate, image: 'nginx:1.25' });
    return { ...p, metadata: { ...p.metadata, annotations: { ...p.metadata?.annotations, ...annotations(p) } } };
  };

  it.each<[string, Pod, boolean]>([
    ['no runtime-containers-meta', envPod(() => ({})), false],
    [
      'every container reports the current hash',
      envPod((p) => ({ 'apps.kruise.io/runtime-containers-meta': meta(p) })),
      true,
    ],
    [
      'a container reports the old hash',
      envPod((p) => ({ 'apps.kruise.io/runtime-containers-meta': meta(p, { hash: 1 }) })),
      false,
    ],
    [
      'the report is for an older container',
      envPod((p) => ({ 'apps.kruise.io/runtime-containers-meta': meta(p, { id: 'sim://main-old' }) })),
      false,
    ],
    ['a malformed report', envPod(() => ({ 'apps.kruise.io/runtime-containers-meta': '{"containers":5}' })), false],
  ])('%s → %s', (_name, p, expected) => {
    expect(isInPlaceUpdateCompleted(p, { verticalScaling: false })).toBe(expected);
  });
});

describe('isInPlaceUpdateCompleted: resources', () => {
  const resized: InPlaceUpdateState = {
    revision: 'demo-2',
    updateTimestamp: '2026-01-02T00:00:00Z',
    lastContainerStatuses: null,
    updateResources: true,
  };

  function resizedPod(mainResources: Status['resources'], sidecarResources: Status['resources'] = {}): Pod {
    const p = pod({
      state: resized,
      image: 'nginx:1.25',
      status: mainResources === undefined ? {} : { resources: mainResources },
    });
    const statuses = (p.status?.containerStatuses ?? []).map((s) =>
      s.name === 'sidecar' ? { ...s, resources: sidecarResources } : s,
    );
    return { ...p, status: { ...p.status, containerStatuses: statuses } };
  }

  it.each<{ name: string; pod: Pod; verticalScaling: boolean; expected: boolean }>([
    {
      name: 'statuses show the spec resources',
      pod: resizedPod({ requests: { cpu: '0.1', memory: '64Mi' }, limits: { cpu: '200m', memory: '128Mi' } }),
      verticalScaling: true,
      expected: true,
    },
    {
      name: 'a status still shows the old amount',
      pod: resizedPod({ requests: { cpu: '50m', memory: '64Mi' }, limits: { cpu: '200m', memory: '128Mi' } }),
      verticalScaling: true,
      expected: false,
    },
    { name: 'a status without resources', pod: resizedPod(undefined), verticalScaling: true, expected: false },
    {
      name: 'vertical scaling off: resources are not checked',
      pod: resizedPod(undefined),
      verticalScaling: false,
      expected: true,
    },
  ])('$name → $expected', ({ pod: p, verticalScaling, expected }) => {
    expect(isInPlaceUpdateCompleted(p, { verticalScaling })).toBe(expected);
  });
});
