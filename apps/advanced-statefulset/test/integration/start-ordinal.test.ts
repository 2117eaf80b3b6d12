/**
 * ordinals.start with gate StatefulSetStartOrdinal: the set runs ordinals from `start`; without the
 * gate the field is ignored (ordinals from 0), as in OpenKruise.
 */
import { describe, expect, it } from 'vitest';

import { nameOf, testClient } from '@kruise-ts/controller-runtime/testing';
import { testKubeConfig } from '@kruise-ts/local-cluster/testing';
import { podResource } from '@kruise-ts/workload';

import { createStatefulSet, dbStatefulSet, settled, startController, statefulSetNamespace, waitForSet } from '../support/harness.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);

async function podNames(namespace: string): Promise<string[]> {
  return (await client.list(podResource, { namespace, labelSelector: 'app=db' })).items.map(nameOf).sort();
}

describe('Advanced StatefulSet ordinals.start', () => {
  it.each([
    { gates: 'StatefulSetStartOrdinal=true', pods: ['db-3', 'db-4'] },
    { gates: '', pods: ['db-0', 'db-1'] },
  ])('with --feature-gates=$gates runs $pods', async ({ gates, pods }) => {
    await using ns = await statefulSetNamespace(kubeConfig, 'asts-start');
    const controller = startController({ kubeConfig, namespace: ns.name, featureGates: gates });
    try {
      await createStatefulSet(client, ns.name, dbStatefulSet(2, { podManagementPolicy: 'Parallel', ordinals: { start: 3 } }));
      await waitForSet(client, { namespace: ns.name, name: 'db', description: '2 ready pods' }, settled);
      expect(await podNames(ns.name)).toEqual(pods);
    } finally {
      await controller.stop();
    }
  });
});
