import { CoreV1Api } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';

import { CLONESET_INSTANCE_ID_LABEL } from '@kruise-ts/api';
import type { CloneSetInput, PersistentVolumeClaim, Pod } from '@kruise-ts/api';
import { testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';
import { podResource } from '@kruise-ts/workload';

import { cloneSetResource } from '../../src/index.ts';
import {
  activeClaims,
  activePods,
  createCloneSet,
  seedExample,
  settled,
  testClient,
  waitForStatus,
  withController,
} from '../support/harness.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);
const core = kubeConfig.makeApiClient(CoreV1Api);

const idOf = (object: Pod | PersistentVolumeClaim): string =>
  object.metadata?.labels?.[CLONESET_INSTANCE_ID_LABEL] ?? '';

async function sampleData(namespace: string, patch: Partial<CloneSetInput['spec']> = {}): Promise<void> {
  const example = await seedExample('003-L053.yaml');
  await createCloneSet(client, namespace, { ...example, spec: { ...example.spec, ...patch } });
  await waitForStatus(client, { namespace, name: 'sample-data', description: 'sample-data settled' }, settled);
}

async function claimsById(namespace: string): Promise<Map<string, PersistentVolumeClaim>> {
  return new Map((await activeClaims(client, namespace)).map((pvc) => [idOf(pvc), pvc]));
}

describe('CloneSet per-pod PVCs (volumeClaimTemplates)', () => {
  it("gives each pod its own bound PVC, labelled with the pod's instance id and owned by the CloneSet", async () => {
    await withController('pvc-create', async (namespace) => {
      await sampleData(namespace);
      const cs = await client.get(cloneSetResource, { namespace, name: 'sample-data' });
      const pods = await activePods(client, namespace, 'app=sample');
      const claims = await claimsById(namespace);
      expect(pods).toHaveLength(5);
      expect(claims.size).toBe(5);
      for (const pod of pods) {
        const claim = claims.get(idOf(pod));
        expect(claim?.metadata?.name).toBe(`data-vol-sample-data-${idOf(pod)}`);
        expect(claim?.metadata?.labels).toMatchObject({ app: 'sample', [CLONESET_INSTANCE_ID_LABEL]: idOf(pod) });
        expect(claim?.metadata?.ownerReferences?.[0]).toMatchObject({
          kind: 'CloneSet',
          uid: cs.metadata.uid,
          controller: true,
        });
        expect(pod.spec?.volumes).toContainEqual(
          expect.objectContaining({ name: 'data-vol', persistentVolumeClaim: { claimName: claim?.metadata?.name } }),
        );
      }
      await waitFor(async () => (await activeClaims(client, namespace)).every((pvc) => pvc.status?.phase === 'Bound'), {
        description: 'all PVCs to be Bound',
      });
    });
  });

  it('keeps the PVC of a pod deleted by hand and gives it to the replacement, which gets the same instance id', async () => {
    await withController('pvc-reuse', async (namespace) => {
      await sampleData(namespace);
      const [victim] = await activePods(client, namespace, 'app=sample');
      const before = await claimsById(namespace);
      const claim = before.get(idOf(victim ?? {}));
      await client.delete(podResource, { namespace, name: victim?.metadata?.name ?? '' });
      const replacement = await waitFor(
        async () => {
          const pods = await activePods(client, namespace, 'app=sample');
          return pods.find(
            (pod) => pod.metadata?.name === victim?.metadata?.name && pod.metadata?.uid !== victim?.metadata?.uid,
          );
        },
        { description: 'the replacement pod with the same name' },
      );
      expect(idOf(replacement)).toBe(idOf(victim ?? {}));
      const after = await claimsById(namespace);
      expect(after.get(idOf(replacement))?.metadata?.uid).toBe(claim?.metadata?.uid);
      expect(after.size).toBe(5);
    });
  });

  it('deletes the PVC of a pod removed by scaling in', async () => {
    await withController('pvc-scale-in', async (namespace) => {
      await sampleData(namespace);
      await client.patch(
        cloneSetResource,
        { namespace, name: 'sample-data' },
        { type: 'merge', body: { spec: { replicas: 3 } } },
      );
      await waitForStatus(
        client,
        { namespace, name: 'sample-data', description: 'three replicas' },
        (cs) => settled(cs) && cs.status?.replicas === 3,
      );
      const pods = await activePods(client, namespace, 'app=sample');
      await waitFor(async () => (await activeClaims(client, namespace)).length === 3, {
        description: 'two PVCs deleted',
      });
      const claims = await claimsById(namespace);
      expect([...claims.keys()].sort()).toEqual(pods.map(idOf).sort());
    });
  });

  it('cascades the deletion of the CloneSet to its pods and PVCs', async () => {
    await withController('pvc-cascade', async (namespace) => {
      await sampleData(namespace);
      await client.delete(cloneSetResource, { namespace, name: 'sample-data' });
      await waitFor(async () => (await core.listNamespacedPod({ namespace })).items.length === 0, {
        description: 'all pods gone',
        timeoutMs: 90_000,
      });
      await waitFor(async () => (await core.listNamespacedPersistentVolumeClaim({ namespace })).items.length === 0, {
        description: 'all PVCs gone',
        timeoutMs: 90_000,
      });
    });
  });

  it('with disablePVCReuse, removes the PVC of a pod deleted by hand and gives the replacement a new one', async () => {
    await withController('pvc-no-reuse', async (namespace) => {
      await sampleData(namespace, { scaleStrategy: { disablePVCReuse: true } });
      const [victim] = await activePods(client, namespace, 'app=sample');
      const oldClaim = (await claimsById(namespace)).get(idOf(victim ?? {}));
      await client.delete(podResource, { namespace, name: victim?.metadata?.name ?? '' });
      await waitFor(
        async () => {
          const pods = await activePods(client, namespace, 'app=sample');
          return pods.length === 5 && !pods.some((pod) => idOf(pod) === idOf(victim ?? {}));
        },
        { description: 'a replacement with a new instance id' },
      );
      await waitFor(
        async () =>
          !(await core.listNamespacedPersistentVolumeClaim({ namespace })).items.some(
            (pvc) => pvc.metadata?.uid === oldClaim?.metadata?.uid,
          ),
        {
          description: 'the old PVC to be gone',
          timeoutMs: 90_000,
        },
      );
      await waitForStatus(client, { namespace, name: 'sample-data', description: 'settled again' }, settled);
      const pods = await activePods(client, namespace, 'app=sample');
      const claims = await claimsById(namespace);
      expect([...claims.keys()].sort()).toEqual(pods.map(idOf).sort());
    });
  });
});
