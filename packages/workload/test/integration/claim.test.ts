import { describe, expect, it } from 'vitest';

import type { OwnerReference, Pod } from '@kruise-ts/api';
import {
  ApiError,
  createClient,
  defineResource,
  isInvalid,
  isNotFound,
  Transport,
} from '@kruise-ts/controller-runtime';
import type { Client, KubeObject } from '@kruise-ts/controller-runtime';
import { createTestNamespace, testKubeConfig } from '@kruise-ts/local-cluster/testing';

import { claimObjects, isSameLiveOwner, newControllerRef, podResource } from '../../src/index.ts';
import type { ClaimOwner } from '../../src/index.ts';

// A ConfigMap stands in for the workload: ownership works the same for any kind.
const configMaps = defineResource<KubeObject>({
  group: '',
  version: 'v1',
  plural: 'configmaps',
  kind: 'ConfigMap',
  namespaced: true,
});
const kubeConfig = testKubeConfig();
const selector = { matchLabels: { app: 'web' } };

function client(): Client {
  return createClient(new Transport({ kubeConfig, qps: 100, burst: 100, userAgent: 'kruise-ts-test' }));
}

async function createOwner(c: Client, namespace: string, name: string): Promise<ClaimOwner> {
  const created = await c.create(configMaps, { metadata: { name, namespace } });
  return { uid: created.metadata?.uid ?? '', name, namespace, apiVersion: 'v1', kind: 'ConfigMap', deleting: false };
}

async function createPod(
  c: Client,
  input: { namespace: string; name: string; labels: Record<string, string>; ownerReferences?: OwnerReference[] },
): Promise<Pod> {
  return c.create(podResource, {
    metadata: {
      name: input.name,
      namespace: input.namespace,
      labels: input.labels,
      ...(input.ownerReferences === undefined ? {} : { ownerReferences: input.ownerReferences }),
    },
    spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] },
  });
}

async function ownerRefs(c: Client, namespace: string, name: string): Promise<OwnerReference[]> {
  return (await c.get(podResource, { namespace, name })).metadata?.ownerReferences ?? [];
}

function claimWith(c: Client, owner: ClaimOwner, pods: readonly Pod[]): ReturnType<typeof claimObjects> {
  return claimObjects({
    owner,
    selector,
    objects: pods,
    kind: 'pod',
    patch: (pod, patch) => c.patch(podResource, { namespace: owner.namespace, name: pod.metadata?.name ?? '' }, patch),
    canAdopt: async () =>
      isSameLiveOwner(await c.get(configMaps, { namespace: owner.namespace, name: owner.name }), owner.uid),
  });
}

async function rejection(promise: Promise<unknown>): Promise<AggregateError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AggregateError) {
      return error;
    }
    throw error;
  }
  throw new Error('expected claimObjects to fail');
}

describe('claimObjects on a real API server', () => {
  it('adopts a matching orphan, releases a pod whose labels stopped matching and ignores pods of others', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'claim-pods');
    const c = client();
    const owner = await createOwner(c, ns.name, 'owner');
    const other = await createOwner(c, ns.name, 'other');
    await createPod(c, {
      namespace: ns.name,
      name: 'kept',
      labels: { app: 'web' },
      ownerReferences: [newControllerRef(owner)],
    });
    await createPod(c, { namespace: ns.name, name: 'orphan', labels: { app: 'web' } });
    await createPod(c, {
      namespace: ns.name,
      name: 'leaving',
      labels: { app: 'other' },
      ownerReferences: [newControllerRef(owner)],
    });
    await createPod(c, {
      namespace: ns.name,
      name: 'theirs',
      labels: { app: 'web' },
      ownerReferences: [newControllerRef(other)],
    });
    const pods = (await c.list(podResource, { namespace: ns.name })).items;

    const claimed = await claimWith(c, owner, pods);

    expect(claimed.map((p) => p.metadata?.name).sort()).toEqual(['kept', 'orphan']);
    expect(await ownerRefs(c, ns.name, 'orphan')).toEqual([newControllerRef(owner)]);
    expect(await ownerRefs(c, ns.name, 'leaving')).toEqual([]);
    expect(await ownerRefs(c, ns.name, 'theirs')).toEqual([newControllerRef(other)]);
    expect(await ownerRefs(c, ns.name, 'kept')).toEqual([newControllerRef(owner)]);
  });

  it('refuses to adopt for an owner that was deleted and recreated under the same name', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'claim-stale-owner');
    const c = client();
    const owner = await createOwner(c, ns.name, 'owner');
    await c.delete(configMaps, { namespace: ns.name, name: 'owner' });
    await createOwner(c, ns.name, 'owner');
    const orphan = await createPod(c, { namespace: ns.name, name: 'orphan', labels: { app: 'web' } });

    const error = await rejection(claimWith(c, owner, [orphan]));
    expect((error.errors[0] as Error).message).toContain('gone or being deleted');
    expect(await ownerRefs(c, ns.name, 'orphan')).toEqual([]);
  });

  it('does not clobber ownerReferences another actor changed since the pod was read', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'claim-concurrent');
    const c = client();
    const owner = await createOwner(c, ns.name, 'owner');
    const rival = await createOwner(c, ns.name, 'rival');
    const staleOrphan = await createPod(c, { namespace: ns.name, name: 'orphan', labels: { app: 'web' } });
    const staleLeaving = await createPod(c, {
      namespace: ns.name,
      name: 'leaving',
      labels: { app: 'other' },
      ownerReferences: [newControllerRef(owner)],
    });
    // Another controller adopts the orphan, and someone adds a reference to the leaving pod, after our read.
    await c.patch(
      podResource,
      { namespace: ns.name, name: 'orphan' },
      { type: 'merge', body: { metadata: { ownerReferences: [newControllerRef(rival)] } } },
    );
    const extra = { apiVersion: 'v1', kind: 'ConfigMap', name: 'rival', uid: rival.uid };
    await c.patch(
      podResource,
      { namespace: ns.name, name: 'leaving' },
      { type: 'merge', body: { metadata: { ownerReferences: [newControllerRef(owner), extra] } } },
    );

    const error = await rejection(claimWith(c, owner, [staleOrphan, staleLeaving]));

    expect(error.errors).toHaveLength(2);
    for (const failure of error.errors as Error[]) {
      expect(failure.cause).toBeInstanceOf(ApiError);
      // A failed JSON patch `test` comes back as 422 Invalid, not 409 Conflict.
      expect(isInvalid(failure.cause)).toBe(true);
      expect(isNotFound(failure.cause)).toBe(false);
    }
    expect(await ownerRefs(c, ns.name, 'orphan')).toEqual([newControllerRef(rival)]);
    expect(await ownerRefs(c, ns.name, 'leaving')).toEqual([newControllerRef(owner), extra]);

    // From a fresh read the claim decides again: the orphan is the rival's now, the other pod is released.
    const fresh = (await c.list(podResource, { namespace: ns.name })).items;
    expect(await claimWith(c, owner, fresh)).toEqual([]);
    expect(await ownerRefs(c, ns.name, 'leaving')).toEqual([extra]);
  });

  it('skips pods that were deleted in the meantime', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'claim-gone');
    const c = client();
    const owner = await createOwner(c, ns.name, 'owner');
    const orphan = await createPod(c, { namespace: ns.name, name: 'orphan', labels: { app: 'web' } });
    await c.delete(podResource, { namespace: ns.name, name: 'orphan' }, { gracePeriodSeconds: 0 });
    await expect(claimWith(c, owner, [orphan])).resolves.toEqual([]);
  });
});
