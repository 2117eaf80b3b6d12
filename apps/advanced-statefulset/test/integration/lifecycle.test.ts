/**
 * Lifecycle hooks of Advanced StatefulSet pods (the pod-control package, as for CloneSet): preDelete
 * holds a scaled-in pod in PreparingDelete until the hook is released, inPlaceUpdate holds an
 * in-place update in PreparingUpdate until then.
 */
import { describe, expect, it } from 'vitest';

import type { Pod } from '@kruise-ts/api';
import { imageOf } from '@kruise-ts/workload/testing';
import { testClient } from '@kruise-ts/controller-runtime/testing';
import { testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';
import { podResource } from '@kruise-ts/workload';

import { statefulSetResource } from '../../src/index.ts';
import { createStatefulSet, dbStatefulSet, settled, waitForSet, withController } from '../support/harness.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);
const STATE = 'lifecycle.apps.kruise.io/state';

/** Pods carry hold=true from the template; the hooks wait while it is there. */
function heldSet(hook: 'preDelete' | 'inPlaceUpdate') {
  const base = dbStatefulSet(2, {
    podManagementPolicy: 'Parallel',
    lifecycle: { [hook]: { labelsHandler: { hold: 'true' } } },
    updateStrategy: { rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible' } },
  });
  return {
    ...base,
    spec: { ...base.spec, template: { ...base.spec.template, metadata: { labels: { app: 'db', hold: 'true' } } } },
  };
}

function pod(namespace: string, name: string): Promise<Pod> {
  return client.get(podResource, { namespace, name });
}

function release(namespace: string, name: string): Promise<Pod> {
  return client.patch(
    podResource,
    { namespace, name },
    { type: 'merge', body: { metadata: { labels: { hold: null } } } },
  );
}

describe('Advanced StatefulSet lifecycle hooks', () => {
  it('preDelete holds a scaled-in pod in PreparingDelete until the hook is released', async () => {
    await withController('asts-predelete', async (namespace) => {
      await createStatefulSet(client, namespace, heldSet('preDelete'));
      await waitForSet(client, { namespace, name: 'db', description: '2 ready pods' }, settled);
      await client.patch(
        statefulSetResource,
        { namespace, name: 'db' },
        { type: 'merge', body: { spec: { replicas: 1 } } },
      );
      const held = await waitFor(
        async () => {
          const current = await pod(namespace, 'db-1');
          return current.metadata?.labels?.[STATE] === 'PreparingDelete' ? current : undefined;
        },
        { description: 'db-1 in PreparingDelete', timeoutMs: 30_000 },
      );
      expect(held.metadata?.deletionTimestamp).toBeUndefined();
      await release(namespace, 'db-1');
      await waitFor(
        async () =>
          (await client.list(podResource, { namespace, labelSelector: 'app=db' })).items.some(
            (p) => p.metadata?.name === 'db-1' && p.metadata.deletionTimestamp === undefined,
          )
            ? undefined
            : true,
        {
          description: 'db-1 deleted after the release',
          timeoutMs: 30_000,
        },
      );
    });
  });

  it('inPlaceUpdate holds an in-place update in PreparingUpdate until the hook is released', async () => {
    await withController('asts-inplace-hook', async (namespace) => {
      await createStatefulSet(client, namespace, heldSet('inPlaceUpdate'));
      await waitForSet(client, { namespace, name: 'db', description: '2 ready pods' }, settled);
      await client.patch(
        statefulSetResource,
        { namespace, name: 'db' },
        {
          type: 'merge',
          body: { spec: { template: { spec: { containers: [{ name: 'main', image: 'nginx:1.26' }] } } } },
        },
      );
      const held = await waitFor(
        async () => {
          const current = await pod(namespace, 'db-1');
          return current.metadata?.labels?.[STATE] === 'PreparingUpdate' ? current : undefined;
        },
        { description: 'db-1 in PreparingUpdate', timeoutMs: 30_000 },
      );
      expect(imageOf(held)).toBe('nginx:1.25');
      await release(namespace, 'db-1');
      await waitFor(async () => (imageOf(await pod(namespace, 'db-1')) === 'nginx:1.26' ? true : undefined), {
        description: 'db-1 updated after the release',
        timeoutMs: 30_000,
      });
    });
  });
});
