/**
 * volumeClaimUpdateStrategy OnPodRollingUpdate with gate StatefulSetAutoResizePVCGate (OpenKruise's
 * e2e "Resize PVC", test/e2e/apps/v1beta1/statefulset.go): when the template's storage request grows,
 * the claims of each pod are expanded in update order before the pod is updated, and the set settles
 * with every claim at the new size. The local control plane's default StorageClass allows expansion
 * and its binder binds the claims; it has no CSI resizer, so the test plays the resizer: it gives a
 * claim's PersistentVolume and status the capacity the claim requests once it was expanded.
 */
import { describe, expect, it } from 'vitest';

import type { PersistentVolumeClaim } from '@kruise-ts/api';
import { defineResource } from '@kruise-ts/controller-runtime';
import type { KubeObject } from '@kruise-ts/controller-runtime';
import { observeObjects, testClient } from '@kruise-ts/controller-runtime/testing';
import { uidOf } from '@kruise-ts/workload/testing';
import { testKubeConfig } from '@kruise-ts/local-cluster/testing';
import { podResource, pvcResource } from '@kruise-ts/workload';

import { statefulSetResource } from '../../src/index.ts';
import {
  createStatefulSet,
  dbStatefulSet,
  settled,
  startController,
  statefulSetNamespace,
  waitForSet,
} from '../support/harness.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);
const pvResource = defineResource<KubeObject>({
  group: '',
  version: 'v1',
  plural: 'persistentvolumes',
  kind: 'PersistentVolume',
  namespaced: false,
});

function template(storage: string): PersistentVolumeClaim {
  return { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } } } };
}

const nameOf = (claim: PersistentVolumeClaim): string => claim.metadata?.name ?? '';
const requestOf = (claim: PersistentVolumeClaim): string | undefined => claim.spec?.resources?.requests?.['storage'];
const capacityOf = (claim: PersistentVolumeClaim): string | undefined => claim.status?.capacity?.['storage'];

async function claims(namespace: string): Promise<PersistentVolumeClaim[]> {
  return (await client.list(pvcResource, { namespace })).items.sort((a, b) => nameOf(a).localeCompare(nameOf(b)));
}

async function podUids(namespace: string): Promise<string[]> {
  return (await client.list(podResource, { namespace, labelSelector: 'app=db' })).items.map(uidOf).sort();
}

/**
 * What an external resizer does once a bound claim requests more than it has: the volume, then the
 * claim's status. Returns the uid of the claim's pod before it did so (the controller cannot have
 * updated that pod yet: it waits for this capacity).
 */
async function resize(claim: PersistentVolumeClaim): Promise<string> {
  const namespace = claim.metadata?.namespace ?? '';
  const pod = await client.get(podResource, { namespace, name: nameOf(claim).replace(/^data-/, '') });
  const storage = requestOf(claim) ?? '';
  await client.patch(
    pvResource,
    { name: claim.spec?.volumeName ?? '' },
    { type: 'merge', body: { spec: { capacity: { storage } } } },
  );
  await client.patchStatus(
    pvcResource,
    { namespace, name: nameOf(claim) },
    { type: 'merge', body: { status: { capacity: { storage } } } },
  );
  return uidOf(pod);
}

/** Plays the resizer for the namespace's claims; returns the claims it resized, in order, and a stop. */
function playResizer(namespace: string): {
  resized: string[];
  podsAtResize: string[];
  errors: unknown[];
  stop: () => void;
  synced: Promise<void>;
} {
  const resized: string[] = [];
  const podsAtResize: string[] = [];
  const errors: unknown[] = [];
  const inFlight = new Set<string>();
  const observer = observeObjects(kubeConfig, { resource: pvcResource, namespace, labelSelector: '' }, (current) => {
    for (const claim of current as readonly PersistentVolumeClaim[]) {
      const key = `${nameOf(claim)}@${requestOf(claim) ?? ''}`;
      if (claim.status?.phase === 'Bound' && requestOf(claim) !== capacityOf(claim) && !inFlight.has(key)) {
        inFlight.add(key);
        resized.push(key);
        resize(claim).then(
          (uid) => podsAtResize.push(uid),
          (error: unknown) => errors.push(error),
        );
      }
    }
  });
  return {
    resized,
    podsAtResize,
    errors,
    stop: () => {
      observer.stop();
    },
    synced: observer.synced,
  };
}

describe('Advanced StatefulSet volumeClaimUpdateStrategy OnPodRollingUpdate', () => {
  it('expands the claims in update order when the template grows (with an image change: pods recreated after their claims; size only: pods kept)', async () => {
    await using ns = await statefulSetNamespace(kubeConfig, 'asts-resize');
    const controller = startController({
      kubeConfig,
      namespace: ns.name,
      featureGates: 'StatefulSetAutoResizePVCGate=true',
    });
    const resizer = playResizer(ns.name);
    try {
      await resizer.synced;
      await createStatefulSet(
        client,
        ns.name,
        dbStatefulSet(2, {
          podManagementPolicy: 'Parallel',
          volumeClaimTemplates: [template('1Gi')],
          volumeClaimUpdateStrategy: { type: 'OnPodRollingUpdate' },
        }),
      );
      await waitForSet(client, { namespace: ns.name, name: 'db', description: '2 ready pods' }, settled);
      await expect
        .poll(
          async () =>
            (await claims(ns.name)).map(
              (claim) => `${nameOf(claim)} ${claim.status?.phase ?? ''} ${capacityOf(claim) ?? ''}`,
            ),
          { timeout: 30_000 },
        )
        .toEqual(['data-db-0 Bound 1Gi', 'data-db-1 Bound 1Gi']);
      const before = await podUids(ns.name);

      // Image and storage together, as OpenKruise's e2e does: each pod is recreated after its claim was expanded.
      const image = {
        spec: {
          template: { spec: { containers: [{ name: 'main', image: 'nginx:1.27' }] } },
          volumeClaimTemplates: [template('2Gi')],
        },
      };
      await client.patch(statefulSetResource, { namespace: ns.name, name: 'db' }, { type: 'merge', body: image });
      const grown = await waitForSet(
        client,
        { namespace: ns.name, name: 'db', description: 'updated with 2Gi claims' },
        (set) => settled(set) && set.status?.volumeClaims?.[0]?.compatibleReadyReplicas === 2,
      );
      expect(grown.status?.volumeClaims).toEqual([
        { volumeClaimName: 'data', compatibleReplicas: 2, compatibleReadyReplicas: 2 },
      ]);
      expect(
        (await claims(ns.name)).map((claim) => [
          requestOf(claim),
          capacityOf(claim),
          claim.metadata?.annotations?.['apps.kruise.io/owned-by-asts'],
        ]),
      ).toEqual([
        ['2Gi', '2Gi', 'db'],
        ['2Gi', '2Gi', 'db'],
      ]);
      // Update order (highest ordinal first, maxUnavailable 1): db-1's claim before db-0's.
      expect(resizer.resized).toEqual(['data-db-1@2Gi', 'data-db-0@2Gi']);
      // Each claim grew while its pod was still the old one; then the pod was recreated.
      expect([...resizer.podsAtResize].sort()).toEqual(before);
      const recreated = await podUids(ns.name);
      expect(recreated.filter((uid) => before.includes(uid))).toEqual([]);

      // Storage only: the claims grow, the pods (already at the update revision) stay.
      await client.patch(
        statefulSetResource,
        { namespace: ns.name, name: 'db' },
        { type: 'merge', body: { spec: { volumeClaimTemplates: [template('3Gi')] } } },
      );
      await expect
        .poll(
          async () => (await claims(ns.name)).map((claim) => `${requestOf(claim) ?? ''}/${capacityOf(claim) ?? ''}`),
          { timeout: 60_000 },
        )
        .toEqual(['3Gi/3Gi', '3Gi/3Gi']);
      await waitForSet(
        client,
        { namespace: ns.name, name: 'db', description: '3Gi claims ready' },
        (set) => settled(set) && set.status?.volumeClaims?.[0]?.compatibleReadyReplicas === 2,
      );
      expect(await podUids(ns.name)).toEqual(recreated);
      expect(resizer.resized.slice(2)).toEqual(['data-db-1@3Gi', 'data-db-0@3Gi']);
      expect(resizer.errors).toEqual([]);
    } finally {
      resizer.stop();
      await controller.stop();
    }
  });
});
