/**
 * unorderedUpdate.priorityStrategy on the real control plane: with maxUnavailable 1 the pods are
 * recreated one at a time, the heaviest first, whatever their ordinals.
 */
import { describe, expect, it } from 'vitest';

import { nameOf, revisionOf } from '@kruise-ts/workload/testing';
import { observeObjects, testClient } from '@kruise-ts/controller-runtime/testing';
import { testKubeConfig } from '@kruise-ts/local-cluster/testing';
import { podResource } from '@kruise-ts/workload';

import { statefulSetResource } from '../../src/index.ts';
import { createStatefulSet, dbStatefulSet, settled, waitForSet, withController } from '../support/harness.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);

describe('Advanced StatefulSet unordered update', () => {
  it('updates by weightPriority, the heaviest pod first, one at a time', async () => {
    await withController('asts-priority', async (namespace) => {
      const priorityStrategy = {
        weightPriority: [
          { weight: 100, matchSelector: { matchLabels: { tier: 'first' } } },
          { weight: 50, matchSelector: { matchLabels: { tier: 'second' } } },
        ],
      };
      await createStatefulSet(
        client,
        namespace,
        dbStatefulSet(3, {
          podManagementPolicy: 'Parallel',
          updateStrategy: { rollingUpdate: { unorderedUpdate: { priorityStrategy } } },
        }),
      );
      const initial = await waitForSet(client, { namespace, name: 'db', description: '3 ready pods' }, settled);
      // db-0 goes first, then db-1, and db-2 (no label) last: not the ordinal order (2, 1, 0).
      for (const [name, tier] of [
        ['db-0', 'first'],
        ['db-1', 'second'],
      ] as const) {
        await client.patch(
          podResource,
          { namespace, name },
          { type: 'merge', body: { metadata: { labels: { tier } } } },
        );
      }
      const order: string[] = [];
      const observer = observeObjects(
        kubeConfig,
        { resource: podResource, namespace, labelSelector: 'app=db' },
        (pods) => {
          for (const pod of pods) {
            if (
              pod.metadata?.deletionTimestamp !== undefined &&
              revisionOf(pod) === initial.status?.currentRevision &&
              !order.includes(nameOf(pod))
            ) {
              order.push(nameOf(pod));
            }
          }
        },
      );
      await observer.synced;
      await client.patch(
        statefulSetResource,
        { namespace, name: 'db' },
        {
          type: 'merge',
          body: { spec: { template: { spec: { containers: [{ name: 'main', image: 'nginx:1.26' }] } } } },
        },
      );
      await waitForSet(
        client,
        { namespace, name: 'db', description: 'rolled out' },
        (set) => settled(set) && set.status?.updateRevision !== initial.status?.updateRevision,
      );
      observer.stop();
      expect(order).toEqual(['db-0', 'db-1', 'db-2']);
    });
  });
});
