/**
 * setLifecycleState against a real kube-apiserver: the one-write transition relies on pods/status
 * accepting metadata labels, annotations and finalizers together with the KruisePodReady condition.
 */
import { CoreV1Api } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';

import { KRUISE_POD_READY, LIFECYCLE_STATE_LABEL, LIFECYCLE_TIMESTAMP_ANNOTATION } from '@kruise-ts/api';
import type { Pod } from '@kruise-ts/api';
import { createClient, resourceClient, Transport } from '@kruise-ts/controller-runtime';
import { createTestNamespace, testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';
import { podResource } from '@kruise-ts/workload';

import { setLifecycleState } from '../../src/index.ts';
import type { LifecyclePodClient } from '../../src/index.ts';

const kubeConfig = testKubeConfig();

describe('setLifecycleState on a real API server', () => {
  it('moves a pod to PreparingUpdate, re-applies the hook and marks it not ready in one write', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'lifecycle-write');
    let requests = 0;
    const transport = new Transport({ kubeConfig, qps: 100, burst: 100, userAgent: 'lifecycle-test' });
    const client = createClient(transport);
    const pods = resourceClient(client, podResource);
    const counting: LifecyclePodClient = {
      get: (key) => pods.get(key),
      patch: (key, patch) => {
        requests++;
        return pods.patch(key, patch);
      },
      patchStatus: (key, patch) => {
        requests++;
        return pods.patchStatus(key, patch);
      },
    };
    await kubeConfig.makeApiClient(CoreV1Api).createNamespacedPod({
      namespace: ns.name,
      body: {
        metadata: { name: 'hooked', labels: { [LIFECYCLE_STATE_LABEL]: 'Updated' } },
        spec: {
          readinessGates: [{ conditionType: KRUISE_POD_READY }],
          containers: [{ name: 'main', image: 'nginx:alpine' }],
        },
      },
    });
    // The readiness condition as the controller initialises it, and the pod Running and Ready.
    const initial = await client.patchStatus(
      podResource,
      { namespace: ns.name, name: 'hooked' },
      {
        type: 'strategic',
        body: { status: { conditions: [{ type: KRUISE_POD_READY, status: 'True' }] } },
      },
    );
    const ready: Pod = await waitFor(
      async () => {
        const pod = await client.get(podResource, { namespace: ns.name, name: 'hooked' });
        return pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true
          ? pod
          : undefined;
      },
      { description: 'the pod to be Ready' },
    );
    expect(Number(ready.metadata?.resourceVersion)).toBeGreaterThanOrEqual(Number(initial.metadata?.resourceVersion));

    const written = await setLifecycleState({
      client: counting,
      pod: ready,
      state: 'PreparingUpdate',
      markPodNotReady: true,
      now: Date.now(),
      reapplyHook: { labelsHandler: { 'example.com/serving': 'true' }, finalizersHandler: ['example.com/hold'] },
    });
    expect(requests).toBe(1);
    expect(written.metadata?.labels).toMatchObject({
      [LIFECYCLE_STATE_LABEL]: 'PreparingUpdate',
      'example.com/serving': 'true',
    });
    expect(written.metadata?.annotations?.[LIFECYCLE_TIMESTAMP_ANNOTATION]).toMatch(
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/,
    );
    expect(written.metadata?.finalizers).toEqual(['example.com/hold']);
    expect(written.status?.conditions?.find((c) => c.type === KRUISE_POD_READY)).toMatchObject({
      status: 'False',
      message: '[{"userAgent":"Lifecycle","key":"preUpdateHook"}]',
    });
    // The fake kubelet (kwok) takes the pod out of Ready because a readiness gate is False.
    await waitFor(
      async () =>
        (await client.get(podResource, { namespace: ns.name, name: 'hooked' })).status?.conditions?.some(
          (c) => c.type === 'Ready' && c.status === 'False',
        ),
      {
        description: 'the pod to become not Ready',
      },
    );
    await client.patch(
      podResource,
      { namespace: ns.name, name: 'hooked' },
      { type: 'json', body: [{ op: 'remove', path: '/metadata/finalizers' }] },
    );
  });
});
