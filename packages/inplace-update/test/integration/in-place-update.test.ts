/**
 * In-place updates of real pods on the local API server with kwok's fake kubelet: the writes of each
 * scenario are counted on the transport, so the numbers in the README are measured here.
 */
import { setTimeout as sleep } from 'node:timers/promises';

import { describe, expect, it } from 'vitest';

import type { Pod, PodTemplateSpec } from '@kruise-ts/api';
import { LIFECYCLE_STATE_LABEL } from '@kruise-ts/api';
import type { Client, DeepReadonly } from '@kruise-ts/controller-runtime';
import { createTestNamespace, testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';
import { revisionLabels } from '@kruise-ts/revision';
import { podResource } from '@kruise-ts/workload';

import {
  calculateInPlaceUpdateSpec,
  completeInPlaceUpdate,
  INPLACE_UPDATE_GRACE_ANNOTATION,
  isInPlaceUpdateCompleted,
  readInPlaceUpdateState,
  refreshInPlaceUpdate,
  startInPlaceUpdate,
} from '../../src/index.ts';
import type {
  InPlaceUpdateClient,
  InPlaceUpdateGates,
  RefreshInPlaceUpdateResult,
  UpdateSpec,
} from '../../src/index.ts';
import { revisionOf } from '../fixtures/revisions.ts';
import { countingClient, createRunningPod, inPlaceUpdateReady, isReady, podClient } from './support.ts';

const kubeConfig = testKubeConfig();
const GATES: InPlaceUpdateGates = {
  verticalScaling: false,
  envFromMetadata: true,
  recreateOnVolumeClaimTemplatesChange: false,
};

function template(
  image: string,
  resources?: NonNullable<PodTemplateSpec['spec']>['containers'][number]['resources'],
): PodTemplateSpec {
  return {
    metadata: { labels: { app: 'demo' } },
    spec: { containers: [{ name: 'main', image, ...(resources === undefined ? {} : { resources }) }] },
  };
}

function specFor(
  before: PodTemplateSpec,
  after: PodTemplateSpec,
  options: { readonly grace?: number; readonly gates?: Partial<InPlaceUpdateGates> } = {},
): UpdateSpec {
  const decision = calculateInPlaceUpdateSpec({
    oldRevision: revisionOf('demo-1', before),
    newRevision: revisionOf('demo-2', after),
    gracePeriodSeconds: options.grace ?? 0,
    inPlaceOnly: false,
    gates: { ...GATES, ...options.gates },
  });
  if (decision.kind !== 'in-place') {
    throw new Error(`expected an in-place decision, got: ${decision.reason}`);
  }
  return decision.spec;
}

const UPDATING = {
  labels: { ...revisionLabels('demo-2', { shortHash: false }), [LIFECYCLE_STATE_LABEL]: 'Updating' },
  annotations: {},
};

/** Refreshes (from fresh reads) until the outcome is one of `outcomes`; returns the results seen. */
/** Waits until the (simulated) kubelet has set Ready True after the gate turned True. */
async function waitUntilReady(client: Client, pod: DeepReadonly<Pod>): Promise<void> {
  await waitFor(
    async () =>
      isReady(await client.get(podResource, { namespace: pod.metadata?.namespace, name: pod.metadata?.name ?? '' })) ||
      undefined,
    { description: 'the kubelet to set Ready True' },
  );
}

async function refreshUntil(
  client: Client,
  pod: DeepReadonly<Pod>,
  outcomes: readonly string[],
): Promise<RefreshInPlaceUpdateResult[]> {
  const seen: RefreshInPlaceUpdateResult[] = [];
  await waitFor(
    async () => {
      const current = await client.get(podResource, {
        namespace: pod.metadata?.namespace,
        name: pod.metadata?.name ?? '',
      });
      const result = await refreshInPlaceUpdate({
        client: podClient(client),
        pod: current,
        now: Date.now(),
        verticalScaling: false,
      });
      seen.push(result);
      return outcomes.includes(result.outcome);
    },
    { description: `refresh outcome ${outcomes.join(' or ')}`, intervalMs: 200 },
  );
  return seen;
}

describe('in-place update on a real API server', () => {
  it('image: out of service, image patched, restarted by the kubelet, back in service — 3 writes', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'inplace-image');
    const { client, writes } = countingClient(kubeConfig);
    const pod = await createRunningPod({
      client,
      namespace: ns.name,
      name: 'web',
      template: template('nginx:1.25'),
      revision: 'demo-1',
    });
    const before = writes();

    const started = await startInPlaceUpdate({
      client: podClient(client),
      pod,
      spec: specFor(template('nginx:1.25'), template('nginx:1.27')),
      now: Date.now(),
      ...UPDATING,
      verticalScaling: false,
    });
    expect(started.writes).toBe(2);
    expect(started.delayMs).toBeUndefined();
    expect(inPlaceUpdateReady(started.pod)).toBe('False');
    expect(isReady(started.pod)).toBe(false);
    expect(started.pod.spec?.containers[0]?.image).toBe('nginx:1.27');
    expect(started.pod.metadata?.labels).toMatchObject({
      'controller-revision-hash': 'demo-2',
      'pod-template-hash': '2',
      [LIFECYCLE_STATE_LABEL]: 'Updating',
    });
    expect(readInPlaceUpdateState(started.pod)).toMatchObject({
      revision: 'demo-2',
      updateImages: true,
      lastContainerStatuses: { main: { imageID: pod.status?.containerStatuses?.[0]?.imageID } },
    });

    const seen = await refreshUntil(client, started.pod, ['completed']);
    expect(seen.every((result) => result.writes === 0)).toBe(true);
    const done = seen.at(-1)?.pod;
    expect(done?.status?.containerStatuses?.[0]).toMatchObject({ image: 'nginx:1.27', restartCount: 1 });
    expect(done === undefined ? false : isInPlaceUpdateCompleted(done, { verticalScaling: false })).toBe(true);

    const completed = await completeInPlaceUpdate({
      client: podClient(client),
      pod: done ?? started.pod,
      now: Date.now(),
      labels: { [LIFECYCLE_STATE_LABEL]: 'Normal' },
    });
    expect(completed.writes).toBe(1);
    expect(inPlaceUpdateReady(completed.pod)).toBe('True');
    // Ready True is the kubelet's to write (here kwok's); our write leaves it.
    expect(isReady(completed.pod)).toBe(false);
    await waitUntilReady(client, completed.pod);
    expect(completed.pod.metadata?.labels?.[LIFECYCLE_STATE_LABEL]).toBe('Normal');
    // OpenKruise: UpdateStatus (not ready), Update (image), UpdateStatus (ready), lifecycle patch = 4.
    expect(writes() - before).toBe(3);
  });

  it('grace period: the spec waits in an annotation, then refresh applies it — 4 writes', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'inplace-grace');
    const { client, writes } = countingClient(kubeConfig);
    const pod = await createRunningPod({
      client,
      namespace: ns.name,
      name: 'web',
      template: template('nginx:1.25'),
      revision: 'demo-1',
    });
    const before = writes();

    const started = await startInPlaceUpdate({
      client: podClient(client),
      pod,
      spec: specFor(template('nginx:1.25'), template('nginx:1.27'), { grace: 2 }),
      now: Date.now(),
      ...UPDATING,
      verticalScaling: false,
    });
    // 2 s counted from the end of the whole second the update started in, rounded up: 3 s.
    expect(started).toMatchObject({ writes: 2, delayMs: 3000 });
    expect(started.pod.spec?.containers[0]?.image).toBe('nginx:1.25');
    expect(started.pod.metadata?.annotations?.[INPLACE_UPDATE_GRACE_ANNOTATION]).toBeDefined();
    expect(isReady(started.pod)).toBe(false);

    const waiting = await refreshInPlaceUpdate({
      client: podClient(client),
      pod: started.pod,
      now: Date.now(),
      verticalScaling: false,
    });
    expect(waiting.outcome).toBe('grace-waiting');
    expect(waiting.delayMs).toBeGreaterThan(0);
    await sleep(waiting.delayMs ?? 0);
    const applied = await refreshUntil(client, waiting.pod, ['grace-applied']);
    const appliedPod = applied.at(-1)?.pod;
    expect(appliedPod?.spec?.containers[0]?.image).toBe('nginx:1.27');
    expect(appliedPod?.metadata?.annotations?.[INPLACE_UPDATE_GRACE_ANNOTATION]).toBeUndefined();

    const done = (await refreshUntil(client, started.pod, ['completed'])).at(-1)?.pod;
    const completed = await completeInPlaceUpdate({
      client: podClient(client),
      pod: done ?? started.pod,
      now: Date.now(),
      labels: { [LIFECYCLE_STATE_LABEL]: 'Normal' },
    });
    await waitUntilReady(client, completed.pod);
    expect(writes() - before).toBe(4);
  });

  it('a pod relabelled during its grace period drops the pending spec', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'inplace-grace-drop');
    const { client } = countingClient(kubeConfig);
    const pod = await createRunningPod({
      client,
      namespace: ns.name,
      name: 'web',
      template: template('nginx:1.25'),
      revision: 'demo-1',
    });
    const started = await startInPlaceUpdate({
      client: podClient(client),
      pod,
      spec: specFor(template('nginx:1.25'), template('nginx:1.27'), { grace: 60 }),
      now: Date.now(),
      ...UPDATING,
      verticalScaling: false,
    });
    const relabelled = await client.patch(
      podResource,
      { namespace: ns.name, name: 'web' },
      {
        type: 'merge',
        body: { metadata: { labels: { 'controller-revision-hash': 'demo-3', 'pod-template-hash': '3' } } },
      },
    );
    expect(started.pod.metadata?.resourceVersion).not.toBe(relabelled.metadata?.resourceVersion);
    const dropped = await refreshInPlaceUpdate({
      client: podClient(client),
      pod: relabelled,
      now: Date.now(),
      verticalScaling: false,
    });
    expect(dropped).toMatchObject({ outcome: 'grace-dropped', writes: 1 });
    expect(dropped.pod.metadata?.annotations?.[INPLACE_UPDATE_GRACE_ANNOTATION]).toBeUndefined();
    expect(dropped.pod.spec?.containers[0]?.image).toBe('nginx:1.25');
  });

  it('resize: pods/resize, then the pod patch (uid precondition), the pod stays in service — 2 writes, 1 more for the lifecycle label', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'inplace-resize');
    const { client, writes } = countingClient(kubeConfig);
    const small = { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '200m', memory: '128Mi' } };
    const large = { requests: { cpu: '150m', memory: '64Mi' }, limits: { cpu: '300m', memory: '128Mi' } };
    const pod = await createRunningPod({
      client,
      namespace: ns.name,
      name: 'web',
      template: template('nginx:1.25', small),
      revision: 'demo-1',
    });
    const before = writes();

    const spec = specFor(template('nginx:1.25', small), template('nginx:1.25', large), {
      gates: { verticalScaling: true },
    });
    expect(spec.containerResources).toEqual({ main: { requests: { cpu: '150m' }, limits: { cpu: '300m' } } });
    const started = await startInPlaceUpdate({
      client: podClient(client),
      pod,
      spec,
      now: Date.now(),
      ...UPDATING,
      verticalScaling: true,
    });
    expect(started.writes).toBe(2);
    expect(started.pod.spec?.containers[0]?.resources).toEqual(large);
    expect(isReady(started.pod)).toBe(true);

    const done = await waitFor(
      async () => {
        const current = await client.get(podResource, { namespace: ns.name, name: 'web' });
        return isInPlaceUpdateCompleted(current, { verticalScaling: true }) ? current : undefined;
      },
      { description: 'the kubelet to report the new resources' },
    );
    expect(done.status?.containerStatuses?.[0]?.resources).toEqual(large);
    const refreshed = await refreshInPlaceUpdate({
      client: podClient(client),
      pod: done,
      now: Date.now(),
      verticalScaling: true,
    });
    expect(refreshed).toMatchObject({ outcome: 'none', writes: 0 });
    const completed = await completeInPlaceUpdate({
      client: podClient(client),
      pod: done,
      now: Date.now(),
      labels: { [LIFECYCLE_STATE_LABEL]: 'Normal' },
    });
    expect(completed.writes).toBe(1);
    expect(writes() - before).toBe(3);
  });

  it('retries on a fresh read when another writer changes the pod between its writes', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'inplace-conflict');
    const { client, writes, conflicts } = countingClient(kubeConfig);
    const other = countingClient(kubeConfig).client;
    const pod = await createRunningPod({
      client,
      namespace: ns.name,
      name: 'web',
      template: template('nginx:1.25'),
      revision: 'demo-1',
    });
    const before = writes();
    let interfered = false;
    // Another actor writes right after the status write, so the pod patch's resourceVersion is stale.
    const pods = podClient(client);
    const racing: InPlaceUpdateClient = {
      ...pods,
      patchStatus: async (...args: Parameters<InPlaceUpdateClient['patchStatus']>) => {
        const result = await pods.patchStatus(...args);
        if (!interfered) {
          interfered = true;
          await other.patch(
            podResource,
            { namespace: ns.name, name: 'web' },
            { type: 'merge', body: { metadata: { labels: { 'example.com/other': 'writer' } } } },
          );
        }
        return result;
      },
    };

    const started = await startInPlaceUpdate({
      client: racing,
      pod,
      spec: specFor(template('nginx:1.25'), template('nginx:1.27')),
      now: Date.now(),
      ...UPDATING,
      verticalScaling: false,
    });
    expect(started.writes).toBe(3);
    expect(conflicts()).toBe(1);
    expect(writes() - before).toBe(3);
    expect(started.pod.metadata?.labels).toMatchObject({
      'example.com/other': 'writer',
      'controller-revision-hash': 'demo-2',
    });
    expect(started.pod.spec?.containers[0]?.image).toBe('nginx:1.27');
    expect(inPlaceUpdateReady(started.pod)).toBe('False');
  });

  it('without the readiness gate: one write to start, none to complete', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'inplace-nogate');
    const { client, writes } = countingClient(kubeConfig);
    const pod = await createRunningPod({
      client,
      namespace: ns.name,
      name: 'web',
      template: template('nginx:1.25'),
      revision: 'demo-1',
      readinessGate: false,
    });
    const before = writes();
    const started = await startInPlaceUpdate({
      client: podClient(client),
      pod,
      spec: specFor(template('nginx:1.25'), template('nginx:1.27')),
      now: Date.now(),
      ...UPDATING,
      verticalScaling: false,
    });
    expect(started.writes).toBe(1);
    expect(isReady(started.pod)).toBe(true);
    const seen = await refreshUntil(client, started.pod, ['none']);
    const done = seen.at(-1)?.pod;
    expect(done === undefined ? false : isInPlaceUpdateCompleted(done, { verticalScaling: false })).toBe(true);
    expect(writes() - before).toBe(1);
  });
});
