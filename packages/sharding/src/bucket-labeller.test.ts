import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';

import { defineResource, Informer } from '@kruise-ts/controller-runtime';
import type { DeepReadonly, KubeObject, OwnerReferenceLike, WatchScope } from '@kruise-ts/controller-runtime';
import { MemoryApi } from '@kruise-ts/controller-runtime/testing';

import { bucketLabelValue, bucketOf, bucketSelector, SHARD_BUCKET_LABEL, SHARD_BUCKETS } from './bucket.ts';
import { BucketGate } from './bucket-gate.ts';
import { WITHOUT_A_VALID_BUCKET } from './bucket-label-repair.ts';
import { BucketLabeller } from './bucket-labeller.ts';

const logger = pino({ level: 'silent' });
const pods = defineResource<KubeObject>({ group: '', version: 'v1', plural: 'pods', kind: 'Pod', namespaced: true });
const POD_NAME = 'statefulset.kubernetes.io/pod-name';
const WEB = bucketOf('ns', 'web');
const OTHER = (WEB + 1) % SHARD_BUCKETS;
const WEB_VALUE = bucketLabelValue(WEB);
const OTHER_VALUE = bucketLabelValue(OTHER);

const stops: AbortController[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) {
    stop.abort();
  }
});

function pod(name: string, extra: { labels?: Record<string, string>; owner?: 'ours' | 'native' } = {}): KubeObject {
  const ownerReferences: OwnerReferenceLike[] | undefined =
    extra.owner === undefined
      ? undefined
      : [
          extra.owner === 'ours'
            ? { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', name: 'web', uid: 'web', controller: true }
            : { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: 'db', controller: true },
        ];
  return {
    metadata: {
      namespace: 'ns',
      name,
      labels: { [POD_NAME]: name, ...extra.labels },
      ...(ownerReferences === undefined ? {} : { ownerReferences }),
    },
  };
}

/** An Advanced StatefulSet's labeller over the in-memory API; an orphan labelled app=web would be adopted by `ns/web`. */
function labellerOver(
  api: MemoryApi,
  gate: BucketGate,
): { labeller: BucketLabeller; scopes: WatchScope<KubeObject>[] } {
  const scopes: WatchScope<KubeObject>[] = [];
  const labeller = new BucketLabeller({
    client: { patch: (_resource, key, request) => api.patch(key.name, request) as Promise<never> },
    listWatcher: (scope) => {
      scopes.push(scope);
      return api.listWatcher(scope.labelSelector ?? '');
    },
    gate,
    logger,
    namespace: 'ns',
    qps: 100,
  });
  const orphanOwner = (object: DeepReadonly<KubeObject>): string | undefined =>
    object.metadata?.labels?.['app'] === 'web' ? 'ns/web' : undefined;
  labeller.add({
    resource: pods,
    labelSelector: POD_NAME,
    ownerKind: 'StatefulSet',
    ownerGroup: 'apps.kruise.io',
    orphanOwner,
  });
  return { labeller, scopes };
}

function run(runnable: {
  run?: (signal: AbortSignal) => Promise<void>;
  start?: (signal: AbortSignal) => Promise<void>;
}): void {
  const stop = new AbortController();
  stops.push(stop);
  void (runnable.start ?? runnable.run)?.call(runnable, stop.signal);
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  expect(condition(), what).toBe(true);
}

const bucketLabelOf = (api: MemoryApi, name: string): string | undefined =>
  api.get(name)?.metadata?.labels?.[SHARD_BUCKET_LABEL];

describe('BucketLabeller (issue 38)', () => {
  it('the ControllerRevision labeller has no selector and the Advanced StatefulSet pod labeller matches native StatefulSet pods: never-ours objects are not cached or written, and the unlabelled backlog reaches 0 after a migration', async () => {
    const api = new MemoryApi();
    const made = [
      pod('web-0', { owner: 'ours' }),
      pod('web-1', { owner: 'ours', labels: { [SHARD_BUCKET_LABEL]: 'x' } }),
      pod('web-2', { owner: 'ours', labels: { [SHARD_BUCKET_LABEL]: '64' } }),
      pod('web-9', { labels: { app: 'web' } }),
      pod('web-8', { labels: { app: 'both' } }),
      pod('db-0', { owner: 'native' }),
      pod('db-1', { owner: 'native', labels: { [SHARD_BUCKET_LABEL]: 'x', app: 'web' } }),
    ].map((object) => api.put(object));
    const gate = new BucketGate();
    const { labeller, scopes } = labellerOver(api, gate);
    run(labeller);
    // Not holding the bucket yet: the backlog counts what is ours, and holds the owner back.
    await until(() => labeller.pending() === 4, 'the backlog of web-0, web-1, web-2 and the orphan web-9');
    expect(scopes.map((scope) => scope.labelSelector)).toEqual([`${POD_NAME},${WITHOUT_A_VALID_BUCKET}`]);
    expect(labeller.cachedCount()).toBe(5);
    expect(labeller.blocks('ns/web')).toBe(true);
    gate.set(WEB, 'active');
    await until(() => labeller.pending() === 0, 'the backlog to reach 0');
    expect(
      ['web-0', 'web-1', 'web-2', 'web-9', 'web-8', 'db-0', 'db-1'].map((name) => bucketLabelOf(api, name)),
    ).toEqual([WEB_VALUE, WEB_VALUE, WEB_VALUE, WEB_VALUE, undefined, undefined, 'x']);
    expect(api.patches.map((patch) => patch.name).sort()).toEqual(['web-0', 'web-1', 'web-2', 'web-9']);
    // The native StatefulSet's pods are as they were made; only the contested orphan stays cached.
    expect(['db-0', 'db-1'].map((name) => api.get(name)?.metadata?.resourceVersion)).toEqual(
      made.slice(5).map((object) => object.metadata?.resourceVersion),
    );
    expect(labeller.cachedCount()).toBe(1);
    expect(labeller.blocks('ns/web')).toBe(false);
  });

  it("a bucket label with a wrong or malformed value hides the object from every replica: the holder of the bucket a wrong label names relabels it to its owner's, and leaves another controller's objects alone", async () => {
    const api = new MemoryApi();
    api.put(pod('web-3', { owner: 'ours', labels: { [SHARD_BUCKET_LABEL]: OTHER_VALUE } }));
    const native = api.put(pod('db-2', { owner: 'native', labels: { [SHARD_BUCKET_LABEL]: OTHER_VALUE } }));
    api.put(pod('web-0', { owner: 'ours' }));
    // This replica holds the bucket the wrong labels name, not web's.
    const gate = new BucketGate();
    gate.set(OTHER, 'active');
    const cache = new Informer<KubeObject>({
      listWatcher: api.listWatcher(`${POD_NAME},${bucketSelector([OTHER])}`),
      description: 'sharded pods',
      logger,
    });
    gate.register(cache, pods);
    const { labeller } = labellerOver(api, gate);
    run(cache);
    run(labeller);
    await until(
      () => bucketLabelOf(api, 'web-3') === WEB_VALUE && cache.lister().list().length === 1,
      'web-3 relabelled and gone from the sharded cache',
    );
    expect(
      cache
        .lister()
        .list()
        .map((object) => object.metadata?.name),
    ).toEqual(['db-2']);
    expect(api.get('db-2')?.metadata?.resourceVersion).toBe(native.metadata?.resourceVersion);
    // An unlabelled object of a bucket this replica does not hold is its owner's replica's to label.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(api.patches.map((patch) => [patch.name, patch.value])).toEqual([['web-3', WEB_VALUE]]);
    expect([labeller.pending(), labeller.blocks('ns/web')]).toEqual([1, true]);
  });

  it('never writes a label chosen for what the object was: one that another controller took meanwhile conflicts, and is dropped', async () => {
    const api = new MemoryApi();
    api.put(pod('web-0', { owner: 'ours' }));
    api.beforePatch = (name) => {
      api.beforePatch = undefined;
      api.put(pod(name, { owner: 'native' }));
    };
    const gate = new BucketGate();
    gate.set(WEB, 'active');
    const { labeller } = labellerOver(api, gate);
    run(labeller);
    await until(
      () => api.patches.length === 1 && labeller.cachedCount() === 0,
      'the patch tried and the object dropped',
    );
    expect(bucketLabelOf(api, 'web-0')).toBeUndefined();
    expect(labeller.pending()).toBe(0);
  });
});
