import { describe, expect, it } from 'vitest';

import type { KubeObject } from '../client/kube-object.ts';
import { byControllerUid, byLabel, CONTROLLER_UID_INDEX } from './indexers.ts';
import { createLister } from './lister.ts';
import { Store } from './store.ts';

function pod(
  namespace: string,
  name: string,
  options: { owner?: string; labels?: Record<string, string>; rv?: string } = {},
): KubeObject {
  return {
    metadata: {
      namespace,
      name,
      resourceVersion: options.rv ?? '1',
      labels: options.labels ?? {},
      ownerReferences:
        options.owner === undefined
          ? []
          : [
              {
                apiVersion: 'apps.kruise.io/v1alpha1',
                kind: 'CloneSet',
                name: 'cs',
                uid: options.owner,
                controller: true,
              },
            ],
    },
  };
}

describe('Store', () => {
  it('keeps indexes in step with upserts and deletes', () => {
    const store = new Store<KubeObject>({ [CONTROLLER_UID_INDEX]: byControllerUid, app: byLabel('app') });
    store.upsert(pod('a', 'p1', { owner: 'u1', labels: { app: 'web' } }));
    store.upsert(pod('a', 'p2', { owner: 'u1', labels: { app: 'db' } }));
    store.upsert(pod('b', 'p3', { owner: 'u2' }));
    expect(
      store
        .byIndex(CONTROLLER_UID_INDEX, 'u1')
        .map((p) => p.metadata?.name)
        .sort(),
    ).toEqual(['p1', 'p2']);

    // A pod released by its owner leaves the owner's index.
    store.upsert(pod('a', 'p2', { labels: { app: 'web' }, rv: '2' }));
    expect(store.byIndex(CONTROLLER_UID_INDEX, 'u1').map((p) => p.metadata?.name)).toEqual(['p1']);
    expect(
      store
        .byIndex('app', 'web')
        .map((p) => p.metadata?.name)
        .sort(),
    ).toEqual(['p1', 'p2']);

    expect(store.delete('a/p1')?.metadata?.name).toBe('p1');
    expect(store.byIndex(CONTROLLER_UID_INDEX, 'u1')).toEqual([]);
    expect(store.size).toBe(2);
  });

  it('indexes existing objects when an indexer is added later, accepts the same one again, and refuses another under its name', () => {
    const store = new Store<KubeObject>();
    store.upsert(pod('a', 'p1', { labels: { app: 'web' } }));
    const app = byLabel('app');
    store.addIndexers({ app });
    expect(store.byIndex('app', 'web')).toHaveLength(1);
    // Two controllers of one process asking for the same index of a shared informer.
    store.addIndexers({ app });
    expect(store.byIndex('app', 'web')).toHaveLength(1);
    expect(() => {
      store.addIndexers({ app: byLabel('app') });
    }).toThrow('indexer app already exists');
    expect(() => store.byIndex('nope', 'x')).toThrow('no indexer named nope');
  });
});

describe('Lister', () => {
  it('lists by namespace and label selector', () => {
    const store = new Store<KubeObject>();
    store.upsert(pod('a', 'p1', { labels: { app: 'web' } }));
    store.upsert(pod('a', 'p2', { labels: { app: 'db' } }));
    store.upsert(pod('b', 'p3', { labels: { app: 'web' } }));
    const lister = createLister(store);
    expect(
      lister
        .list({ namespace: 'a' })
        .map((p) => p.metadata?.name)
        .sort(),
    ).toEqual(['p1', 'p2']);
    expect(
      lister
        .list({ labelSelector: { matchLabels: { app: 'web' } } })
        .map((p) => p.metadata?.name)
        .sort(),
    ).toEqual(['p1', 'p3']);
    expect(lister.get('b', 'p3')?.metadata?.name).toBe('p3');
    expect(lister.get('b', 'nope')).toBeUndefined();
  });
});
