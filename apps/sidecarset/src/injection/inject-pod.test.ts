import { describe, expect, it } from 'vitest';

import { sidecarSetSchema } from '@kruise-ts/api';
import type { Pod, SidecarSet, SidecarSetInput } from '@kruise-ts/api';

import { sidecarSetHash } from '../hash/sidecarset-hash.ts';
import { injectSidecars } from './inject-pod.ts';
import { injectingSidecarSets } from './pod-match.ts';

const NOW = new Date('2026-11-25T01:02:03.456Z');

function sidecarSet(name: string, spec: Partial<SidecarSetInput['spec']>): SidecarSet {
  return sidecarSetSchema.parse({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'SidecarSet',
    metadata: { name },
    spec: {
      selector: { matchLabels: { app: 'nginx' } },
      containers: [{ name: 'sidecar1', image: 'centos:6.7' }],
      ...spec,
    },
  });
}

function pod(spec: Partial<NonNullable<Pod['spec']>> = {}, metadata: Partial<NonNullable<Pod['metadata']>> = {}): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web-0', namespace: 'default', labels: { app: 'nginx' }, ...metadata },
    spec: { containers: [{ name: 'app', image: 'nginx' }], ...spec },
  };
}

const names = (containers: readonly { name: string }[] | undefined): string[] =>
  (containers ?? []).map((container) => container.name);

describe('injectSidecars', () => {
  it("injects the documentation's sidecar before the app, with its volume, IS_INJECTED and the pod's record", () => {
    const set = sidecarSet('test-sidecarset', {
      containers: [
        {
          name: 'sidecar1',
          image: 'centos:6.7',
          command: ['sleep', '999d'],
          volumeMounts: [{ name: 'log-volume', mountPath: '/var/log' }],
        },
      ],
      volumes: [
        { name: 'log-volume', emptyDir: {} },
        { name: 'unused', emptyDir: {} },
      ],
    });
    const input = Object.freeze(pod());
    const injected = injectSidecars(input, [set], NOW);
    expect(names(injected.spec?.containers)).toEqual(['sidecar1', 'app']);
    expect(injected.spec?.containers[0]).toEqual({
      name: 'sidecar1',
      image: 'centos:6.7',
      command: ['sleep', '999d'],
      volumeMounts: [{ name: 'log-volume', mountPath: '/var/log' }],
      env: [{ name: 'IS_INJECTED', value: 'true' }],
    });
    expect(injected.spec?.volumes).toEqual([{ name: 'log-volume', emptyDir: {} }]);
    const annotations = injected.metadata?.annotations ?? {};
    expect(annotations['kruise.io/sidecarset-injected-list']).toBe('test-sidecarset');
    expect(JSON.parse(annotations['kruise.io/sidecarset-hash'] ?? '')).toEqual({
      'test-sidecarset': {
        updateTimestamp: '2026-11-25T01:02:03Z',
        hash: sidecarSetHash(set.spec),
        sidecarSetName: 'test-sidecarset',
        sidecarList: ['sidecar1'],
      },
    });
    expect(annotations['kruise.io/sidecarset-hash']).toMatch(/^\{"test-sidecarset":\{"updateTimestamp":/);
    expect(input.spec?.containers).toHaveLength(1);
  });

  it.each([
    {
      name: 'AfterAppContainer goes after the app',
      sidecars: [{ name: 's', image: 'x', podInjectPolicy: 'AfterAppContainer' as const }],
      own: ['app'],
      expected: ['app', 's'],
    },
    {
      name: 'a sidecar of an existing name replaces it in place',
      sidecars: [{ name: 'app', image: 'x' }],
      own: ['first', 'app', 'last'],
      expected: ['first', 'app', 'last'],
    },
    {
      name: 'before and after groups keep their order',
      sidecars: [
        { name: 'b1', image: 'x' },
        { name: 'a1', image: 'x', podInjectPolicy: 'AfterAppContainer' as const },
        { name: 'b2', image: 'x' },
      ],
      own: ['app'],
      expected: ['b1', 'b2', 'app', 'a1'],
    },
  ])('$name', ({ sidecars, own, expected }) => {
    const injected = injectSidecars(
      pod({ containers: own.map((name) => ({ name, image: 'own' })) }),
      [sidecarSet('s', { containers: sidecars })],
      NOW,
    );
    expect(names(injected.spec?.containers)).toEqual(expected);
  });

  it('puts init containers sorted by name after the pod own ones (AfterAppContainer by default)', () => {
    const set = sidecarSet('s', {
      containers: [],
      initContainers: [
        { name: 'z-init', image: 'x' },
        { name: 'a-init', image: 'x' },
      ],
    });
    const injected = injectSidecars(pod({ initContainers: [{ name: 'own-init', image: 'y' }] }), [set], NOW);
    expect(names(injected.spec?.initContainers)).toEqual(['own-init', 'a-init', 'z-init']);
    expect(names(injected.spec?.containers)).toEqual(['app']);
  });

  it("keeps the pod's own volume and secret of the same name, and adds the rest once", () => {
    const set = sidecarSet('s', {
      containers: [
        {
          name: 's',
          image: 'x',
          volumeMounts: [
            { name: 'shared', mountPath: '/a' },
            { name: 'mine', mountPath: '/b' },
          ],
        },
      ],
      volumes: [
        { name: 'shared', emptyDir: {} },
        { name: 'mine', emptyDir: {} },
      ],
      imagePullSecrets: [{ name: 'regcred' }, { name: 'other' }],
    });
    const injected = injectSidecars(
      pod({ volumes: [{ name: 'shared', hostPath: { path: '/host' } }], imagePullSecrets: [{ name: 'regcred' }] }),
      [set],
      NOW,
    );
    expect(injected.spec?.volumes).toEqual([
      { name: 'shared', hostPath: { path: '/host' } },
      { name: 'mine', emptyDir: {} },
    ]);
    expect(injected.spec?.imagePullSecrets).toEqual([{ name: 'regcred' }, { name: 'other' }]);
  });

  it("shares the app containers' mounts (not an injected container's, not a path it mounts itself) with the env their subPathExpr needs", () => {
    const set = sidecarSet('s', {
      containers: [
        {
          name: 'logger',
          image: 'x',
          shareVolumePolicy: { type: 'enabled' },
          volumeMounts: [{ name: 'own', mountPath: '/data' }],
        },
      ],
    });
    const app = {
      name: 'app',
      image: 'nginx',
      env: [{ name: 'POD', value: 'p' }],
      volumeMounts: [
        { name: 'logs', mountPath: '/logs', subPathExpr: '$(POD)' },
        { name: 'data', mountPath: '/data' },
      ],
    };
    const injectedBefore = {
      name: 'old-sidecar',
      image: 'y',
      env: [{ name: 'IS_INJECTED', value: 'true' }],
      volumeMounts: [{ name: 'secret', mountPath: '/secret' }],
    };
    const injected = injectSidecars(pod({ containers: [app, injectedBefore] }), [set], NOW);
    const logger = injected.spec?.containers.find((container) => container.name === 'logger');
    expect(logger?.volumeMounts).toEqual([
      { name: 'own', mountPath: '/data' },
      { name: 'logs', mountPath: '/logs', subPathExpr: '$(POD)' },
    ]);
    expect(logger?.env).toEqual([
      { name: 'IS_INJECTED', value: 'true' },
      { name: 'POD', value: 'p' },
    ]);
  });

  it("shares the app containers' volume devices only with shareVolumeDevicePolicy enabled", () => {
    const app = { name: 'app', image: 'nginx', volumeDevices: [{ name: 'block', devicePath: '/dev/xvda' }] };
    const sharing = sidecarSet('s', {
      containers: [{ name: 'logger', image: 'x', shareVolumeDevicePolicy: { type: 'enabled' } }],
    });
    const notSharing = sidecarSet('s', { containers: [{ name: 'logger', image: 'x' }] });
    const device = (set: typeof sharing) =>
      injectSidecars(pod({ containers: [app] }), [set], NOW).spec?.containers.find(
        (container) => container.name === 'logger',
      )?.volumeDevices;
    expect(device(sharing)).toEqual([{ name: 'block', devicePath: '/dev/xvda' }]);
    expect(device(notSharing)).toBeUndefined();
  });

  it('transfers env vars from a container named directly or by a pod label, sorted, skipping missing ones', () => {
    const set = sidecarSet('s', {
      containers: [
        {
          name: 's',
          image: 'x',
          env: [{ name: 'B', value: 'sidecar-wins' }],
          transferEnv: [
            { sourceContainerName: 'app', envNames: ['C', 'A', 'MISSING'] },
            {
              sourceContainerNameFrom: { fieldRef: { apiVersion: 'v1', fieldPath: "metadata.labels['source']" } },
              envName: 'B',
            },
          ],
        },
      ],
    });
    const app = {
      name: 'app',
      image: 'nginx',
      env: [
        { name: 'A', value: '1' },
        { name: 'B', value: '2' },
        { name: 'C', value: '3' },
      ],
    };
    const injected = injectSidecars(
      pod({ containers: [app] }, { labels: { app: 'nginx', source: 'app' } }),
      [set],
      NOW,
    );
    expect(injected.spec?.containers[0]?.env).toEqual([
      { name: 'B', value: 'sidecar-wins' },
      { name: 'IS_INJECTED', value: 'true' },
      { name: 'A', value: '1' },
      { name: 'C', value: '3' },
    ]);
  });

  it('patches annotations: Retain keeps, Overwrite replaces, MergePatchJson merges', () => {
    const set = sidecarSet('s', {
      patchPodMetadata: [
        { annotations: { keep: 'new' } },
        { annotations: { replace: 'new' }, patchPolicy: 'Overwrite' },
        { annotations: { merge: '{"b":2,"c":null}' }, patchPolicy: 'MergePatchJson' },
      ],
    });
    const injected = injectSidecars(
      pod({}, { annotations: { keep: 'old', replace: 'old', merge: '{"a":1,"c":3}' } }),
      [set],
      NOW,
    );
    expect(injected.metadata?.annotations).toMatchObject({ keep: 'old', replace: 'new', merge: '{"a":1,"b":2}' });
  });

  it('adds to the injected list and hash map of a pod that already has entries', () => {
    const first = injectSidecars(pod(), [sidecarSet('b-set', {})], NOW);
    const both = injectSidecars(first, [sidecarSet('a-set', { containers: [{ name: 'other', image: 'x' }] })], NOW);
    expect(both.metadata?.annotations?.['kruise.io/sidecarset-injected-list']).toBe('a-set,b-set');
    expect(
      Object.keys(JSON.parse(both.metadata?.annotations?.['kruise.io/sidecarset-hash'] ?? '{}') as object),
    ).toEqual(['a-set', 'b-set']);
  });

  it('changes nothing but patched annotations when no SidecarSet injects', () => {
    const input = pod();
    expect(injectSidecars(input, [], NOW)).toEqual({ ...input, metadata: { ...input.metadata, annotations: {} } });
  });
});

describe('injectingSidecarSets', () => {
  const namespace = { name: 'default', labels: { team: 'a' } };
  it.each([
    { name: 'the selector matches', spec: {}, expected: true },
    { name: 'the selector does not match', spec: { selector: { matchLabels: { app: 'other' } } }, expected: false },
    { name: 'an empty selector never matches', spec: { selector: {} }, expected: false },
    { name: 'another namespace', spec: { namespace: 'kube-system' }, expected: false },
    { name: 'its namespace', spec: { namespace: 'default' }, expected: true },
    {
      name: 'a matching namespaceSelector',
      spec: { namespaceSelector: { matchLabels: { team: 'a' } } },
      expected: true,
    },
    { name: 'another namespaceSelector', spec: { namespaceSelector: { matchLabels: { team: 'b' } } }, expected: false },
    { name: 'injection paused', spec: { injectionStrategy: { paused: true } }, expected: false },
  ])('$name: $expected', ({ spec, expected }) => {
    expect(injectingSidecarSets([sidecarSet('s', spec)], pod(), namespace)).toHaveLength(expected ? 1 : 0);
  });

  it('does not match a namespaceSelector when the namespace could not be read, and sorts by name', () => {
    expect(
      injectingSidecarSets([sidecarSet('s', { namespaceSelector: { matchLabels: { team: 'a' } } })], pod(), {
        name: 'default',
        labels: undefined,
      }),
    ).toEqual([]);
    expect(
      injectingSidecarSets([sidecarSet('b', {}), sidecarSet('a', {})], pod(), namespace).map(
        (set) => set.metadata.name,
      ),
    ).toEqual(['a', 'b']);
  });
});
