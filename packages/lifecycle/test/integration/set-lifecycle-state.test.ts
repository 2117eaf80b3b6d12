import { describe, expect, it } from 'vitest';

import type { Pod } from '@kruise-ts/api';
import { createClient, Transport } from '@kruise-ts/controller-runtime';
import type { Client } from '@kruise-ts/controller-runtime';
import { createTestNamespace, testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';
import { conditionStatus, podResource } from '@kruise-ts/workload';

import { initialKruisePodReadyCondition, lifecycleState, setLifecycleState } from '../../src/index.ts';

const kubeConfig = testKubeConfig();
const STATE = 'lifecycle.apps.kruise.io/state';
const TIMESTAMP = 'lifecycle.apps.kruise.io/timestamp';
const RFC3339_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

function client(): Client {
  return createClient(new Transport({ kubeConfig, qps: 100, burst: 100, userAgent: 'kruise-ts-test' }));
}

/** Creates a Normal pod with the KruisePodReady gate (initialised True, as the podreadiness controller does) and waits until it is Ready. */
async function readyGatedPod(c: Client, namespace: string, name: string): Promise<Pod> {
  await c.create(podResource, {
    metadata: { name, namespace, labels: { app: 'web', [STATE]: 'Normal' } },
    spec: { containers: [{ name: 'c', image: 'nginx:1.25' }], readinessGates: [{ conditionType: 'KruisePodReady' }] },
  });
  await c.patchStatus(podResource, { namespace, name }, { type: 'strategic', body: { status: { conditions: [initialKruisePodReadyCondition(Date.now())] } } });
  return waitUntilReady(c, { namespace, name }, 'True');
}

function waitUntilReady(c: Client, key: { namespace: string; name: string }, status: 'True' | 'False'): Promise<Pod> {
  return waitFor(
    async () => {
      const pod = await c.get(podResource, key);
      return conditionStatus(pod, 'Ready') === status ? pod : undefined;
    },
    { description: `pod ${key.name} Ready=${status}` },
  );
}

describe('setLifecycleState on a real API server', () => {
  it('patches the state label and timestamp, and marks the pod not ready through KruisePodReady', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'lifecycle-delete');
    const c = client();
    const key = { namespace: ns.name, name: 'web-abcde' };
    const pod = await readyGatedPod(c, ns.name, key.name);

    const updated = await setLifecycleState({ client: c, pod, state: 'PreparingDelete', markPodNotReady: true, now: Date.now() });

    expect(lifecycleState(updated)).toBe('PreparingDelete');
    expect(updated.metadata?.annotations?.[TIMESTAMP]).toMatch(RFC3339_UTC);
    const gate = updated.status?.conditions?.find((c) => c.type === 'KruisePodReady');
    expect(gate).toMatchObject({ status: 'False', message: '[{"userAgent":"Lifecycle","key":"preDeleteHook"}]' });
    // The pod leaves endpoints: Ready follows the gate.
    await waitUntilReady(c, key, 'False');

    // Asking again for the same state writes nothing.
    const again = await c.get(podResource, key);
    expect(await setLifecycleState({ client: c, pod: again, state: 'PreparingDelete', markPodNotReady: true, now: Date.now() })).toBe(again);
  });

  it('turns KruisePodReady True again when the in-place update hook is done, and Ready follows', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'lifecycle-update');
    const c = client();
    const key = { namespace: ns.name, name: 'web-fghjk' };
    const pod = await readyGatedPod(c, ns.name, key.name);

    const preparing = await setLifecycleState({ client: c, pod, state: 'PreparingUpdate', markPodNotReady: true, now: Date.now() });
    expect(lifecycleState(preparing)).toBe('PreparingUpdate');
    await waitUntilReady(c, key, 'False');

    const updating = await setLifecycleState({ client: c, pod: await c.get(podResource, key), state: 'Updating', markPodNotReady: true, now: Date.now() });
    expect(lifecycleState(updating)).toBe('Updating');
    expect(conditionStatus(updating, 'KruisePodReady')).toBe('False');

    const updated = await setLifecycleState({ client: c, pod: await c.get(podResource, key), state: 'Updated', markPodNotReady: true, now: Date.now() });
    expect(lifecycleState(updated)).toBe('Updated');
    expect(updated.status?.conditions?.find((c) => c.type === 'KruisePodReady')).toMatchObject({ status: 'True', message: '[]' });
    await waitUntilReady(c, key, 'True');
  });

  it('retries the status write on a stale pod instead of dropping another actor’s message', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'lifecycle-stale');
    const c = client();
    const key = { namespace: ns.name, name: 'web-lmnpq' };
    const stale = await readyGatedPod(c, ns.name, key.name);
    // Another actor holds the pod not ready after our read.
    const other = { type: 'KruisePodReady', status: 'False', message: '[{"userAgent":"Other","key":"x"}]', lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z') };
    await c.patchStatus(podResource, key, { type: 'strategic', body: { status: { conditions: [other] } } });

    const updated = await setLifecycleState({ client: c, pod: stale, state: 'PreparingDelete', markPodNotReady: true, now: Date.now() });

    expect(updated.status?.conditions?.find((c) => c.type === 'KruisePodReady')?.message).toBe(
      '[{"userAgent":"Lifecycle","key":"preDeleteHook"},{"userAgent":"Other","key":"x"}]',
    );
  });
});
