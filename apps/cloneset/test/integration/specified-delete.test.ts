import { CoreV1Api } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';

import { SPECIFIED_DELETE_LABEL } from '@kruise-ts/api';
import type { CloneSetInput, Pod } from '@kruise-ts/api';
import { testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';
import { podResource } from '@kruise-ts/workload';

import { cloneSetResource } from '../../src/index.ts';
import { activePods, createCloneSet, settled, testClient, waitForStatus, withController } from '../support/harness.ts';
import type { CloneSetManifest } from '../support/harness.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);
const core = kubeConfig.makeApiClient(CoreV1Api);

function web(name: string, spec: Partial<CloneSetInput['spec']> = {}): CloneSetManifest {
  return {
    metadata: { name },
    spec: {
      replicas: 5,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'main', image: 'nginx:alpine' }] },
      },
      ...spec,
    },
  };
}

const names = (pods: readonly Pod[]): string[] => pods.map((pod) => pod.metadata?.name ?? '').sort();

async function ready(namespace: string, name: string): Promise<string[]> {
  await waitForStatus(client, { namespace, name, description: `${name} settled` }, settled);
  return names(await activePods(client, namespace, `app=${name}`));
}

describe('CloneSet specified delete', () => {
  it('podsToDelete with replicas unchanged: the named pods are replaced, and the list is cleared', async () => {
    await withController('podstodelete', async (namespace) => {
      const before = await (async () => {
        await createCloneSet(client, namespace, web('web'));
        return ready(namespace, 'web');
      })();
      const victims = before.slice(0, 2);
      await client.patch(
        cloneSetResource,
        { namespace, name: 'web' },
        { type: 'merge', body: { spec: { scaleStrategy: { podsToDelete: victims } } } },
      );
      const cs = await waitForStatus(
        client,
        { namespace, name: 'web', description: 'victims replaced and podsToDelete cleared' },
        (c) => {
          return settled(c) && (c.spec.scaleStrategy?.podsToDelete ?? []).length === 0;
        },
      );
      const after = names(await activePods(client, namespace, 'app=web'));
      expect(after).toHaveLength(5);
      expect(after.filter((name) => victims.includes(name))).toEqual([]);
      expect(before.filter((name) => !victims.includes(name)).every((name) => after.includes(name))).toBe(true);
      expect(cs.spec.replicas).toBe(5);
    });
  });

  it('podsToDelete with a lower replicas count: exactly the named pods go', async () => {
    await withController('podstodelete-scale', async (namespace) => {
      await createCloneSet(client, namespace, web('web'));
      const before = await ready(namespace, 'web');
      const victims = [before[1] ?? '', before[3] ?? ''];
      await client.patch(
        cloneSetResource,
        { namespace, name: 'web' },
        { type: 'merge', body: { spec: { replicas: 3, scaleStrategy: { podsToDelete: victims } } } },
      );
      await waitForStatus(
        client,
        { namespace, name: 'web', description: 'three pods left' },
        (c) => settled(c) && c.status?.replicas === 3,
      );
      expect(names(await activePods(client, namespace, 'app=web'))).toEqual(
        before.filter((name) => !victims.includes(name)),
      );
    });
  });

  it('the apps.kruise.io/specified-delete label deletes and replaces that pod', async () => {
    await withController('specified-label', async (namespace) => {
      await createCloneSet(client, namespace, web('web'));
      const [victim] = await ready(namespace, 'web');
      await client.patch(
        podResource,
        { namespace, name: victim ?? '' },
        { type: 'merge', body: { metadata: { labels: { [SPECIFIED_DELETE_LABEL]: 'true' } } } },
      );
      // The status can read settled for a moment after the deletion, before the controller has seen
      // it (a loaded run counted 4 pods then): wait for the replacement as well.
      await waitFor(
        async () => {
          const current = names(await activePods(client, namespace, 'app=web'));
          return !current.includes(victim ?? '') && current.length === 5;
        },
        { description: 'the labelled pod to be deleted and replaced' },
      );
      expect(await ready(namespace, 'web')).toHaveLength(5);
    });
  });

  it('scenario B: with maxUnavailable 0 and maxSurge 1, the replacement comes first and the pod goes once it is available', async () => {
    await withController('scenario-b', async (namespace) => {
      await createCloneSet(
        client,
        namespace,
        web('web', { minReadySeconds: 2, updateStrategy: { maxUnavailable: 0, maxSurge: 1 } }),
      );
      const before = await ready(namespace, 'web');
      const victim = before[0] ?? '';
      let maxPods = 0;
      let victimGoneWhileSurgeUnavailable = false;
      await client.patch(
        podResource,
        { namespace, name: victim },
        { type: 'merge', body: { metadata: { labels: { [SPECIFIED_DELETE_LABEL]: 'true' } } } },
      );
      await waitFor(
        async () => {
          const pods = await activePods(client, namespace, 'app=web');
          maxPods = Math.max(maxPods, pods.length);
          const current = names(pods);
          const surge = pods.find((pod) => !before.includes(pod.metadata?.name ?? ''));
          const surgeReady = surge?.status?.conditions?.find((c) => c.type === 'Ready');
          const surgeAvailable =
            surgeReady?.status === 'True' && Date.parse(surgeReady.lastTransitionTime ?? '') + 2000 <= Date.now();
          if (!current.includes(victim) && surge !== undefined && !surgeAvailable) {
            victimGoneWhileSurgeUnavailable = true;
          }
          return !current.includes(victim) && pods.length === 5;
        },
        { description: 'the victim to be replaced', timeoutMs: 60_000, intervalMs: 50 },
      );
      expect(maxPods).toBe(6);
      expect(victimGoneWhileSurgeUnavailable).toBe(false);
    });
  });

  it("never deletes a pod that is not the CloneSet's, and says so with an Event and a condition", async () => {
    await withController('foreign', async (namespace) => {
      await core.createNamespacedPod({
        namespace,
        body: {
          metadata: { name: 'bystander', labels: { app: 'other' } },
          spec: { containers: [{ name: 'c', image: 'nginx:alpine' }] },
        },
      });
      await createCloneSet(client, namespace, web('web'));
      await ready(namespace, 'web');
      await client.patch(
        cloneSetResource,
        { namespace, name: 'web' },
        { type: 'merge', body: { spec: { scaleStrategy: { podsToDelete: ['bystander'] } } } },
      );
      const cs = await waitForStatus(
        client,
        { namespace, name: 'web', description: 'the FailedScale condition' },
        (c) =>
          (c.status?.conditions ?? []).some(
            (cond) => cond.type === 'FailedScale' && cond.reason === 'PodsToDeleteNotOwned',
          ),
      );
      expect(cs.status?.conditions?.find((c) => c.type === 'FailedScale')?.message).toContain('bystander');
      const events = await waitFor(
        async () => {
          const list = await core.listNamespacedEvent({ namespace });
          return list.items.find((e) => e.involvedObject.name === 'web' && e.message?.includes('bystander') === true);
        },
        { description: 'the Warning event' },
      );
      expect(events).toMatchObject({ type: 'Warning', reason: 'FailedDelete' });
      expect(
        (await core.readNamespacedPod({ name: 'bystander', namespace })).metadata?.deletionTimestamp,
      ).toBeUndefined();
      expect(await activePods(client, namespace, 'app=web')).toHaveLength(5);

      // Fixing the list clears the condition.
      await client.patch(
        cloneSetResource,
        { namespace, name: 'web' },
        { type: 'merge', body: { spec: { scaleStrategy: { podsToDelete: [] } } } },
      );
      await waitForStatus(
        client,
        { namespace, name: 'web', description: 'the condition to clear' },
        (c) => !(c.status?.conditions ?? []).some((cond) => cond.type === 'FailedScale'),
      );
    });
  });
});
