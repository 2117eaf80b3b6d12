/**
 * An Advanced StatefulSet written in v1alpha1 (OpenKruise's older examples) is reconciled like a v1beta1
 * one (issue 29): the controller, which reads the stored v1beta1, creates its pods, and a scale written
 * in v1alpha1 is carried out; the v1alpha1 view of its status has only v1alpha1's fields.
 */
import { describe, expect, it } from 'vitest';

import type { StatefulSet } from '@kruise-ts/api';
import { defineResource } from '@kruise-ts/controller-runtime';
import { testClient } from '@kruise-ts/controller-runtime/testing';
import { testKubeConfig } from '@kruise-ts/local-cluster/testing';

import { dbStatefulSet, settled, waitForSet, withController } from '../support/harness.ts';

const client = testClient(testKubeConfig());
const statefulSetsV1alpha1 = defineResource<StatefulSet>({
  group: 'apps.kruise.io',
  version: 'v1alpha1',
  plural: 'statefulsets',
  kind: 'StatefulSet',
  namespaced: true,
});

describe('Advanced StatefulSet written in v1alpha1', () => {
  it('is reconciled: its pods are created, a scale written in v1alpha1 is carried out', async () => {
    await withController('asts-v1alpha1', async (namespace) => {
      const set = dbStatefulSet(2);
      await client.create(statefulSetsV1alpha1, {
        apiVersion: 'apps.kruise.io/v1alpha1',
        kind: 'StatefulSet',
        ...set,
        metadata: { ...set.metadata, namespace },
      } as unknown as StatefulSet);
      await waitForSet(
        client,
        { namespace, name: 'db', description: 'the v1alpha1 set with 2 ready pods' },
        (current) => settled(current) && current.status?.readyReplicas === 2,
      );
      await client.patch(
        statefulSetsV1alpha1,
        { namespace, name: 'db' },
        { type: 'merge', body: { spec: { replicas: 3 } } },
      );
      const scaled = await waitForSet(
        client,
        { namespace, name: 'db', description: 'the set scaled to 3 through v1alpha1' },
        (current) => settled(current) && current.status?.readyReplicas === 3,
      );
      expect(scaled.status?.updatedReadyReplicas).toBe(3);
      const alpha = await client.get(statefulSetsV1alpha1, { namespace, name: 'db' });
      expect(alpha.status?.readyReplicas).toBe(3);
      expect(alpha.status?.updatedReadyReplicas).toBeUndefined();
    });
  });
});
