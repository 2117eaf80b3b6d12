import { CoreV1Api, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import type { V1Pod, V1PodCondition } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';

import { createTestNamespace, testKubeConfig, waitFor } from '../../src/testing/index.ts';

const kubeConfig = testKubeConfig();
const core = kubeConfig.makeApiClient(CoreV1Api);
const strategicMerge = setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch);
const GATE = 'kruise-ts.io/test-gate';

function condition(pod: V1Pod, type: string): V1PodCondition | undefined {
  return pod.status?.conditions?.find((c) => c.type === type);
}

function isReady(pod: V1Pod): boolean {
  return condition(pod, 'Ready')?.status === 'True';
}

function podSpec(name: string, extra: Partial<V1Pod['spec']> = {}): V1Pod {
  return {
    metadata: { name, labels: { app: 'fidelity' } },
    spec: {
      containers: [
        {
          name: 'main',
          image: 'nginx:1.25',
          resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '200m', memory: '128Mi' } },
        },
        { name: 'sidecar', image: 'busybox:1.36' },
      ],
      ...extra,
    },
  };
}

async function createRunningPod(namespace: string, pod: V1Pod): Promise<V1Pod> {
  const name = pod.metadata?.name ?? '';
  await core.createNamespacedPod({ namespace, body: pod });
  return waitFor(
    async () => {
      const current = await core.readNamespacedPod({ name, namespace });
      return current.status?.phase === 'Running' ? current : undefined;
    },
    { description: `pod ${name} to be Running` },
  );
}

async function setGate(namespace: string, name: string, status: 'True' | 'False'): Promise<void> {
  await core.patchNamespacedPodStatus(
    { name, namespace, body: { status: { conditions: [{ type: GATE, status, lastTransitionTime: new Date() }] } } },
    strategicMerge,
  );
}

function container(
  pod: V1Pod,
  name: string,
): NonNullable<NonNullable<V1Pod['status']>['containerStatuses']>[number] | undefined {
  return pod.status?.containerStatuses?.find((c) => c.name === name);
}

describe('kubelet fidelity of the fake nodes', () => {
  it('a pod bound to a fake node becomes Running and Ready, with image, imageID and pod IP', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'fidelity-start');
    const pod = await createRunningPod(ns.name, podSpec('start'));
    const ready = await waitFor(
      async () => {
        const current = await core.readNamespacedPod({ name: 'start', namespace: ns.name });
        return isReady(current) ? current : undefined;
      },
      { description: 'pod start to be Ready' },
    );

    expect(pod.spec?.nodeName).toMatch(/^kwok-node-\d+$/);
    expect(ready.status?.podIP).toMatch(/^10\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\./);
    expect(condition(ready, 'ContainersReady')?.status).toBe('True');
    expect(ready.status?.containerStatuses?.map((c) => [c.name, c.image, c.ready, c.restartCount])).toEqual([
      ['main', 'nginx:1.25', true, 0],
      ['sidecar', 'busybox:1.36', true, 0],
    ]);
    expect(container(ready, 'main')?.imageID).toMatch(/^sim\.kruise-ts\.io\/image@sha256:[0-9a-f]{64}$/);
    expect(container(ready, 'main')?.state?.running?.startedAt).toBeInstanceOf(Date);
  });

  it('Ready honours readinessGates: no gate condition or False means NotReady, True means Ready', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'fidelity-gates');
    await createRunningPod(ns.name, podSpec('gated', { readinessGates: [{ conditionType: GATE }] }));
    const read = (): Promise<V1Pod> => core.readNamespacedPod({ name: 'gated', namespace: ns.name });

    const initial = await read();
    expect(condition(initial, 'ContainersReady')?.status).toBe('True');
    expect(condition(initial, 'Ready')).toMatchObject({ status: 'False', reason: 'ReadinessGatesNotReady' });

    await setGate(ns.name, 'gated', 'True');
    await waitFor(async () => isReady(await read()), { description: 'Ready=True after the gate turned True' });

    await setGate(ns.name, 'gated', 'False');
    const notReady = await waitFor(
      async () => {
        const current = await read();
        return isReady(current) ? undefined : current;
      },
      { description: 'Ready=False after the gate turned False' },
    );
    expect(condition(notReady, 'Ready')?.reason).toBe('ReadinessGatesNotReady');

    await setGate(ns.name, 'gated', 'True');
    const readyAgain = await waitFor(
      async () => {
        const current = await read();
        return isReady(current) ? current : undefined;
      },
      { description: 'Ready=True again' },
    );
    expect(condition(readyAgain, 'Ready')?.reason).toBeUndefined();
  });

  it('a changed container image restarts that container only: restartCount + 1, new image and imageID', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'fidelity-image');
    const before = await createRunningPod(ns.name, podSpec('image'));
    const mainBefore = container(before, 'main');
    const sidecarBefore = container(before, 'sidecar');

    await core.patchNamespacedPod(
      { name: 'image', namespace: ns.name, body: { spec: { containers: [{ name: 'main', image: 'nginx:1.26' }] } } },
      strategicMerge,
    );
    const after = await waitFor(
      async () => {
        const current = await core.readNamespacedPod({ name: 'image', namespace: ns.name });
        return container(current, 'main')?.image === 'nginx:1.26' ? current : undefined;
      },
      { description: 'the main container to run nginx:1.26' },
    );

    const mainAfter = container(after, 'main');
    expect(mainAfter?.restartCount).toBe(1);
    expect(mainAfter?.imageID).not.toBe(mainBefore?.imageID);
    expect(mainAfter?.imageID).toMatch(/^sim\.kruise-ts\.io\/image@sha256:[0-9a-f]{64}$/);
    expect(mainAfter?.containerID).not.toBe(mainBefore?.containerID);
    expect(mainAfter?.lastState?.terminated?.containerID).toBe(mainBefore?.containerID);
    expect(mainAfter?.ready).toBe(true);
    expect(container(after, 'sidecar')).toMatchObject({
      restartCount: 0,
      image: 'busybox:1.36',
      imageID: sidecarBefore?.imageID,
      containerID: sidecarBefore?.containerID,
    });
    expect(after.metadata?.uid).toBe(before.metadata?.uid);
    expect(isReady(after)).toBe(true);
  });

  it('a resize through pods/resize shows in containerStatuses[].resources, restarting only where resizePolicy says so', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'fidelity-resize');
    const spec = podSpec('resize');
    const main = spec.spec?.containers[0];
    if (main !== undefined) {
      main.resizePolicy = [
        { resourceName: 'cpu', restartPolicy: 'NotRequired' },
        { resourceName: 'memory', restartPolicy: 'RestartContainer' },
      ];
    }
    const before = await createRunningPod(ns.name, spec);
    expect(container(before, 'main')?.resources).toEqual({
      requests: { cpu: '100m', memory: '64Mi' },
      limits: { cpu: '200m', memory: '128Mi' },
    });

    const resize = async (resources: object): Promise<V1Pod> => {
      await core.patchNamespacedPodResize(
        { name: 'resize', namespace: ns.name, body: { spec: { containers: [{ name: 'main', resources }] } } },
        strategicMerge,
      );
      const target = JSON.stringify(
        (await core.readNamespacedPod({ name: 'resize', namespace: ns.name })).spec?.containers[0]?.resources,
      );
      return waitFor(
        async () => {
          const current = await core.readNamespacedPod({ name: 'resize', namespace: ns.name });
          return JSON.stringify(container(current, 'main')?.resources) === target ? current : undefined;
        },
        { description: 'the resize to show in containerStatuses' },
      );
    };

    const cpuResized = await resize({ requests: { cpu: '150m' }, limits: { cpu: '300m' } });
    expect(container(cpuResized, 'main')).toMatchObject({
      resources: { requests: { cpu: '150m', memory: '64Mi' }, limits: { cpu: '300m', memory: '128Mi' } },
      allocatedResources: { cpu: '150m', memory: '64Mi' },
      restartCount: 0,
    });
    expect(cpuResized.status?.qosClass).toBe('Burstable');
    expect(cpuResized.status?.observedGeneration).toBe(cpuResized.metadata?.generation);

    const memoryResized = await resize({ requests: { memory: '96Mi' }, limits: { memory: '192Mi' } });
    expect(container(memoryResized, 'main')).toMatchObject({
      resources: { requests: { cpu: '150m', memory: '96Mi' }, limits: { cpu: '300m', memory: '192Mi' } },
      restartCount: 1,
    });
    expect(container(memoryResized, 'sidecar')?.restartCount).toBe(0);
  });

  it('a pod deleted with a grace period goes away, and a finalizer still holds it until removed', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'fidelity-delete');
    await createRunningPod(ns.name, podSpec('graceful', { terminationGracePeriodSeconds: 30 }));
    const finalized = podSpec('finalized');
    finalized.metadata = { name: 'finalized', finalizers: ['kruise-ts.io/test'] };
    await createRunningPod(ns.name, finalized);

    await core.deleteNamespacedPod({ name: 'graceful', namespace: ns.name, gracePeriodSeconds: 30 });
    await core.deleteNamespacedPod({ name: 'finalized', namespace: ns.name, gracePeriodSeconds: 30 });
    const names = async (): Promise<string[]> =>
      (await core.listNamespacedPod({ namespace: ns.name })).items.map((p) => p.metadata?.name ?? '');
    await waitFor(async () => !(await names()).includes('graceful'), { description: 'pod graceful to be gone' });

    const held = await core.readNamespacedPod({ name: 'finalized', namespace: ns.name });
    expect(held.metadata?.deletionTimestamp).toBeInstanceOf(Date);
    await core.patchNamespacedPod(
      { name: 'finalized', namespace: ns.name, body: [{ op: 'remove', path: '/metadata/finalizers' }] },
      setHeaderOptions('Content-Type', PatchStrategy.JsonPatch),
    );
    await waitFor(async () => (await names()).length === 0, {
      description: 'pod finalized to be gone once its finalizer is removed',
    });
  });
});

describe('persistent volumes of the local cluster', () => {
  it('provisions and binds a claim of the default class, runs a pod with it, and deletes the volume after the claim', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'fidelity-pvc');
    await core.createNamespacedPersistentVolumeClaim({
      namespace: ns.name,
      body: {
        metadata: { name: 'data' },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
      },
    });
    const bound = await waitFor(
      async () => {
        const pvc = await core.readNamespacedPersistentVolumeClaim({ name: 'data', namespace: ns.name });
        return pvc.status?.phase === 'Bound' ? pvc : undefined;
      },
      { description: 'the claim to be Bound', timeoutMs: 60_000 },
    );
    expect(bound.spec?.storageClassName).toBe('standard');
    const volumeName = bound.spec?.volumeName ?? '';
    expect((await core.readPersistentVolume({ name: volumeName })).spec?.claimRef?.name).toBe('data');

    const withVolume = podSpec('with-volume', {
      volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }],
    });
    await createRunningPod(ns.name, withVolume);

    await core.deleteNamespacedPod({ name: 'with-volume', namespace: ns.name });
    await core.deleteNamespacedPersistentVolumeClaim({ name: 'data', namespace: ns.name });
    await waitFor(
      async () => !(await core.listPersistentVolume()).items.some((pv) => pv.metadata?.name === volumeName),
      {
        description: `volume ${volumeName} to be deleted after its claim`,
        timeoutMs: 60_000,
      },
    );
  });
});
