import { describe, expect, it } from 'vitest';

import type { OwnerReference, Pod } from '@kruise-ts/api';
import { bucketLabelValue, bucketOf, SHARD_BUCKET_LABEL, SHARD_BUCKETS } from '@kruise-ts/sharding';
import { podResource } from '@kruise-ts/workload';

import { reconcileFixture, statefulSet, webSpec } from '../../test/fixtures/reconcile-fixture.ts';
import type { ReconcileFixture } from '../../test/fixtures/reconcile-fixture.ts';

const SET_REF = {
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'StatefulSet',
  name: 'web',
  uid: 'sts-web',
  controller: true,
  blockOwnerDeletion: true,
};

/** A pod `web-0` the pod cache cannot see (no pod-name label), with the given labels and owners. */
function hiddenPod(input: { readonly labels?: Record<string, string>; readonly owners?: OwnerReference[] }): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'web-0',
      namespace: 'ns',
      uid: 'pod-web-0',
      ...(input.labels === undefined ? {} : { labels: input.labels }),
      ...(input.owners === undefined ? {} : { ownerReferences: input.owners }),
    },
    spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] },
  };
}

function fixtureWith(pod: Pod, options: { readonly cachedBucket?: string } = {}): ReconcileFixture {
  const fixture = reconcileFixture([statefulSet({ spec: webSpec(1, { podManagementPolicy: 'Parallel' }) })], options);
  fixture.fake.seed(podResource, [pod]);
  return fixture;
}

function storedPod(fixture: ReconcileFixture): Pod | undefined {
  return fixture.fake.objects(podResource).find((pod) => pod.metadata?.name === 'web-0');
}

describe('a pod name taken by a pod outside the cache', () => {
  it('releases our pod whose labels were removed, keeps it, and waits as upstream (FailedCreatePod: already exists)', async () => {
    const fixture = fixtureWith(hiddenPod({ owners: [SET_REF] }));
    await expect(fixture.reconcile()).rejects.toThrow(/already exists/);
    const pod = storedPod(fixture);
    expect(pod?.metadata?.uid).toBe('pod-web-0');
    expect(pod?.metadata?.ownerReferences ?? []).toEqual([]);
    expect(
      fixture.stored().status?.conditions?.find((condition) => condition.type === 'FailedCreatePod')?.message,
    ).toContain('already exists');
    // The release patch is guarded on the pod's uid.
    const release = fixture.fake.writes().find((action) => action.verb === 'patch' && action.resource === 'pods');
    expect(JSON.stringify(release)).toContain('"path":"/metadata/uid"');
  });

  it('gives our pod that still matches the selector its identity labels back', async () => {
    const fixture = fixtureWith(hiddenPod({ labels: { app: 'web' }, owners: [SET_REF] }));
    await expect(fixture.reconcile()).rejects.toThrow(/already exists/);
    const pod = storedPod(fixture);
    expect(pod?.metadata?.ownerReferences).toEqual([SET_REF]);
    expect(pod?.metadata?.labels).toMatchObject({
      app: 'web',
      'statefulset.kubernetes.io/pod-name': 'web-0',
      'apps.kubernetes.io/pod-index': '0',
    });
  });

  it('adopts a matching orphan and gives it its identity labels', async () => {
    const fixture = fixtureWith(hiddenPod({ labels: { app: 'web' } }));
    await expect(fixture.reconcile()).rejects.toThrow(/already exists/);
    const pod = storedPod(fixture);
    expect(pod?.metadata?.ownerReferences).toEqual([SET_REF]);
    expect(pod?.metadata?.labels?.['statefulset.kubernetes.io/pod-name']).toBe('web-0');
  });

  it("leaves another controller's pod and an orphan that does not match alone", async () => {
    const other = { ...SET_REF, name: 'other', uid: 'sts-other' };
    for (const pod of [
      hiddenPod({ labels: { app: 'web' }, owners: [other] }),
      hiddenPod({ labels: { app: 'else' } }),
    ]) {
      const fixture = fixtureWith(pod);
      await expect(fixture.reconcile()).rejects.toThrow(/already exists/);
      expect(storedPod(fixture)).toMatchObject(pod);
      expect(fixture.fake.writes().filter((action) => action.resource === 'pods' && action.verb === 'patch')).toEqual(
        [],
      );
    }
  });

  it("a bucket label with a wrong or malformed value hides the object from every replica: our pod under another bucket's label or a malformed one gets its set's bucket back at once, on condition of the version read", async () => {
    const bucket = bucketLabelValue(bucketOf('ns', 'web'));
    const identity = { app: 'web', 'statefulset.kubernetes.io/pod-name': 'web-0', 'apps.kubernetes.io/pod-index': '0' };
    for (const wrong of ['x', bucketLabelValue((bucketOf('ns', 'web') + 1) % SHARD_BUCKETS)]) {
      // The replica holding web's bucket caches only pods labelled with it: web-0 is out of its sight.
      const fixture = fixtureWith(
        hiddenPod({ labels: { ...identity, [SHARD_BUCKET_LABEL]: wrong }, owners: [SET_REF] }),
        { cachedBucket: bucket },
      );
      const read = storedPod(fixture)?.metadata?.resourceVersion;
      await expect(fixture.reconcile()).rejects.toThrow(/already exists/);
      expect(storedPod(fixture)?.metadata?.labels).toEqual({ ...identity, [SHARD_BUCKET_LABEL]: bucket });
      const patches = fixture.fake.writes().filter((action) => action.verb === 'patch' && action.resource === 'pods');
      expect(JSON.stringify(patches)).toContain(`"resourceVersion":"${read ?? ''}"`);
      // Back in sight, the pod is the set's: the next round creates nothing.
      fixture.fake.clearActions();
      await fixture.reconcile();
      expect(fixture.fake.writes().filter((action) => action.verb === 'create' && action.resource === 'pods')).toEqual(
        [],
      );
    }
  });

  it("leaves another controller's pod under a wrong bucket label as it is", async () => {
    const other = { ...SET_REF, name: 'other', uid: 'sts-other' };
    const pod = hiddenPod({
      labels: { app: 'web', 'statefulset.kubernetes.io/pod-name': 'web-0', [SHARD_BUCKET_LABEL]: 'x' },
      owners: [other],
    });
    const fixture = fixtureWith(pod, { cachedBucket: bucketLabelValue(bucketOf('ns', 'web')) });
    await expect(fixture.reconcile()).rejects.toThrow(/already exists/);
    expect(storedPod(fixture)).toMatchObject(pod);
    expect(fixture.fake.writes().filter((action) => action.resource === 'pods' && action.verb === 'patch')).toEqual([]);
  });
});
