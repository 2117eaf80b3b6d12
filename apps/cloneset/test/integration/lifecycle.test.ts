import { describe, expect, it } from 'vitest';

import { LIFECYCLE_STATE_LABEL, SPECIFIED_DELETE_LABEL } from '@kruise-ts/api';
import type { CloneSetInput, Pod } from '@kruise-ts/api';
import { testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';
import { podResource } from '@kruise-ts/workload';

import { cloneSetResource } from '../../src/index.ts';
import { activePods, createCloneSet, settled, testClient, waitForStatus, withController } from '../support/harness.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);
const HOLD = 'example.com/hold-before-delete';

const stateOf = (pod: Pod | undefined): string | undefined => pod?.metadata?.labels?.[LIFECYCLE_STATE_LABEL];

/** Three pods held by a preDelete finalizer hook. */
function hooked(labels: Record<string, string> = {}): {
  metadata: CloneSetInput['metadata'];
  spec: CloneSetInput['spec'];
} {
  return {
    metadata: { name: 'hooked', labels },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'hooked' } },
      template: {
        metadata: { labels: { app: 'hooked' }, finalizers: [HOLD] },
        spec: { containers: [{ name: 'main', image: 'nginx:alpine' }] },
      },
      lifecycle: { preDelete: { finalizersHandler: [HOLD] } },
    },
  };
}

async function release(namespace: string, pod: Pod): Promise<void> {
  await client.patch(
    podResource,
    { namespace, name: pod.metadata?.name ?? '' },
    { type: 'json', body: [{ op: 'remove', path: '/metadata/finalizers' }] },
  );
}

describe('CloneSet lifecycle hooks', () => {
  it('preDelete with a finalizer handler: the pod waits in PreparingDelete until the finalizer is removed', async () => {
    await withController('predelete', async (namespace) => {
      await createCloneSet(client, namespace, hooked());
      await waitForStatus(client, { namespace, name: 'hooked', description: 'three pods' }, settled);
      await client.patch(
        cloneSetResource,
        { namespace, name: 'hooked' },
        { type: 'merge', body: { spec: { replicas: 2 } } },
      );
      const waiting = await waitFor(
        async () =>
          (await activePods(client, namespace, 'app=hooked')).find((pod) => stateOf(pod) === 'PreparingDelete'),
        {
          description: 'a pod in PreparingDelete',
        },
      );
      // It stays there (and is still counted) while the finalizer holds it; that later reconciles
      // leave it alone is pinned down by src/sync/scale.test.ts.
      const held = await client.get(podResource, { namespace, name: waiting.metadata?.name ?? '' });
      expect(stateOf(held)).toBe('PreparingDelete');
      expect(held.metadata?.deletionTimestamp).toBeUndefined();
      expect((await client.get(cloneSetResource, { namespace, name: 'hooked' })).status?.replicas).toBe(3);

      await release(namespace, waiting);
      await waitForStatus(
        client,
        { namespace, name: 'hooked', description: 'two pods' },
        (cs) => settled(cs) && cs.status?.replicas === 2,
      );
      expect((await activePods(client, namespace, 'app=hooked')).map((pod) => pod.metadata?.name)).not.toContain(
        waiting.metadata?.name,
      );
    });
  });

  it('preNormal: a pod stays PreparingNormal and out of availableReplicas until its hook is satisfied', async () => {
    await withController('prenormal', async (namespace) => {
      await createCloneSet(client, namespace, {
        metadata: { name: 'gated' },
        spec: {
          replicas: 2,
          selector: { matchLabels: { app: 'gated' } },
          template: {
            metadata: { labels: { app: 'gated' } },
            spec: { containers: [{ name: 'main', image: 'nginx:alpine' }] },
          },
          lifecycle: { preNormal: { labelsHandler: { 'example.com/warmed-up': 'true' } } },
        },
      });
      const ready = await waitForStatus(
        client,
        { namespace, name: 'gated', description: 'two ready pods' },
        (cs) => cs.status?.readyReplicas === 2,
      );
      expect(ready.status?.availableReplicas).toBe(0);
      const pods = await activePods(client, namespace, 'app=gated');
      expect(pods.map(stateOf)).toEqual(['PreparingNormal', 'PreparingNormal']);

      await client.patch(
        podResource,
        { namespace, name: pods[0]?.metadata?.name ?? '' },
        { type: 'merge', body: { metadata: { labels: { 'example.com/warmed-up': 'true' } } } },
      );
      const one = await waitForStatus(
        client,
        { namespace, name: 'gated', description: 'one available pod' },
        (cs) => cs.status?.availableReplicas === 1,
      );
      expect(one.status?.readyReplicas).toBe(2);
      expect(stateOf(await client.get(podResource, { namespace, name: pods[0]?.metadata?.name ?? '' }))).toBe('Normal');
    });
  });

  it('cancels a scale-in deletion that waits in PreparingDelete when replicas grow back', async () => {
    await withController('predelete-cancel', async (namespace) => {
      await createCloneSet(client, namespace, hooked());
      await waitForStatus(client, { namespace, name: 'hooked', description: 'three pods' }, settled);
      await client.patch(
        cloneSetResource,
        { namespace, name: 'hooked' },
        { type: 'merge', body: { spec: { replicas: 2 } } },
      );
      const waiting = await waitFor(
        async () =>
          (await activePods(client, namespace, 'app=hooked')).find((pod) => stateOf(pod) === 'PreparingDelete'),
        {
          description: 'a pod in PreparingDelete',
        },
      );
      await client.patch(
        cloneSetResource,
        { namespace, name: 'hooked' },
        { type: 'merge', body: { spec: { replicas: 3 } } },
      );
      await waitFor(
        async () =>
          stateOf(await client.get(podResource, { namespace, name: waiting.metadata?.name ?? '' })) === 'Normal',
        {
          description: 'the waiting pod to return to Normal',
        },
      );
      const cs = await waitForStatus(
        client,
        { namespace, name: 'hooked', description: 'three available pods' },
        (c) => settled(c) && c.status?.availableReplicas === 3,
      );
      expect(cs.status?.replicas).toBe(3);
      // The same pod was kept, not replaced.
      expect((await activePods(client, namespace, 'app=hooked')).map((pod) => pod.metadata?.name)).toContain(
        waiting.metadata?.name,
      );
    });
  });

  it('with the cloneset-scaling-exclude-preparing-delete label, replaces a pod while it waits in PreparingDelete', async () => {
    await withController('exclude-preparing', async (namespace) => {
      await createCloneSet(
        client,
        namespace,
        hooked({ 'apps.kruise.io/cloneset-scaling-exclude-preparing-delete': 'true' }),
      );
      await waitForStatus(client, { namespace, name: 'hooked', description: 'three pods' }, settled);
      const [victim] = await activePods(client, namespace, 'app=hooked');
      await client.patch(
        podResource,
        { namespace, name: victim?.metadata?.name ?? '' },
        { type: 'merge', body: { metadata: { labels: { [SPECIFIED_DELETE_LABEL]: 'true' } } } },
      );
      const pods = await waitFor(
        async () => {
          const all = await activePods(client, namespace, 'app=hooked');
          const others = all.filter((pod) => stateOf(pod) !== 'PreparingDelete');
          return others.length === 3 && all.length === 4 ? all : undefined;
        },
        { description: 'a replacement beside the waiting pod' },
      );
      expect(
        pods.find((pod) => pod.metadata?.name === victim?.metadata?.name)?.metadata?.labels?.[LIFECYCLE_STATE_LABEL],
      ).toBe('PreparingDelete');
      if (victim !== undefined) {
        await release(namespace, victim);
      }
      await waitForStatus(
        client,
        { namespace, name: 'hooked', description: 'three pods again' },
        (c) => settled(c) && c.status?.replicas === 3,
      );
    });
  });

  it('without that label, a specified-delete pod waiting in PreparingDelete is replaced only after it is gone', async () => {
    await withController('include-preparing', async (namespace) => {
      await createCloneSet(client, namespace, hooked());
      await waitForStatus(client, { namespace, name: 'hooked', description: 'three pods' }, settled);
      const [victim] = await activePods(client, namespace, 'app=hooked');
      await client.patch(
        podResource,
        { namespace, name: victim?.metadata?.name ?? '' },
        { type: 'merge', body: { metadata: { labels: { [SPECIFIED_DELETE_LABEL]: 'true' } } } },
      );
      await waitFor(
        async () =>
          stateOf(await client.get(podResource, { namespace, name: victim?.metadata?.name ?? '' })) ===
          'PreparingDelete',
        {
          description: 'the victim in PreparingDelete',
        },
      );
      // Not replaced while it waits (the decision is pinned down by src/sync/scale.test.ts).
      expect(await activePods(client, namespace, 'app=hooked')).toHaveLength(3);
      if (victim !== undefined) {
        await release(namespace, victim);
      }
      await waitFor(
        async () => {
          const all = await activePods(client, namespace, 'app=hooked');
          return all.length === 3 && !all.some((pod) => pod.metadata?.name === victim?.metadata?.name);
        },
        { description: 'the victim replaced' },
      );
    });
  });
});
