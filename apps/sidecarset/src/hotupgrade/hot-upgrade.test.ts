import { describe, expect, it } from 'vitest';

import { SIDECARSET_WORKING_HOT_UPGRADE_CONTAINER_ANNOTATION, sidecarSetSchema } from '@kruise-ts/api';
import type { Pod, SidecarSet } from '@kruise-ts/api';
import type { JsonPatchOperation } from '@kruise-ts/controller-runtime';

import { injectSidecars } from '../injection/inject-pod.ts';
import { flipPatch } from './flip.ts';
import { hasAllSidecars, pairsToFlip, pairUpgrade, podSidecarNames } from './hot-upgrade.ts';

const EMPTY = 'empty:1';

function hotSet(image: string, resourceVersion = '42'): SidecarSet {
  return sidecarSetSchema.parse({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'SidecarSet',
    metadata: { name: 'mesh', resourceVersion },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      containers: [
        { name: 'proxy', image, upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: EMPTY } },
        { name: 'logger', image: 'busybox:1' },
      ],
    },
  });
}

const APP: Pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'ns', resourceVersion: '7', labels: { app: 'web' } },
  spec: { containers: [{ name: 'app', image: 'app:1' }] },
};

/** The pod as the kubelet reports it: every container running its spec image, ready or not. */
function running(pod: Pod, options: { readonly ready?: boolean; readonly notReady?: readonly string[] } = {}): Pod {
  const statuses = (pod.spec?.containers ?? []).map((container) => ({
    name: container.name,
    image: container.image ?? '',
    imageID: `id-${container.image ?? ''}`,
    ready: !(options.notReady ?? []).includes(container.name),
    restartCount: 0,
  }));
  const ready = options.ready ?? true;
  return {
    ...pod,
    status: {
      phase: 'Running',
      containerStatuses: statuses,
      conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }],
    },
  };
}

/** Applies add/replace operations (what createJsonPatch emits here) to a copy. */
function applyPatch(pod: Pod, operations: readonly JsonPatchOperation[]): Pod {
  const copy = structuredClone(pod);
  for (const operation of operations) {
    if (operation.op !== 'add' && operation.op !== 'replace') {
      continue;
    }
    const tokens = operation.path
      .split('/')
      .slice(1)
      .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
    const last = tokens.pop() ?? '';
    const parent = tokens.reduce<Record<string, unknown>>(
      (node, token) => node[token] as Record<string, unknown>,
      copy as unknown as Record<string, unknown>,
    );
    parent[last] = operation.value;
  }
  return copy;
}

const imageOf = (pod: Pod, name: string) => pod.spec?.containers.find((container) => container.name === name)?.image;

describe('hot upgrade injection', () => {
  it('injects proxy as proxy-1 (working) and proxy-2 (empty), beside a cold sidecar', () => {
    const pod = injectSidecars(APP, [hotSet('envoy:1')], new Date(0));
    expect(pod.spec?.containers.map((container) => [container.name, container.image])).toEqual([
      ['proxy-1', 'envoy:1'],
      ['proxy-2', EMPTY],
      ['logger', 'busybox:1'],
      ['app', 'app:1'],
    ]);
    expect(podSidecarNames(hotSet('x'))).toEqual(['proxy-1', 'proxy-2', 'logger']);
    expect(hasAllSidecars(pod, hotSet('x'))).toBe(true);
    expect(JSON.parse(pod.metadata?.annotations?.['kruise.io/sidecarset-hash'] ?? '{}')).toMatchObject({
      mesh: { sidecarList: ['logger', 'proxy'] },
    });
  });

  it('does not count a pod whose working entry is missing as having the sidecars', () => {
    const pod = injectSidecars(APP, [hotSet('envoy:1')], new Date(0));
    const annotations = { ...pod.metadata?.annotations };
    Reflect.deleteProperty(annotations, SIDECARSET_WORKING_HOT_UPGRADE_CONTAINER_ANNOTATION);
    expect(hasAllSidecars({ ...pod, metadata: { ...pod.metadata, annotations } }, hotSet('x'))).toBe(false);
  });
});

describe('pairUpgrade and flipPatch', () => {
  const injected = running(injectSidecars(APP, [hotSet('envoy:1')], new Date(0)));

  it('puts the new image on the idle member and makes it the working one, with the versions', () => {
    const change = pairUpgrade(injected, hotSet('envoy:2', '99'));
    expect([...change.images]).toEqual([['proxy-2', 'envoy:2']]);
    expect(change.annotations).toEqual({
      [SIDECARSET_WORKING_HOT_UPGRADE_CONTAINER_ANNOTATION]: '{"proxy":"proxy-2"}',
      'version.sidecarset.kruise.io/proxy-2': '99',
      'versionalt.sidecarset.kruise.io/proxy-2': '1',
      'versionalt.sidecarset.kruise.io/proxy-1': '99',
    });
    expect(pairUpgrade(injected, hotSet('envoy:1')).images.size).toBe(0);
  });

  it('flips only once the new member runs, then resets the old one to the empty image', () => {
    const set = hotSet('envoy:2', '99');
    const change = pairUpgrade(injected, set);
    const upgraded: Pod = {
      ...injected,
      metadata: { ...injected.metadata, annotations: { ...injected.metadata?.annotations, ...change.annotations } },
      spec: {
        containers: (injected.spec?.containers ?? []).map((container) => ({
          ...container,
          image: change.images.get(container.name) ?? container.image ?? '',
        })),
      },
    };
    expect(pairsToFlip(upgraded, set).map((pair) => pair.other)).toEqual(['proxy-1']);
    // The kubelet still runs the empty image in proxy-2 (recorded as the state before): not yet.
    const recorded = {
      ...upgraded,
      metadata: {
        ...upgraded.metadata,
        annotations: {
          ...upgraded.metadata?.annotations,
          'kruise.io/sidecarset-inplace-update-state': JSON.stringify({
            mesh: { lastContainerStatuses: { 'proxy-2': { imageID: `id-${EMPTY}` } } },
          }),
        },
      },
    };
    expect(flipPatch({ ...recorded, status: injected.status ?? {} }, set)).toBeUndefined();
    // Running the new image, pod not Ready and the new member not ready: not yet either.
    expect(flipPatch(running(recorded, { ready: false, notReady: ['proxy-2'] }), set)).toBeUndefined();
    // Pod not Ready but every member except the old one ready: flip.
    const patch = flipPatch(running(recorded, { ready: false, notReady: ['proxy-1'] }), set);
    expect(patch?.[0]).toEqual({ op: 'test', path: '/metadata/resourceVersion', value: '7' });
    const flipped = applyPatch(running(recorded), patch ?? []);
    expect([imageOf(flipped, 'proxy-1'), imageOf(flipped, 'proxy-2')]).toEqual([EMPTY, 'envoy:2']);
    expect(flipped.metadata?.annotations).toMatchObject({
      'version.sidecarset.kruise.io/proxy-1': '0',
      'versionalt.sidecarset.kruise.io/proxy-2': '0',
    });
    expect(pairsToFlip(flipped, set)).toEqual([]);
  });
});
