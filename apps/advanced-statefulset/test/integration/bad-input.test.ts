/**
 * Specs the CRD accepts but the controller cannot carry out: a Warning Event and the InvalidSpec
 * condition naming the field, and no pod deleted because of it; a pod template the API server
 * refuses (no validation webhook here): FailedCreate and FailedCreatePod naming the field, no pod.
 */
import { describe, expect, it } from 'vitest';

import type { StatefulSet } from '@kruise-ts/api';
import { uidOf } from '@kruise-ts/workload/testing';
import { testClient } from '@kruise-ts/controller-runtime/testing';
import { testKubeConfig } from '@kruise-ts/local-cluster/testing';
import { podResource } from '@kruise-ts/workload';

import { statefulSetResource } from '../../src/index.ts';
import { createStatefulSet, dbStatefulSet, settled, waitForSet, withController } from '../support/harness.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);

function invalidSpec(set: StatefulSet): string | undefined {
  const condition = set.status?.conditions?.find((c) => c.type === 'InvalidSpec' && c.status === 'True');
  return set.status?.observedGeneration === set.metadata.generation ? condition?.message : undefined;
}

async function podUids(namespace: string): Promise<string[]> {
  return (await client.list(podResource, { namespace, labelSelector: 'app=db' })).items
    .filter((pod) => pod.metadata?.deletionTimestamp === undefined)
    .map(uidOf)
    .sort();
}

async function warningEvents(namespace: string): Promise<string[]> {
  const events = await client.list(
    { group: '', version: 'v1', plural: 'events', kind: 'Event', namespaced: true },
    { namespace },
  );
  return events.items
    .filter((event) => (event as { type?: string }).type === 'Warning')
    .map((event) => (event as { message?: string }).message ?? '');
}

describe('Advanced StatefulSet bad input', () => {
  it('a reserveOrdinals entry that is not an ordinal or range: Event and condition naming the field, no pod touched', async () => {
    await withController('asts-bad-reserve', async (namespace) => {
      await createStatefulSet(client, namespace, dbStatefulSet(2, { podManagementPolicy: 'Parallel' }));
      await waitForSet(client, { namespace, name: 'db', description: '2 ready pods' }, settled);
      const before = await podUids(namespace);
      await client.patch(
        statefulSetResource,
        { namespace, name: 'db' },
        { type: 'merge', body: { spec: { replicas: 3, reserveOrdinals: [0, '5-2'] } } },
      );
      const set = await waitForSet(
        client,
        { namespace, name: 'db', description: 'InvalidSpec' },
        (current) => invalidSpec(current) !== undefined,
      );
      expect(invalidSpec(set)).toContain('spec.reserveOrdinals: "5-2"');
      expect(await podUids(namespace)).toEqual(before);
      expect((await warningEvents(namespace)).some((message) => message.startsWith('spec.reserveOrdinals'))).toBe(true);
    });
  });

  it('a reserve list that would delete every pod at once is refused the same way', async () => {
    await withController('asts-bad-empty', async (namespace) => {
      await createStatefulSet(client, namespace, dbStatefulSet(2, { podManagementPolicy: 'Parallel' }));
      await waitForSet(client, { namespace, name: 'db', description: '2 ready pods' }, settled);
      const before = await podUids(namespace);
      await client.patch(
        statefulSetResource,
        { namespace, name: 'db' },
        { type: 'merge', body: { spec: { reserveOrdinals: ['0-1'] } } },
      );
      const set = await waitForSet(
        client,
        { namespace, name: 'db', description: 'InvalidSpec' },
        (current) => invalidSpec(current) !== undefined,
      );
      expect(invalidSpec(set)).toContain('every pod of the set (2) would be deleted at once');
      expect(await podUids(namespace)).toEqual(before);
    });
  });

  it('a pod template the API server refuses: the dry run finds it, FailedCreate and FailedCreatePod name the field, no pod is created', async () => {
    await withController('asts-bad-template', async (namespace) => {
      const template = {
        metadata: { labels: { app: 'db' } },
        spec: { containers: [{ name: 'main', image: 'nginx:1.25', ports: [{ containerPort: 70000 }] }] },
      };
      await createStatefulSet(client, namespace, dbStatefulSet(2, { podManagementPolicy: 'Parallel', template }));
      const set = await waitForSet(
        client,
        { namespace, name: 'db', description: 'FailedCreatePod' },
        (current) =>
          current.status?.conditions?.some((c) => c.type === 'FailedCreatePod' && c.reason === 'InvalidTemplate') ===
          true,
      );
      const message = set.status?.conditions?.find((c) => c.type === 'FailedCreatePod')?.message ?? '';
      expect(message).toContain(
        'StatefulSet "db" is invalid: spec.template.spec.containers[0].ports[0].containerPort: Invalid value: 70000',
      );
      expect(set.status?.observedGeneration).toBe(set.metadata.generation);
      expect((await warningEvents(namespace)).some((warning) => warning === message)).toBe(true);
      expect(await podUids(namespace)).toEqual([]);
    });
  });

  it('a partition above replicas: Event and condition, nothing updated, scaling goes on', async () => {
    await withController('asts-bad-partition', async (namespace) => {
      await createStatefulSet(
        client,
        namespace,
        dbStatefulSet(2, { podManagementPolicy: 'Parallel', updateStrategy: { rollingUpdate: { partition: 5 } } }),
      );
      const set = await waitForSet(
        client,
        { namespace, name: 'db', description: 'InvalidSpec and 2 pods' },
        (current) => invalidSpec(current) !== undefined && current.status?.readyReplicas === 2,
      );
      expect(invalidSpec(set)).toContain('spec.updateStrategy.rollingUpdate.partition: 5 is above replicas 2');
    });
  });
});
