/**
 * Per-ordinal PVCs of an Advanced StatefulSet on the real control plane, and the retention policy:
 * whenScaled Delete hands the claims of scaled-in ordinals to their pods (collected with them, with or
 * without other owners),
 * Retain keeps them and a scale-out reuses them, whenDeleted Delete makes the set their owner.
 */
import { describe, expect, it } from 'vitest';

import type { PersistentVolumeClaim } from '@kruise-ts/api';
import { observeObjects, testClient } from '@kruise-ts/controller-runtime/testing';
import { bucketLabels } from '@kruise-ts/sharding';
import { testKubeConfig } from '@kruise-ts/local-cluster/testing';
import { pvcResource } from '@kruise-ts/workload';

import { statefulSetResource } from '../../src/index.ts';
import { createStatefulSet, dbStatefulSet, settled, waitForSet, withController } from '../support/harness.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);
const dataTemplate = {
  metadata: { name: 'data', labels: { tier: 'storage' } },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
};

const nameOf = (claim: PersistentVolumeClaim): string => claim.metadata?.name ?? '';
const uidOf = (claim: PersistentVolumeClaim): string => claim.metadata?.uid ?? '';

async function claimsOf(namespace: string): Promise<PersistentVolumeClaim[]> {
  return (await client.list(pvcResource, { namespace })).items.sort((a, b) => nameOf(a).localeCompare(nameOf(b)));
}

function ownerKinds(claim: PersistentVolumeClaim): string[] {
  return (claim.metadata?.ownerReferences ?? []).map((ref) => `${ref.kind}/${ref.name}`);
}

function scaleTo(namespace: string, replicas: number): Promise<unknown> {
  return client.patch(statefulSetResource, { namespace, name: 'db' }, { type: 'merge', body: { spec: { replicas } } });
}

describe('Advanced StatefulSet claims', () => {
  it('creates <template>-<set>-<ordinal> claims, keeps them with Retain and reuses them on scale-out', async () => {
    await withController('asts-retain', async (namespace) => {
      await createStatefulSet(
        client,
        namespace,
        dbStatefulSet(2, { podManagementPolicy: 'Parallel', volumeClaimTemplates: [dataTemplate] }),
      );
      await waitForSet(client, { namespace, name: 'db', description: '2 ready pods' }, settled);
      const claims = await claimsOf(namespace);
      expect(claims.map(nameOf)).toEqual(['data-db-0', 'data-db-1']);
      // With the set's bucket (docs/sharding.md): a sharded replica caches a claim with its owner.
      expect(claims[0]?.metadata?.labels).toEqual({ tier: 'storage', app: 'db', ...bucketLabels(namespace, 'db') });
      expect(claims.map(ownerKinds)).toEqual([[], []]);
      await scaleTo(namespace, 1);
      await waitForSet(client, { namespace, name: 'db', description: '1 pod' }, (set) => set.status?.replicas === 1);
      expect((await claimsOf(namespace)).map(uidOf)).toEqual(claims.map(uidOf));
      await scaleTo(namespace, 2);
      await waitForSet(client, { namespace, name: 'db', description: '2 pods again' }, settled);
      expect((await claimsOf(namespace)).map(uidOf)).toEqual(claims.map(uidOf));
    });
  });

  it('whenScaled Delete with whenDeleted Retain: a claim without owners is handed to its scaled-in pod and goes with it', async () => {
    await withController('asts-scaled', async (namespace) => {
      await createStatefulSet(
        client,
        namespace,
        dbStatefulSet(2, {
          podManagementPolicy: 'Parallel',
          volumeClaimTemplates: [dataTemplate],
          persistentVolumeClaimRetentionPolicy: { whenScaled: 'Delete', whenDeleted: 'Retain' },
        }),
      );
      await waitForSet(client, { namespace, name: 'db', description: '2 ready pods' }, settled);
      // No owner at all: the hand-over's JSON patch replaces an absent member, which the API server accepts.
      expect((await claimsOf(namespace)).map(ownerKinds)).toEqual([[], []]);
      await scaleTo(namespace, 1);
      // Until the claim is gone, not only terminating: a terminating claim is still listed below.
      await expect
        .poll(async () => (await claimsOf(namespace)).map(nameOf), { timeout: 60_000 })
        .toEqual(['data-db-0']);
      expect((await claimsOf(namespace)).map(ownerKinds)).toEqual([[]]);
    });
  });

  it('whenScaled Delete: a scaled-in claim goes with its pod; whenDeleted Delete: the rest go with the set (garbage collection)', async () => {
    await withController('asts-delete', async (namespace) => {
      await createStatefulSet(
        client,
        namespace,
        dbStatefulSet(2, {
          podManagementPolicy: 'Parallel',
          volumeClaimTemplates: [dataTemplate],
          persistentVolumeClaimRetentionPolicy: { whenScaled: 'Delete', whenDeleted: 'Delete' },
        }),
      );
      await waitForSet(client, { namespace, name: 'db', description: '2 ready pods' }, settled);
      expect((await claimsOf(namespace)).map(ownerKinds)).toEqual([['StatefulSet/db'], ['StatefulSet/db']]);
      // Every owner data-db-1 had, from a watch: the hand-over to its pod and the pod's deletion can be
      // so close that the claim is collected between two polls (it was, in CI).
      const ownersOfScaledIn = new Set<string>();
      const observer = observeObjects(kubeConfig, { resource: pvcResource, namespace, labelSelector: '' }, (claims) => {
        for (const claim of claims.filter((c) => c.metadata?.name === 'data-db-1')) {
          ownersOfScaledIn.add(ownerKinds(claim as PersistentVolumeClaim).join(','));
        }
      });
      try {
        await observer.synced;
        await scaleTo(namespace, 1);
        await expect.poll(() => ownersOfScaledIn.has('Pod/db-1'), { timeout: 30_000 }).toBe(true);
      } finally {
        observer.stop();
      }
      expect(
        (await claimsOf(namespace))
          .find((claim) => nameOf(claim) === 'data-db-0')
          ?.metadata?.ownerReferences?.map((ref) => ref.kind),
      ).toEqual(['StatefulSet']);
      // The garbage collector removes the scaled-in claim with its pod, and the rest with the set.
      await expect
        .poll(
          async () =>
            (await claimsOf(namespace)).filter((claim) => claim.metadata?.deletionTimestamp === undefined).map(nameOf),
          { timeout: 60_000 },
        )
        .toEqual(['data-db-0']);
      await client.delete(statefulSetResource, { namespace, name: 'db' }, { propagationPolicy: 'Background' });
      await expect
        .poll(
          async () =>
            (await claimsOf(namespace)).filter((claim) => claim.metadata?.deletionTimestamp === undefined).map(nameOf),
          { timeout: 60_000 },
        )
        .toEqual([]);
    });
  });
});
