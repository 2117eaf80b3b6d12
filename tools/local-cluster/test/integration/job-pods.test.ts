/**
 * Job pods on the fake kubelet: pods with restartPolicy Never or OnFailure run for the time their
 * annotations ask for and then succeed, fail, or restart, on the real API server; pods with
 * restartPolicy Always run on. Pods are pinned to a node the way BroadcastJob pins them (required node
 * affinity on metadata.name, bound by kube-scheduler). A watch records every version of every pod, so
 * that short-lived states (Running for a moment, a crash between restarts) are seen, not sampled.
 */
import { CoreV1Api, Watch } from '@kubernetes/client-node';
import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';

import { simulatedJobRunAnnotations } from '../../src/index.ts';
import type { SimulatedJobRun } from '../../src/index.ts';
import { createTestNamespace, testKubeConfig, waitFor } from '../../src/testing/index.ts';

const kubeConfig = testKubeConfig();
const core = kubeConfig.makeApiClient(CoreV1Api);

/** The JSON of a watched pod, as far as these tests read it (dates stay strings). */
interface ContainerStatusJson {
  readonly name: string;
  readonly ready: boolean;
  readonly restartCount: number;
  readonly state?: {
    readonly running?: object;
    readonly waiting?: { readonly reason?: string };
    readonly terminated?: { readonly exitCode: number; readonly reason?: string };
  };
  readonly lastState?: { readonly terminated?: { readonly exitCode: number; readonly reason?: string } };
}
interface PodJson {
  readonly metadata: { readonly name: string };
  readonly spec: { readonly nodeName?: string };
  readonly status?: {
    readonly phase?: string;
    readonly conditions?: readonly { readonly type: string; readonly status: string; readonly reason?: string }[];
    readonly containerStatuses?: readonly ContainerStatusJson[];
    readonly initContainerStatuses?: readonly ContainerStatusJson[];
  };
}
interface Seen {
  readonly at: number;
  readonly pod: PodJson;
}

interface PodWatch extends AsyncDisposable {
  /** Every version of the pod seen so far, oldest first. */
  history(name: string): readonly Seen[];
}

async function watchPods(namespace: string): Promise<PodWatch> {
  const seen = new Map<string, Seen[]>();
  const record = (_type: string, pod: PodJson): void => {
    const list = seen.get(pod.metadata.name) ?? [];
    list.push({ at: Date.now(), pod });
    seen.set(pod.metadata.name, list);
  };
  const controller = await new Watch(kubeConfig).watch(
    `/api/v1/namespaces/${namespace}/pods`,
    {},
    record,
    () => undefined,
  );
  return {
    history: (name) => seen.get(name) ?? [],
    [Symbol.asyncDispose]: () => {
      controller.abort();
      return Promise.resolve();
    },
  };
}

async function anyFakeNode(): Promise<string> {
  const nodes = await core.listNode();
  const node = nodes.items.find(
    (n) =>
      /^kwok-node-\d+$/.test(n.metadata?.name ?? '') &&
      n.spec?.unschedulable !== true &&
      n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true,
  );
  if (node?.metadata?.name === undefined) {
    throw new Error('no Ready kwok node');
  }
  return node.metadata.name;
}

interface PodOptions {
  readonly node: string;
  readonly restartPolicy: 'Never' | 'OnFailure' | 'Always';
  readonly run?: SimulatedJobRun;
}

function jobPod(name: string, { node, restartPolicy, run }: PodOptions): V1Pod {
  return {
    metadata: { name, annotations: run === undefined ? {} : simulatedJobRunAnnotations(run) },
    spec: {
      restartPolicy,
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] }],
          },
        },
      },
      containers: [
        { name: 'main', image: 'busybox:1.36', resources: { requests: { cpu: '10m' } } },
        { name: 'helper', image: 'busybox:1.36' },
      ],
    },
  };
}

const latest = (history: readonly Seen[]): PodJson | undefined => history.at(-1)?.pod;
const phaseOf = (pod: PodJson | undefined): string | undefined => pod?.status?.phase;
const condition = (pod: PodJson | undefined, type: string) => pod?.status?.conditions?.find((c) => c.type === type);
const container = (pod: PodJson | undefined, name = 'main'): ContainerStatusJson | undefined =>
  pod?.status?.containerStatuses?.find((c) => c.name === name);

/** The phases the pod went through, each once, in order. */
function phases(history: readonly Seen[]): string[] {
  const out: string[] = [];
  for (const { pod } of history) {
    const phase = phaseOf(pod);
    if (phase !== undefined && out.at(-1) !== phase) {
      out.push(phase);
    }
  }
  return out;
}

/** When the pod was first seen in `phase` (ms since the epoch). */
function firstSeen(history: readonly Seen[], phase: string): number {
  const found = history.find(({ pod }) => phaseOf(pod) === phase);
  if (found === undefined) {
    throw new Error(`never ${phase}`);
  }
  return found.at;
}

async function waitForPhase(watch: PodWatch, name: string, phase: string): Promise<PodJson> {
  return waitFor(
    () => {
      const pod = latest(watch.history(name));
      return Promise.resolve(phaseOf(pod) === phase ? pod : undefined);
    },
    { description: `pod ${name} to be ${phase}`, timeoutMs: 60_000 },
  );
}

describe('job pods on the fake kubelet', () => {
  it('Never pods succeed after their run time (default one second): Pending, Running, Succeeded, containers Completed', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'job-pods-succeed');
    await using watch = await watchPods(ns.name);
    const node = await anyFakeNode();
    const withSidecar = jobPod('sidecar', { node, restartPolicy: 'Never', run: { runMs: 0 } });
    if (withSidecar.spec !== undefined) {
      withSidecar.spec.initContainers = [
        { name: 'init', image: 'busybox:1.36' },
        { name: 'proxy', image: 'envoy:1.30', restartPolicy: 'Always' },
      ];
    }
    await core.createNamespacedPod({
      namespace: ns.name,
      body: jobPod('long', { node, restartPolicy: 'Never', run: { runMs: 3000, outcome: 'succeed' } }),
    });
    await core.createNamespacedPod({ namespace: ns.name, body: jobPod('default', { node, restartPolicy: 'Never' }) });
    await core.createNamespacedPod({ namespace: ns.name, body: withSidecar });

    const long = await waitForPhase(watch, 'long', 'Succeeded');
    await waitForPhase(watch, 'default', 'Succeeded');
    await waitForPhase(watch, 'sidecar', 'Succeeded');

    for (const name of ['long', 'default', 'sidecar']) {
      expect(phases(watch.history(name)), name).toEqual(['Pending', 'Running', 'Succeeded']);
    }
    expect(long.spec.nodeName).toBe(node);
    expect(
      long.status?.containerStatuses?.map((c) => [
        c.name,
        c.ready,
        c.restartCount,
        c.state?.terminated?.exitCode,
        c.state?.terminated?.reason,
      ]),
    ).toEqual([
      ['main', false, 0, 0, 'Completed'],
      ['helper', false, 0, 0, 'Completed'],
    ]);
    for (const type of ['Ready', 'ContainersReady']) {
      expect(condition(long, type), type).toMatchObject({ status: 'False', reason: 'PodCompleted' });
    }
    expect(condition(long, 'PodReadyToStartContainers')?.status).toBe('False');

    // The contract: an attempt runs at least run-ms (3000 here; the watch adds its own latency to both ends).
    const history = { long: watch.history('long'), sidecar: watch.history('sidecar') };
    expect(firstSeen(history.long, 'Succeeded') - firstSeen(history.long, 'Running')).toBeGreaterThanOrEqual(2000);
    expect(firstSeen(history.sidecar, 'Succeeded')).toBeLessThan(firstSeen(history.long, 'Succeeded'));
    // The native sidecar is stopped with the pod; the init container keeps the status it completed with.
    const initStatuses = latest(history.sidecar)?.status?.initContainerStatuses;
    expect(initStatuses?.map((c) => [c.name, c.state?.terminated?.exitCode, c.state?.terminated?.reason])).toEqual([
      ['init', 0, 'Completed'],
      ['proxy', 0, 'Completed'],
    ]);
    expect(initStatuses?.find((c) => c.name === 'proxy')?.ready).toBe(false);
  });

  it('a Never pod that fails ends Failed: containers exit 1, not ready, no restart', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'job-pods-fail');
    await using watch = await watchPods(ns.name);
    await core.createNamespacedPod({
      namespace: ns.name,
      body: jobPod('fails', {
        node: await anyFakeNode(),
        restartPolicy: 'Never',
        run: { runMs: 500, outcome: 'fail' },
      }),
    });
    await core.createNamespacedPod({
      namespace: ns.name,
      body: jobPod('fails-first', {
        node: await anyFakeNode(),
        restartPolicy: 'Never',
        run: { runMs: 0, failures: 1 },
      }),
    });

    for (const name of ['fails', 'fails-first']) {
      const failed = await waitForPhase(watch, name, 'Failed');
      expect(phases(watch.history(name)), name).toEqual(['Pending', 'Running', 'Failed']);
      expect(container(failed)).toMatchObject({
        ready: false,
        restartCount: 0,
        state: { terminated: { exitCode: 1, reason: 'Error' } },
      });
      expect(condition(failed, 'Ready')).toMatchObject({ status: 'False', reason: 'PodFailed' });
      expect(condition(failed, 'ContainersReady')).toMatchObject({ status: 'False', reason: 'PodFailed' });
    }
  });

  it('an OnFailure pod with two failures restarts twice, then succeeds with restartCount 2', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'job-pods-restart');
    await using watch = await watchPods(ns.name);
    await core.createNamespacedPod({
      namespace: ns.name,
      body: jobPod('flaky', {
        node: await anyFakeNode(),
        restartPolicy: 'OnFailure',
        run: { runMs: 300, failures: 2, restartBackoffMs: 300 },
      }),
    });

    const done = await waitForPhase(watch, 'flaky', 'Succeeded');
    const history = watch.history('flaky');
    expect(phases(history)).toEqual(['Pending', 'Running', 'Succeeded']);
    expect(container(done)).toMatchObject({
      restartCount: 2,
      ready: false,
      state: { terminated: { exitCode: 0, reason: 'Completed' } },
      lastState: { terminated: { exitCode: 1, reason: 'Error' } },
    });
    expect(container(done, 'helper')?.restartCount).toBe(2);

    // Each failure: not ready with the exit in the status, then running and ready again one restart later.
    const states = history.map(({ pod }) => {
      const main = container(pod);
      const state =
        main?.state?.running !== undefined
          ? 'running'
          : (main?.state?.waiting?.reason ?? main?.state?.terminated?.reason ?? 'none');
      return `${String(main?.restartCount ?? '-')}:${state}:${condition(pod, 'Ready')?.status ?? '-'}`;
    });
    const distinct = states.filter((state, i) => state !== states[i - 1] && !state.startsWith('-'));
    expect(distinct).toEqual([
      '0:running:True',
      '0:Error:False',
      '1:running:True',
      '1:CrashLoopBackOff:False',
      '2:running:True',
      '2:Completed:False',
    ]);
  });

  it('an OnFailure pod that always fails keeps restarting, with a backoff, and stays Running', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'job-pods-crashloop');
    await using watch = await watchPods(ns.name);
    await core.createNamespacedPod({
      namespace: ns.name,
      body: jobPod('crashes', {
        node: await anyFakeNode(),
        restartPolicy: 'OnFailure',
        run: { runMs: 0, outcome: 'fail', restartBackoffMs: 250 },
      }),
    });

    const crashing = await waitFor(
      () => {
        const pod = latest(watch.history('crashes'));
        return Promise.resolve((container(pod)?.restartCount ?? 0) >= 4 ? pod : undefined);
      },
      { description: 'pod crashes to restart four times', timeoutMs: 60_000 },
    );
    expect(phaseOf(crashing)).toBe('Running');
    expect(container(crashing)?.lastState?.terminated).toMatchObject({ exitCode: 1, reason: 'Error' });
    expect(phases(watch.history('crashes'))).toEqual(['Pending', 'Running']);

    // The backoff doubles (none, 250, 500, 1000 ms), so restarts slow down rather than spin: the wait
    // from each exit to the next restart, as the watch saw them.
    const waits: number[] = [];
    let exitedAt: number | undefined;
    for (const { at, pod } of watch.history('crashes')) {
      const state = container(pod)?.state;
      const running = state?.running !== undefined;
      if (state !== undefined && !running && exitedAt === undefined) {
        exitedAt = at;
      }
      if (running && exitedAt !== undefined) {
        waits.push(at - exitedAt);
        exitedAt = undefined;
      }
    }
    expect(waits.length).toBeGreaterThanOrEqual(4);
    expect(waits[0]).toBeLessThan(waits[1] ?? 0);
    expect(waits[1]).toBeLessThan(waits[3] ?? 0);
    expect(waits[2]).toBeGreaterThanOrEqual(300);
    expect(waits[3]).toBeGreaterThanOrEqual(600);
  });

  it('a pod with restartPolicy Always is untouched: still Running and Ready after job pods beside it ended', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'job-pods-always');
    await using watch = await watchPods(ns.name);
    const node = await anyFakeNode();
    await core.createNamespacedPod({
      namespace: ns.name,
      body: jobPod('service', { node, restartPolicy: 'Always', run: { runMs: 0, outcome: 'fail' } }),
    });
    await core.createNamespacedPod({
      namespace: ns.name,
      body: jobPod('job', { node, restartPolicy: 'Never', run: { runMs: 1500 } }),
    });

    await waitForPhase(watch, 'job', 'Succeeded');
    const service = await core.readNamespacedPod({ name: 'service', namespace: ns.name });
    expect(service.status?.phase).toBe('Running');
    expect(service.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
    expect(
      service.status?.containerStatuses?.map((c) => [c.name, c.ready, c.restartCount, c.state?.running !== undefined]),
    ).toEqual([
      ['main', true, 0, true],
      ['helper', true, 0, true],
    ]);
    expect(phases(watch.history('service'))).toEqual(['Pending', 'Running']);
  });
});
