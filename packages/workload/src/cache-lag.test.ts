import { describe, expect, it } from 'vitest';

import type { KubeObject, Lister } from '@kruise-ts/controller-runtime';

import { ResourceVersionExpectations } from './expectations/resource-version-expectations.ts';
import { ScaleExpectations } from './expectations/scale-expectations.ts';
import { CACHE_LAG_RETRY_MS, expectedWritesWait, laggingOwnedObject, ownedPodsWait } from './cache-lag.ts';

function pod(name: string, resourceVersion: string, ownerUid: string): KubeObject {
  return {
    metadata: {
      namespace: 'ns',
      name,
      uid: `uid-${name}`,
      resourceVersion,
      ownerReferences: [
        { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'cs', uid: ownerUid, controller: true },
      ],
    },
  };
}

function listerOf(objects: readonly KubeObject[]): Lister<KubeObject> {
  const byKey = new Map(
    objects.map((object) => [`${object.metadata?.namespace ?? ''}/${object.metadata?.name ?? ''}`, object]),
  );
  return {
    get: (namespace, name) => byKey.get(`${namespace}/${name}`),
    getByKey: (key) => byKey.get(key),
    list: () => [...byKey.values()],
    byIndex: () => [],
  };
}

describe('laggingOwnedObject', () => {
  const cached = [pod('a', '10', 'owner-1'), pod('b', '10', 'owner-2')];

  it('names the owner’s object whose cached version is older than our last write', () => {
    const expectations = new ResourceVersionExpectations();
    expectations.expect(pod('a', '12', 'owner-1'));
    expect(laggingOwnedObject(expectations, listerOf(cached), 'owner-1')).toBe('ns/a');
  });

  it('ignores other owners’ objects, objects not in the cache, and caught-up objects', () => {
    const expectations = new ResourceVersionExpectations();
    expectations.expect(pod('b', '12', 'owner-2'));
    expectations.expect(pod('gone', '12', 'owner-1'));
    expectations.expect(pod('a', '10', 'owner-1'));
    expect(laggingOwnedObject(expectations, listerOf(cached), 'owner-1')).toBeUndefined();
    expect(laggingOwnedObject(expectations, listerOf(cached), 'owner-2')).toBe('ns/b');
  });
});

describe('ownedPodsWait', () => {
  const cached = [pod('a', '10', 'owner-1')];

  it.each([
    { name: 'nothing expected: no wait', create: false, write: false, want: undefined },
    { name: 'a creation expected: wait for it', create: true, write: false, want: 'our creations and deletions' },
    { name: 'our pod write not cached: wait a cache lag', create: false, write: true, want: 'our last write to ns/a' },
  ])('$name', ({ create, write, want }) => {
    const scaleExpectations = new ScaleExpectations();
    const resourceVersionExpectations = new ResourceVersionExpectations();
    if (create) {
      scaleExpectations.expect('ns/cs', 'create', 'a');
    }
    if (write) {
      resourceVersionExpectations.expect(pod('a', '12', 'owner-1'));
    }
    const input = { key: 'ns/cs', pods: listerOf(cached), ownerUid: 'owner-1' };
    const wait = ownedPodsWait({ scaleExpectations, resourceVersionExpectations }, input);
    expect(wait?.reason).toEqual(want === undefined ? undefined : expect.stringContaining(want));
    if (write) {
      expect(wait?.delayMs).toBe(CACHE_LAG_RETRY_MS);
    }
    expect(expectedWritesWait(scaleExpectations, 'ns/cs') !== undefined).toBe(create);
  });
});
