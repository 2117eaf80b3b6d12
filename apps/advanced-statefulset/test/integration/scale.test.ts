/**
 * Advanced StatefulSet scaling on the real control plane: OrderedReady creates one pod at a time in
 * ordinal order, each after the previous is Ready, and deletes in reverse; Parallel creates at once
 * within scaleStrategy.maxUnavailable; reserveOrdinals skips ordinals and moves pods when it changes.
 */
import { describe, expect, it } from 'vitest';

import type { Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { observeObjects, testClient } from '@kruise-ts/controller-runtime/testing';
import { testKubeConfig } from '@kruise-ts/local-cluster/testing';
import { podResource } from '@kruise-ts/workload';

import { statefulSetResource } from '../../src/index.ts';
import { createStatefulSet, dbStatefulSet, settled, waitForSet, withController } from '../support/harness.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);

function isReady(pod: DeepReadonly<Pod>): boolean {
  return (
    pod.status?.conditions?.some((condition) => condition.type === 'Ready' && condition.status === 'True') === true
  );
}

async function livePodNames(namespace: string): Promise<string[]> {
  const pods = await client.list(podResource, { namespace, labelSelector: 'app=db' });
  return pods.items
    .filter((pod) => pod.metadata?.deletionTimestamp === undefined)
    .map((pod) => pod.metadata?.name ?? '')
    .sort();
}

describe('Advanced StatefulSet scaling', () => {
  it('OrderedReady creates pods one at a time in ordinal order, each after the previous is Ready, and deletes them in reverse', async () => {
    await withController('asts-ordered', async (namespace) => {
      // Every pod event, in order: when a pod appears, all lower ordinals exist and are Ready.
      const violations: string[] = [];
      const created: string[] = [];
      const observer = observeObjects(
        kubeConfig,
        { resource: podResource, namespace, labelSelector: 'app=db' },
        (pods) => {
          for (const pod of pods) {
            const name = pod.metadata?.name ?? '';
            if (!created.includes(name) && pod.metadata?.deletionTimestamp === undefined) {
              created.push(name);
              const ordinal = Number(name.split('-').pop());
              const lower = pods.filter((other) => Number((other.metadata?.name ?? '').split('-').pop()) < ordinal);
              if (lower.length !== ordinal || !lower.every(isReady)) {
                violations.push(
                  `${name} appeared while ${String(lower.filter(isReady).length)} of ${String(ordinal)} lower pods were ready`,
                );
              }
            }
          }
        },
      );
      await observer.synced;
      await createStatefulSet(client, namespace, dbStatefulSet(3));
      const set = await waitForSet(client, { namespace, name: 'db', description: '3 ready pods' }, settled);
      observer.stop();
      expect(violations).toEqual([]);
      expect(created).toEqual(['db-0', 'db-1', 'db-2']);
      expect(set.status).toMatchObject({
        replicas: 3,
        readyReplicas: 3,
        availableReplicas: 3,
        currentReplicas: 3,
        updatedReplicas: 3,
        labelSelector: 'app=db',
      });

      const pods = (await client.list(podResource, { namespace, labelSelector: 'app=db' })).items;
      for (const pod of pods) {
        const name = pod.metadata?.name ?? '';
        expect(pod.metadata?.labels?.['statefulset.kubernetes.io/pod-name']).toBe(name);
        expect(pod.metadata?.labels?.['apps.kubernetes.io/pod-index']).toBe(name.split('-').pop());
        expect(pod.metadata?.labels?.['controller-revision-hash']).toBe(set.status?.updateRevision);
        expect(pod.spec?.hostname).toBe(name);
        expect(pod.spec?.subdomain).toBe('db');
      }

      // Scale in: the highest ordinal goes first, one at a time.
      const deletedOrder: string[] = [];
      const inObserver = observeObjects(
        kubeConfig,
        { resource: podResource, namespace, labelSelector: 'app=db' },
        (current) => {
          for (const pod of current) {
            const name = pod.metadata?.name ?? '';
            if (pod.metadata?.deletionTimestamp !== undefined && !deletedOrder.includes(name)) {
              deletedOrder.push(name);
            }
          }
        },
      );
      await inObserver.synced;
      await client.patch(
        statefulSetResource,
        { namespace, name: 'db' },
        { type: 'merge', body: { spec: { replicas: 1 } } },
      );
      await waitForSet(
        client,
        { namespace, name: 'db', description: '1 pod' },
        (current) =>
          current.status?.replicas === 1 && current.status.observedGeneration === current.metadata.generation,
      );
      inObserver.stop();
      expect(deletedOrder).toEqual(['db-2', 'db-1']);
    });
  });

  it('Parallel creates every pod at once, and within scaleStrategy.maxUnavailable when set', async () => {
    await withController('asts-parallel', async (namespace) => {
      await createStatefulSet(client, namespace, dbStatefulSet(4, { podManagementPolicy: 'Parallel' }));
      await waitForSet(client, { namespace, name: 'db', description: '4 ready pods' }, settled);
      expect(await livePodNames(namespace)).toEqual(['db-0', 'db-1', 'db-2', 'db-3']);

      // With a budget of 2, never more than 2 pods are unavailable while scaling out to 8.
      let worst = 0;
      const observer = observeObjects(
        kubeConfig,
        { resource: podResource, namespace, labelSelector: 'app=db' },
        (pods) => {
          const expected = ['db-0', 'db-1', 'db-2', 'db-3', 'db-4', 'db-5', 'db-6', 'db-7'];
          const ready = new Set(pods.filter(isReady).map((pod) => pod.metadata?.name));
          worst = Math.max(
            worst,
            expected.filter((name) => !ready.has(name) && pods.some((pod) => pod.metadata?.name === name)).length,
          );
        },
      );
      await observer.synced;
      await client.patch(
        statefulSetResource,
        { namespace, name: 'db' },
        { type: 'merge', body: { spec: { replicas: 8, scaleStrategy: { maxUnavailable: 2 } } } },
      );
      await waitForSet(client, { namespace, name: 'db', description: '8 ready pods' }, settled);
      observer.stop();
      expect(worst).toBeGreaterThan(0);
      expect(worst).toBeLessThanOrEqual(2);
    });
  });

  it('reserveOrdinals [1, "3-4"] with 3 replicas runs pods 0, 2, 5, and a new list moves pods', async () => {
    await withController('asts-reserve', async (namespace) => {
      await createStatefulSet(
        client,
        namespace,
        dbStatefulSet(3, { podManagementPolicy: 'Parallel', reserveOrdinals: [1, '3-4'] }),
      );
      await waitForSet(client, { namespace, name: 'db', description: '3 ready pods' }, settled);
      expect(await livePodNames(namespace)).toEqual(['db-0', 'db-2', 'db-5']);

      // Reserving 0 instead: db-0 goes, db-1 comes (the first free ordinal), 2 and 5... move to 1, 2, 3.
      await client.patch(
        statefulSetResource,
        { namespace, name: 'db' },
        { type: 'merge', body: { spec: { reserveOrdinals: [0] } } },
      );
      await waitForSet(client, { namespace, name: 'db', description: 'pods 1, 2, 3' }, (set) => settled(set));
      await expect.poll(() => livePodNames(namespace), { timeout: 30_000 }).toEqual(['db-1', 'db-2', 'db-3']);
    });
  });
});
