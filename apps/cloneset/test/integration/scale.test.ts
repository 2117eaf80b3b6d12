import { CoreV1Api, CustomObjectsApi, setHeaderOptions } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { CLONESET_INSTANCE_ID_LABEL } from '@kruise-ts/api';
import type { Pod } from '@kruise-ts/api';
import { createTestNamespace, testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';
import type { TestNamespace } from '@kruise-ts/local-cluster/testing';

import { podResource } from '@kruise-ts/workload';

import { cloneSetResource } from '../../src/index.ts';
import {
  activePods,
  createCloneSet,
  installCloneSetCrd,
  seedExample,
  settled,
  startController,
  testClient,
  waitForStatus,
} from '../support/harness.ts';
import type { ControllerHandle } from '../support/harness.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);

function isAvailable(pod: Pod, minReadySeconds: number, now: number): boolean {
  const ready = pod.status?.conditions?.find((c) => c.type === 'Ready');
  return ready?.status === 'True' && Date.parse(ready.lastTransitionTime ?? '') + minReadySeconds * 1000 <= now;
}

describe('CloneSet scaling', () => {
  let ns: TestNamespace;
  let controller: ControllerHandle;

  beforeAll(async () => {
    await installCloneSetCrd(kubeConfig);
    ns = await createTestNamespace(kubeConfig, 'cloneset-scale');
    controller = startController({ kubeConfig, namespace: ns.name });
  });

  afterAll(async () => {
    await controller.stop();
    await ns[Symbol.asyncDispose]();
  });

  it('brings the seed sample to 5 ready pods with instance ids and revision labels, and kubectl columns', async () => {
    await createCloneSet(client, ns.name, await seedExample('003-L013.yaml'));
    const cs = await waitForStatus(
      client,
      { namespace: ns.name, name: 'sample', description: 'sample to have 5 ready pods' },
      settled,
    );
    expect(cs.status).toMatchObject({
      observedGeneration: 1,
      replicas: 5,
      readyReplicas: 5,
      availableReplicas: 5,
      updatedReplicas: 5,
      updatedReadyReplicas: 5,
      updatedAvailableReplicas: 5,
      expectedUpdatedReplicas: 5,
      labelSelector: 'app=sample',
      collisionCount: 0,
    });
    expect(cs.status?.currentRevision).toBe(cs.status?.updateRevision);
    expect(cs.status?.updateRevision).toMatch(/^sample-[bcdfghjklmnpqrstvwxz2456789]+$/);

    const pods = await activePods(client, ns.name, 'app=sample');
    expect(pods).toHaveLength(5);
    for (const pod of pods) {
      const id = pod.metadata?.labels?.[CLONESET_INSTANCE_ID_LABEL] ?? '';
      expect(id).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      expect(pod.metadata?.name).toBe(`sample-${id}`);
      expect(pod.metadata?.labels?.['controller-revision-hash']).toBe(cs.status?.updateRevision);
      expect(pod.metadata?.labels?.['pod-template-hash']).toBe(cs.status?.updateRevision?.split('-').at(-1));
      expect(pod.metadata?.labels?.['lifecycle.apps.kruise.io/state']).toBe('Normal');
      expect(pod.metadata?.ownerReferences?.[0]).toMatchObject({
        kind: 'CloneSet',
        name: 'sample',
        controller: true,
        blockOwnerDeletion: true,
      });
      // Both gates, as in OpenKruise, though the sample recreates pods (ReCreate): it may switch to an in-place strategy later.
      expect(pod.spec?.readinessGates?.map((g) => g.conditionType)).toEqual(['InPlaceUpdateReady', 'KruisePodReady']);
    }

    // The controller's cache holds the pods without what no workload controller reads (trimPodForCache).
    const cached = controller.manager.informers
      .informerFor({ resource: podResource, labelSelector: CLONESET_INSTANCE_ID_LABEL })
      .lister()
      .list();
    expect(cached.map((pod) => pod.metadata?.name).sort()).toEqual(pods.map((pod) => pod.metadata?.name).sort());
    expect(
      pods.every(
        (pod) =>
          pod.spec?.tolerations !== undefined &&
          pod.spec.volumes?.some((volume) => volume.name.startsWith('kube-api-access-')),
      ),
    ).toBe(true);
    expect(
      cached.some(
        (pod) =>
          pod.spec?.tolerations !== undefined || pod.spec?.volumes !== undefined || pod.status?.podIP !== undefined,
      ),
    ).toBe(false);
    expect(cached.map((pod) => pod.status?.containerStatuses?.[0]?.imageID)).toEqual(
      cached.map(
        (pod) => pods.find((p) => p.metadata?.name === pod.metadata?.name)?.status?.containerStatuses?.[0]?.imageID,
      ),
    );

    const table = (await kubeConfig
      .makeApiClient(CustomObjectsApi)
      .listNamespacedCustomObject(
        { group: 'apps.kruise.io', version: 'v1alpha1', namespace: ns.name, plural: 'clonesets' },
        setHeaderOptions('Accept', 'application/json;as=Table;v=v1;g=meta.k8s.io'),
      )) as { columnDefinitions: { name: string; priority: number }[]; rows: { cells: unknown[] }[] };
    expect(table.columnDefinitions.map((c) => c.name)).toEqual([
      'Name',
      'DESIRED',
      'UPDATED',
      'UPDATED_READY',
      'UPDATED_AVAILABLE',
      'READY',
      'TOTAL',
      'AGE',
      'CONTAINERS',
      'IMAGES',
      'SELECTOR',
    ]);
    expect(table.rows[0]?.cells.slice(0, 7)).toEqual(['sample', 5, 5, 5, 5, 5, 5]);

    // One SuccessfulCreate Event per pod, with OpenKruise's reason and message, from its component.
    const events = await waitFor(
      async () => {
        const list = await kubeConfig
          .makeApiClient(CoreV1Api)
          .listNamespacedEvent({ namespace: ns.name, fieldSelector: 'involvedObject.name=sample' });
        const created = list.items.filter((e) => e.reason === 'SuccessfulCreate');
        return created.length === 5 ? created : undefined;
      },
      { description: 'five SuccessfulCreate events' },
    );
    expect(events.map((e) => e.message).sort()).toEqual(
      pods.map((pod) => `succeed to create pod ${pod.metadata?.name ?? ''}`).sort(),
    );
    expect(
      events.every(
        (e) =>
          e.type === 'Normal' && e.source?.component === 'cloneset-controller' && e.involvedObject.kind === 'CloneSet',
      ),
    ).toBe(true);
  });

  it('counts a pod it deleted as gone once its deletion starts: the replacement does not wait for a finalizer', async () => {
    // Scale-in deletes a pod a finalizer holds; scaling out again must not wait until the pod is
    // really gone (OpenKruise and the ReplicaSet controller observe the deletion at deletionTimestamp).
    const hold = 'example.com/hold';
    await createCloneSet(client, ns.name, {
      metadata: { name: 'held' },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: 'held' } },
        template: {
          metadata: { labels: { app: 'held' }, finalizers: [hold] },
          spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] },
        },
      },
    });
    await waitForStatus(client, { namespace: ns.name, name: 'held', description: 'three pods' }, settled);
    const allPods = async (): Promise<Pod[]> =>
      (await client.list(podResource, { namespace: ns.name, labelSelector: 'app=held' })).items;
    try {
      await client.patch(
        cloneSetResource,
        { namespace: ns.name, name: 'held' },
        { type: 'merge', body: { spec: { replicas: 2 } } },
      );
      const terminating = await waitFor(
        async () => (await allPods()).find((pod) => pod.metadata?.deletionTimestamp !== undefined),
        { description: 'a pod held by its finalizer' },
      );
      await client.patch(
        cloneSetResource,
        { namespace: ns.name, name: 'held' },
        { type: 'merge', body: { spec: { replicas: 3 } } },
      );
      // Well within the controller's 60 s expectation timeout, after which it would go on anyway.
      await waitForStatus(
        client,
        { namespace: ns.name, name: 'held', description: 'three ready pods again', timeoutMs: 20_000 },
        (cs) => settled(cs) && cs.status?.replicas === 3,
      );
      const pods = await allPods();
      expect(pods.filter((pod) => pod.metadata?.deletionTimestamp === undefined)).toHaveLength(3);
      expect(pods.map((pod) => pod.metadata?.uid)).toContain(terminating.metadata?.uid);
    } finally {
      for (const pod of await allPods()) {
        await client.patch(
          podResource,
          { namespace: ns.name, name: pod.metadata?.name ?? '' },
          { type: 'json', body: [{ op: 'remove', path: '/metadata/finalizers' }] },
        );
      }
    }
  });

  it('scales in and out through the scale subresource, as kubectl scale and the HPA do', async () => {
    await waitForStatus(client, { namespace: ns.name, name: 'sample', description: 'sample settled' }, settled);
    await client.patch(
      cloneSetResource,
      { namespace: ns.name, name: 'sample' },
      { type: 'merge', body: { spec: { replicas: 2 } }, subresource: 'scale' },
    );
    await waitForStatus(
      client,
      { namespace: ns.name, name: 'sample', description: 'sample at 2 replicas' },
      (cs) => settled(cs) && cs.status?.replicas === 2,
    );
    expect(await activePods(client, ns.name, 'app=sample')).toHaveLength(2);
    await client.patch(
      cloneSetResource,
      { namespace: ns.name, name: 'sample' },
      { type: 'merge', body: { spec: { replicas: 4 } }, subresource: 'scale' },
    );
    await waitForStatus(
      client,
      { namespace: ns.name, name: 'sample', description: 'sample at 4 replicas' },
      (cs) => settled(cs) && cs.status?.replicas === 4,
    );
  });

  it('paces scale-up by scaleStrategy.maxUnavailable with minReadySeconds (never more unavailable pods than allowed)', async () => {
    const minReadySeconds = 2;
    await createCloneSet(client, ns.name, {
      metadata: { name: 'paced' },
      spec: {
        replicas: 6,
        minReadySeconds,
        selector: { matchLabels: { app: 'paced' } },
        template: {
          metadata: { labels: { app: 'paced' } },
          spec: { containers: [{ name: 'main', image: 'nginx:alpine' }] },
        },
        scaleStrategy: { maxUnavailable: 2 },
      },
    });
    const observedCounts = new Set<number>();
    let maxUnavailableSeen = 0;
    await waitFor(
      async () => {
        const pods = await activePods(client, ns.name, 'app=paced');
        const now = Date.now();
        observedCounts.add(pods.length);
        maxUnavailableSeen = Math.max(
          maxUnavailableSeen,
          pods.filter((pod) => !isAvailable(pod, minReadySeconds, now)).length,
        );
        return pods.length === 6 && pods.every((pod) => isAvailable(pod, minReadySeconds, now));
      },
      { description: 'six available pods', timeoutMs: 90_000, intervalMs: 50 },
    );
    expect(maxUnavailableSeen).toBeLessThanOrEqual(2);
    // Growth happened in steps bounded by the budget, not all six at once.
    expect([...observedCounts].some((count) => count > 0 && count <= 2)).toBe(true);
    // The status follows once minReadySeconds have passed for the last pod (a requeue, not a pod event).
    await waitForStatus(
      client,
      { namespace: ns.name, name: 'paced', description: 'paced reports 6 available' },
      (cs) => cs.status?.availableReplicas === 6,
    );
  });

  it('creates no extra pod when the controller restarts in the middle of a scale-up', async () => {
    await createCloneSet(client, ns.name, {
      metadata: { name: 'restart' },
      spec: {
        replicas: 12,
        minReadySeconds: 1,
        selector: { matchLabels: { app: 'restart' } },
        template: {
          metadata: { labels: { app: 'restart' } },
          spec: { containers: [{ name: 'main', image: 'nginx:alpine' }] },
        },
        scaleStrategy: { maxUnavailable: 3 },
      },
    });
    const seen = new Set<string>();
    const observe = async (): Promise<Pod[]> => {
      const pods = await activePods(client, ns.name, 'app=restart');
      for (const pod of pods) {
        seen.add(pod.metadata?.uid ?? '');
      }
      return pods;
    };
    await waitFor(async () => (await observe()).length >= 3, { description: 'the scale-up to be under way' });
    await controller.stop();
    controller = startController({ kubeConfig, namespace: ns.name });
    await waitFor(async () => (await observe()).length === 12, {
      description: 'twelve pods after the restart',
      timeoutMs: 90_000,
      intervalMs: 50,
    });
    await waitForStatus(
      client,
      { namespace: ns.name, name: 'restart', description: 'restart settled', timeoutMs: 90_000 },
      settled,
    );
    await observe();
    expect(seen.size).toBe(12);
  });
});
