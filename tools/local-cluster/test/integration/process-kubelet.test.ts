/**
 * The process kubelet against the real control plane: pods of a test image (test/fixtures/kubelet-fixture,
 * a small Node server) run as processes on this machine, each behaviour of issue 39's list checked
 * through what a user sees: the pod's status, its EndpointSlices, its container's log.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { CoreV1Api, DiscoveryV1Api } from '@kubernetes/client-node';
import type { V1Container, V1ContainerStatus, V1EndpointSlice, V1Pod, V1Volume } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';

import { startProcessKubelet } from '../../src/index.ts';
import type { ContainerLogReference, ImageMapping, ProcessKubelet } from '../../src/index.ts';
import { createTestNamespace, testKubeConfig, waitFor } from '../../src/testing/index.ts';

const NODE_NAME = 'process-kubelet-integration-test';
const FIXTURE_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/kubelet-fixture');
const IMAGE = 'registry.example.com/tests/kubelet-fixture:1.0';
const FIXTURE_IMAGE: ImageMapping = {
  repository: 'kubelet-fixture',
  workingDir: FIXTURE_DIR,
  entrypoint: ['node'],
  cmd: ['server.mjs'],
  env: { FIXTURE_IMAGE_ENV: 'from-image' },
  executables: { node: process.execPath },
};
const SERVICE_ACCOUNT = '/var/run/secrets/kubernetes.io/serviceaccount';

const kubeConfig = testKubeConfig();
const core = kubeConfig.makeApiClient(CoreV1Api);
const discovery = kubeConfig.makeApiClient(DiscoveryV1Api);
let kubelet: ProcessKubelet;
let directory: string;

interface Report {
  readonly argv: string[];
  readonly env: Record<string, string>;
  readonly files: Record<string, string | null>;
  readonly runs: number | null;
  readonly selfReview: { status?: number; user?: string; error?: string } | null;
}

beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'kruise-ts-process-kubelet-test-'));
  kubelet = await startProcessKubelet({
    kubeconfigPath: inject('kubeconfigPath'),
    directory,
    images: [FIXTURE_IMAGE],
    nodeName: NODE_NAME,
    crashLoopBackoff: { initialMs: 1000, maxMs: 4000 },
    log: (line) => {
      if (process.env['KRUISE_TS_PROCESS_KUBELET_DEBUG'] === '1') {
        process.stderr.write(`[process-kubelet] ${line}\n`);
      }
    },
  });
});

afterAll(async () => {
  // Pods the kubelet no longer runs would stay Terminating for ever: none is left bound to its node.
  const left = await core.listPodForAllNamespaces({ fieldSelector: `spec.nodeName=${NODE_NAME}` });
  for (const pod of left.items) {
    await core
      .deleteNamespacedPod({
        namespace: pod.metadata?.namespace ?? '',
        name: pod.metadata?.name ?? '',
        gracePeriodSeconds: 0,
      })
      .catch(() => undefined);
  }
  await kubelet.stop();
  await core.deleteNode({ name: NODE_NAME }).catch(() => undefined);
  await rm(directory, { recursive: true, force: true });
});

interface PodOptions {
  readonly restartPolicy?: string;
  readonly terminationGracePeriodSeconds?: number;
  readonly volumes?: V1Volume[];
}

function fixturePod(name: string, containers: V1Container[], options: PodOptions = {}): V1Pod {
  return {
    metadata: { name, labels: { app: name } },
    spec: {
      nodeSelector: kubelet.placement.nodeSelector,
      tolerations: kubelet.placement.tolerations,
      terminationGracePeriodSeconds: options.terminationGracePeriodSeconds ?? 5,
      restartPolicy: options.restartPolicy ?? 'Always',
      volumes: options.volumes ?? [],
      containers,
    },
  };
}

/** Ready once it answers /readyz (otherwise Ready as soon as the process runs, before it listens). */
function fixtureContainer(name: string, overrides: Partial<V1Container> = {}): V1Container {
  const port = overrides.ports?.[0]?.containerPort ?? 8080;
  return {
    name,
    image: IMAGE,
    ports: [{ name: 'http', containerPort: 8080 }],
    readinessProbe: { httpGet: { path: '/readyz', port }, periodSeconds: 1 },
    ...overrides,
  };
}

async function createPod(namespace: string, pod: V1Pod): Promise<V1Pod> {
  return core.createNamespacedPod({ namespace, body: pod });
}

function readPod(namespace: string, name: string): Promise<V1Pod> {
  return core.readNamespacedPod({ namespace, name });
}

function containerStatus(pod: V1Pod, name: string): V1ContainerStatus | undefined {
  return pod.status?.containerStatuses?.find((entry) => entry.name === name);
}

function conditionOf(pod: V1Pod, type: string): string | undefined {
  return pod.status?.conditions?.find((entry) => entry.type === type)?.status;
}

interface PodCondition {
  readonly what: string;
  readonly test: (pod: V1Pod) => boolean;
}

async function podUntil(namespace: string, name: string, until: PodCondition): Promise<V1Pod> {
  return waitFor(
    async () => {
      const pod = await readPod(namespace, name);
      return until.test(pod) ? pod : undefined;
    },
    {
      description: `pod ${namespace}/${name}: ${until.what}`,
      timeoutMs: 30_000,
      state: async () => (await readPod(namespace, name)).status,
    },
  );
}

async function podGone(namespace: string, name: string, timeoutMs = 30_000): Promise<void> {
  await waitFor(
    async () => {
      try {
        await readPod(namespace, name);
        return false;
      } catch {
        return true;
      }
    },
    { description: `pod ${namespace}/${name} to be deleted`, timeoutMs },
  );
}

/** The run's start report, once it printed it (a run that just started may not have yet). */
async function report(reference: ContainerLogReference): Promise<Report> {
  const line = await waitFor(
    async () => {
      const log = await kubelet.containerLog(reference);
      return log.split('\n').find((entry) => entry.startsWith('REPORT '));
    },
    {
      description: `a REPORT line in the log of ${reference.namespace}/${reference.pod}/${reference.container}`,
      timeoutMs: 10_000,
    },
  );
  return JSON.parse(line.slice('REPORT '.length)) as Report;
}

function get(port: number, pathAndQuery: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: kubelet.address, port, path: pathAndQuery }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      })
      .on('error', reject);
  });
}

async function control(namespace: string, pod: string, query: string): Promise<void> {
  const port = kubelet.hostPort({ namespace, pod, port: 'http' });
  if (port === undefined) {
    throw new Error(`no host port for ${namespace}/${pod}`);
  }
  expect(await get(port, `/control?${query}`)).toBe(200);
}

async function slicesOf(namespace: string, service: string): Promise<V1EndpointSlice[]> {
  const list = await discovery.listNamespacedEndpointSlice({
    namespace,
    labelSelector: `kubernetes.io/service-name=${service}`,
  });
  return list.items;
}

const readyOf = (slice: V1EndpointSlice | undefined): boolean | undefined => slice?.endpoints?.[0]?.conditions?.ready;

describe('the process kubelet', () => {
  it('runs the image mapping and the pod command, with env, valueFrom, the ServiceAccount token, Secret, ConfigMap and emptyDir volumes', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'pk-run');
    await core.createNamespacedSecret({
      namespace: ns.name,
      body: { metadata: { name: 'creds' }, stringData: { password: 's3cret', 'extra.txt': 'secret file' } },
    });
    await core.createNamespacedConfigMap({
      namespace: ns.name,
      body: { metadata: { name: 'settings' }, data: { level: 'debug', 'app.json': '{"size":3}' } },
    });
    const files = [
      `${SERVICE_ACCOUNT}/token`,
      `${SERVICE_ACCOUNT}/ca.crt`,
      `${SERVICE_ACCOUNT}/namespace`,
      '/etc/creds/password',
      '/etc/settings/app.json',
      '/etc/settings/level',
    ];
    await createPod(
      ns.name,
      fixturePod(
        'run',
        [
          fixtureContainer('main', {
            command: ['node'],
            args: ['server.mjs', '--name=$(POD_NAME)', '--literal=$$(POD_NAME)'],
            env: [
              { name: 'PLAIN', value: 'plain-value' },
              { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
              { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
              { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
              { name: 'PASSWORD', valueFrom: { secretKeyRef: { name: 'creds', key: 'password' } } },
              { name: 'LEVEL', valueFrom: { configMapKeyRef: { name: 'settings', key: 'level' } } },
              { name: 'FIXTURE_REPORT_FILES', value: files.join(',') },
              { name: 'FIXTURE_SELF_REVIEW', value: '1' },
              { name: 'FIXTURE_RUNS_FILE', value: '/scratch/runs' },
            ],
            volumeMounts: [
              { name: 'creds', mountPath: '/etc/creds', readOnly: true },
              { name: 'settings', mountPath: '/etc/settings' },
              { name: 'scratch', mountPath: '/scratch' },
            ],
          }),
          // No command or args: the image's ENTRYPOINT and CMD.
          fixtureContainer('defaults', {
            ports: [{ containerPort: 8081 }],
            env: [
              { name: 'PORT', value: '8081' },
              { name: 'FIXTURE_RUNS_FILE', value: '/scratch/runs' },
            ],
            volumeMounts: [{ name: 'scratch', mountPath: '/scratch' }],
          }),
        ],
        {
          volumes: [
            { name: 'creds', secret: { secretName: 'creds' } },
            { name: 'settings', configMap: { name: 'settings' } },
            { name: 'scratch', emptyDir: {} },
          ],
        },
      ),
    );

    const running = await podUntil(ns.name, 'run', {
      what: 'Ready',
      test: (current) => conditionOf(current, 'Ready') === 'True',
    });
    expect(running.spec?.nodeName).toBe(NODE_NAME);
    expect(running.status?.phase).toBe('Running');
    expect(running.status?.podIP).toBe(kubelet.address);
    expect(conditionOf(running, 'ContainersReady')).toBe('True');
    expect(
      running.status?.containerStatuses?.map((entry) => [
        entry.name,
        entry.ready,
        entry.started,
        entry.restartCount,
        entry.state?.running !== undefined,
      ]),
    ).toEqual([
      ['main', true, true, 0, true],
      ['defaults', true, true, 0, true],
    ]);

    const main = await report({ namespace: ns.name, pod: 'run', container: 'main' });
    expect(main.argv).toEqual(['--name=run', '--literal=$(POD_NAME)']);
    expect(main.env).toMatchObject({
      PLAIN: 'plain-value',
      POD_NAME: 'run',
      POD_NAMESPACE: ns.name,
      POD_IP: kubelet.address,
      PASSWORD: 's3cret',
      LEVEL: 'debug',
      HOSTNAME: 'run',
      FIXTURE_IMAGE_ENV: 'from-image',
    });
    expect(main.env['KUBERNETES_SERVICE_HOST']).toBeTruthy();
    expect(main.files[`${SERVICE_ACCOUNT}/namespace`]).toBe(ns.name);
    expect(main.files[`${SERVICE_ACCOUNT}/ca.crt`]).toMatch(/^-----BEGIN CERTIFICATE-----/u);
    expect(main.files[`${SERVICE_ACCOUNT}/token`]).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/u);
    expect(main.files['/etc/creds/password']).toBe('s3cret');
    expect(main.files['/etc/settings/app.json']).toBe('{"size":3}');
    expect(main.files['/etc/settings/level']).toBe('debug');
    // The token the kubelet mounted authenticates as the pod's ServiceAccount, trusting the mounted CA.
    expect(main.selfReview?.user).toBe(`system:serviceaccount:${ns.name}:default`);

    const defaults = await report({ namespace: ns.name, pod: 'run', container: 'defaults' });
    expect(defaults.argv).toEqual([]);
    expect(defaults.env['PORT']).toBe('8081');
    // Both containers appended to the same emptyDir file: the one that read last saw both lines.
    expect(Math.max(main.runs ?? 0, defaults.runs ?? 0)).toBe(2);
    expect(await get(kubelet.hostPort({ namespace: ns.name, pod: 'run', port: 8081 }) ?? 0, '/healthz')).toBe(200);
  });

  it('startup and readiness probes decide started, ContainersReady, Ready and the EndpointSlices; publishNotReadyAddresses; slices go with the pod', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'pk-ready');
    await core.createNamespacedService({
      namespace: ns.name,
      body: {
        metadata: { name: 'web' },
        spec: { selector: { app: 'ready' }, ports: [{ name: 'http', port: 80, targetPort: 'http' }] },
      },
    });
    await core.createNamespacedService({
      namespace: ns.name,
      body: {
        metadata: { name: 'web-all' },
        spec: { selector: { app: 'ready' }, publishNotReadyAddresses: true, ports: [{ port: 80, targetPort: 8080 }] },
      },
    });
    await createPod(
      ns.name,
      fixturePod('ready', [
        fixtureContainer('main', {
          env: [
            { name: 'FIXTURE_START_READY', value: '0' },
            { name: 'FIXTURE_STARTUP_MS', value: '2500' },
          ],
          startupProbe: { httpGet: { path: '/healthz', port: 'http' }, periodSeconds: 1, failureThreshold: 30 },
          readinessProbe: { httpGet: { path: '/readyz', port: 8080 }, periodSeconds: 1, failureThreshold: 1 },
        }),
      ]),
    );

    const starting = await podUntil(ns.name, 'ready', {
      what: 'running, not yet started',
      test: (pod) => containerStatus(pod, 'main')?.state?.running !== undefined,
    });
    expect(containerStatus(starting, 'main')?.started).toBe(false);
    const started = await podUntil(ns.name, 'ready', {
      what: 'started by its startup probe',
      test: (pod) => containerStatus(pod, 'main')?.started === true,
    });
    expect(conditionOf(started, 'ContainersReady')).toBe('False');
    expect(conditionOf(started, 'Ready')).toBe('False');
    const [web] = await waitFor(
      async () => {
        const slices = await slicesOf(ns.name, 'web');
        return slices.length === 1 && readyOf(slices[0]) === false ? slices : undefined;
      },
      { description: 'a not-ready slice for web' },
    );
    const hostPort = kubelet.hostPort({ namespace: ns.name, pod: 'ready', port: 8080 });
    expect(web?.endpoints?.[0]?.addresses).toEqual([kubelet.address]);
    expect(web?.endpoints?.[0]?.targetRef?.name).toBe('ready');
    expect(web?.ports).toEqual([{ name: 'http', port: hostPort, protocol: 'TCP' }]);
    expect(hostPort).not.toBe(8080);
    // The slice's port is where the container listens.
    expect(await get(web?.ports?.[0]?.port ?? 0, '/healthz')).toBe(200);
    const [all] = await slicesOf(ns.name, 'web-all');
    expect(readyOf(all)).toBe(true);

    await control(ns.name, 'ready', 'ready=1');
    const ready = await podUntil(ns.name, 'ready', {
      what: 'Ready',
      test: (pod) => conditionOf(pod, 'Ready') === 'True',
    });
    expect(conditionOf(ready, 'ContainersReady')).toBe('True');
    expect(containerStatus(ready, 'main')?.ready).toBe(true);
    await waitFor(async () => readyOf((await slicesOf(ns.name, 'web'))[0]) === true, {
      description: 'the web slice ready',
    });

    await control(ns.name, 'ready', 'ready=0');
    const notReady = await podUntil(ns.name, 'ready', {
      what: 'not Ready again',
      test: (pod) => conditionOf(pod, 'Ready') === 'False',
    });
    expect(conditionOf(notReady, 'ContainersReady')).toBe('False');
    expect(containerStatus(notReady, 'main')?.restartCount).toBe(0);
    await waitFor(async () => readyOf((await slicesOf(ns.name, 'web'))[0]) === false, {
      description: 'the web slice not ready',
    });
    expect(readyOf((await slicesOf(ns.name, 'web-all'))[0])).toBe(true);

    await core.deleteNamespacedPod({ namespace: ns.name, name: 'ready' });
    await podGone(ns.name, 'ready');
    await waitFor(
      async () => (await slicesOf(ns.name, 'web')).length === 0 && (await slicesOf(ns.name, 'web-all')).length === 0,
      { description: 'the slices to go with the pod' },
    );
  });

  it('a failing liveness probe restarts the container gracefully: restartCount, lastState, the previous log', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'pk-live');
    await createPod(
      ns.name,
      fixturePod('live', [
        fixtureContainer('main', {
          livenessProbe: {
            httpGet: { path: '/healthz', port: 'http' },
            initialDelaySeconds: 1,
            periodSeconds: 1,
            failureThreshold: 2,
          },
        }),
      ]),
    );
    await podUntil(ns.name, 'live', { what: 'Ready', test: (pod) => conditionOf(pod, 'Ready') === 'True' });
    await control(ns.name, 'live', 'live=0');

    const restarted = await podUntil(ns.name, 'live', {
      what: 'restarted by its liveness probe, Ready again',
      test: (pod) => containerStatus(pod, 'main')?.restartCount === 1 && conditionOf(pod, 'Ready') === 'True',
    });
    const status = containerStatus(restarted, 'main');
    expect(status?.lastState?.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(status?.lastState?.terminated?.finishedAt?.getTime()).toBeLessThanOrEqual(
      status?.state?.running?.startedAt?.getTime() ?? 0,
    );
    const previous = await kubelet.containerLog({ namespace: ns.name, pod: 'live', container: 'main', previous: true });
    expect(previous).toContain('CONTROL live=false');
    expect(previous).toContain('SIGTERM received');
    const current = await kubelet.containerLog({ namespace: ns.name, pod: 'live', container: 'main' });
    expect(current).toContain('REPORT ');
    expect(current).not.toContain('CONTROL live=false');
  });

  it('restartPolicy Always restarts a crashing container with back-off (CrashLoopBackOff), keeping its emptyDir', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'pk-crash');
    await createPod(
      ns.name,
      fixturePod(
        'crash',
        [
          fixtureContainer('main', {
            env: [
              { name: 'FIXTURE_EXIT_AFTER_MS', value: '300' },
              { name: 'FIXTURE_EXIT_CODE', value: '3' },
              { name: 'FIXTURE_RUNS_FILE', value: '/scratch/runs' },
            ],
            volumeMounts: [{ name: 'scratch', mountPath: '/scratch' }],
          }),
        ],
        { restartPolicy: 'Always', volumes: [{ name: 'scratch', emptyDir: {} }] },
      ),
    );

    const backingOff = await podUntil(ns.name, 'crash', {
      what: 'in CrashLoopBackOff',
      test: (pod) => containerStatus(pod, 'main')?.state?.waiting?.reason === 'CrashLoopBackOff',
    });
    const status = containerStatus(backingOff, 'main');
    expect(status?.state?.waiting?.message).toMatch(/^back-off \d+s restarting failed container=main/u);
    expect(status?.lastState?.terminated).toMatchObject({ exitCode: 3, reason: 'Error' });
    expect(status?.restartCount).toBeGreaterThanOrEqual(1);
    expect(backingOff.status?.phase).toBe('Running');
    expect(conditionOf(backingOff, 'Ready')).toBe('False');

    const later = await podUntil(ns.name, 'crash', {
      what: 'restarted three times',
      test: (pod) =>
        (containerStatus(pod, 'main')?.restartCount ?? 0) >= 3 &&
        containerStatus(pod, 'main')?.state?.running !== undefined,
    });
    expect(containerStatus(later, 'main')?.lastState?.terminated?.exitCode).toBe(3);
    const current = await report({ namespace: ns.name, pod: 'crash', container: 'main' });
    const previous = await report({ namespace: ns.name, pod: 'crash', container: 'main', previous: true });
    // Every run appended its line to the same emptyDir: it outlives the container's restarts.
    expect(current.runs).toBeGreaterThanOrEqual(4);
    expect(current.runs).toBe((previous.runs ?? 0) + 1);
    expect(
      await kubelet.containerLog({ namespace: ns.name, pod: 'crash', container: 'main', previous: true }),
    ).toContain('EXITING 3');
  });

  it('a container whose host port another process took while it was down restarts on a new one: Ready, the slices follow', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'pk-port');
    await core.createNamespacedService({
      namespace: ns.name,
      body: {
        metadata: { name: 'moved' },
        spec: { selector: { app: 'moved' }, ports: [{ port: 80, targetPort: 'http' }] },
      },
    });
    await createPod(
      ns.name,
      fixturePod(
        'moved',
        [
          fixtureContainer('main', {
            env: [
              { name: 'FIXTURE_EXIT_AFTER_MS', value: '1500' },
              { name: 'FIXTURE_EXIT_CODE', value: '3' },
              { name: 'FIXTURE_EXIT_RUNS', value: '2' },
              { name: 'FIXTURE_RUNS_FILE', value: '/scratch/runs' },
            ],
            volumeMounts: [{ name: 'scratch', mountPath: '/scratch' }],
          }),
        ],
        { volumes: [{ name: 'scratch', emptyDir: {} }] },
      ),
    );
    // The second run (the first restart is immediate) exits too; the back-off before the third is
    // the window in which another process takes the port.
    await podUntil(ns.name, 'moved', {
      what: 'in its second run',
      test: (pod) => containerStatus(pod, 'main')?.restartCount === 1,
    });
    await waitFor(
      async () =>
        (await kubelet.containerLog({ namespace: ns.name, pod: 'moved', container: 'main' })).includes('LISTENING'),
      { description: 'the second run listening', timeoutMs: 10_000, intervalMs: 20 },
    );
    const taken = kubelet.hostPort({ namespace: ns.name, pod: 'moved', port: 'http' }) ?? 0;
    const squatter = http.createServer();
    await waitFor(
      () =>
        new Promise<boolean>((resolve) => {
          squatter.once('error', () => {
            resolve(false);
          });
          squatter.listen(taken, () => {
            resolve(true);
          });
        }),
      { description: `host port ${String(taken)} free after the second run exited`, timeoutMs: 10_000, intervalMs: 20 },
    );
    try {
      const ready = await podUntil(ns.name, 'moved', {
        what: 'Ready in its third run',
        test: (pod) => containerStatus(pod, 'main')?.restartCount === 2 && conditionOf(pod, 'Ready') === 'True',
      });
      expect(containerStatus(ready, 'main')?.lastState?.terminated?.exitCode).toBe(3);
      const moved = kubelet.hostPort({ namespace: ns.name, pod: 'moved', port: 'http' }) ?? 0;
      expect(moved).not.toBe(taken);
      expect(await get(moved, '/readyz')).toBe(200);
      const slicePort = await waitFor(
        async () => {
          const port = (await slicesOf(ns.name, 'moved'))[0]?.ports?.[0]?.port;
          return port === moved ? port : undefined;
        },
        { description: `the EndpointSlice of moved on port ${String(moved)}`, timeoutMs: 10_000 },
      );
      expect(slicePort).toBe(moved);
    } finally {
      squatter.close();
    }
  });

  it('graceful deletion: SIGTERM, then the pod is deleted; a process ignoring SIGTERM is killed after the grace period', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'pk-delete');
    const polite = await createPod(
      ns.name,
      fixturePod('polite', [fixtureContainer('main')], { terminationGracePeriodSeconds: 30 }),
    );
    const stubborn = await createPod(
      ns.name,
      fixturePod('stubborn', [fixtureContainer('main', { env: [{ name: 'FIXTURE_IGNORE_SIGTERM', value: '1' }] })], {
        terminationGracePeriodSeconds: 3,
      }),
    );
    await podUntil(ns.name, 'polite', { what: 'Ready', test: (pod) => conditionOf(pod, 'Ready') === 'True' });
    await podUntil(ns.name, 'stubborn', { what: 'Ready', test: (pod) => conditionOf(pod, 'Ready') === 'True' });
    const pids = [kubelet.pid(ns.name, 'polite', 'main'), kubelet.pid(ns.name, 'stubborn', 'main')];
    expect(pids.every((pid) => pid !== undefined)).toBe(true);

    const politeStart = Date.now();
    await core.deleteNamespacedPod({ namespace: ns.name, name: 'polite' });
    await podGone(ns.name, 'polite');
    // It exits 100 ms after SIGTERM: well within its 30 s grace period.
    expect(Date.now() - politeStart).toBeLessThan(10_000);

    const stubbornStart = Date.now();
    await core.deleteNamespacedPod({ namespace: ns.name, name: 'stubborn' });
    await podGone(ns.name, 'stubborn');
    const stubbornMs = Date.now() - stubbornStart;
    expect(stubbornMs).toBeGreaterThanOrEqual(2_500);
    expect(stubbornMs).toBeLessThan(15_000);

    // The logs stay where the README says, after the pod is gone.
    const logOf = (pod: V1Pod) =>
      readFile(
        path.join(
          directory,
          'logs',
          `${ns.name}_${pod.metadata?.name ?? ''}_${pod.metadata?.uid ?? ''}`,
          'main',
          '0.log',
        ),
        'utf8',
      );
    expect(await logOf(polite)).toContain('SIGTERM received');
    expect(await logOf(stubborn)).toContain('SIGTERM ignored');
    for (const pid of pids) {
      expect(() => process.kill(pid ?? 0, 0)).toThrow();
    }
  });

  it('a container above its memory limit is killed and reported OOMKilled', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'pk-oom');
    await createPod(
      ns.name,
      fixturePod(
        'oom',
        [
          fixtureContainer('main', {
            env: [{ name: 'FIXTURE_ALLOCATE_MB', value: '512' }],
            resources: { limits: { memory: '200Mi' } },
          }),
        ],
        { restartPolicy: 'Always' },
      ),
    );

    const killed = await podUntil(ns.name, 'oom', {
      what: 'OOMKilled',
      test: (pod) => containerStatus(pod, 'main')?.lastState?.terminated?.reason === 'OOMKilled',
    });
    expect(containerStatus(killed, 'main')?.lastState?.terminated).toMatchObject({ exitCode: 137, signal: 9 });
    expect(containerStatus(killed, 'main')?.restartCount).toBeGreaterThanOrEqual(1);
    expect(
      await kubelet.containerLog({ namespace: ns.name, pod: 'oom', container: 'main', previous: true }),
    ).not.toContain('ALLOCATED');
  });

  it('an image it cannot map waits in ErrImagePull / ImagePullBackOff, naming the image', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'pk-image');
    await createPod(
      ns.name,
      fixturePod('unmapped', [{ name: 'main', image: 'registry.example.com/nobody/not-mapped:2.0' }]),
    );
    const seen = new Set<string>();
    const waiting = await podUntil(ns.name, 'unmapped', {
      what: 'ImagePullBackOff after ErrImagePull',
      test: (pod) => {
        const reason = containerStatus(pod, 'main')?.state?.waiting?.reason;
        if (reason !== undefined) {
          seen.add(reason);
        }
        return seen.has('ErrImagePull') && seen.has('ImagePullBackOff');
      },
    });
    const status = containerStatus(waiting, 'main');
    expect(status?.state?.waiting?.message).toContain('registry.example.com/nobody/not-mapped:2.0');
    expect(status?.restartCount).toBe(0);
    expect(waiting.status?.phase).toBe('Pending');
    expect(seen).not.toContain('CrashLoopBackOff');
  });

  it('a command that is not found ends in StartError, naming it', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'pk-command');
    await createPod(
      ns.name,
      fixturePod('nocommand', [fixtureContainer('main', { command: ['kruise-no-such-command', '--flag'] })]),
    );
    const failed = await podUntil(ns.name, 'nocommand', {
      what: 'lastState StartError',
      test: (pod) => containerStatus(pod, 'main')?.lastState?.terminated?.reason === 'StartError',
    });
    const terminated = containerStatus(failed, 'main')?.lastState?.terminated;
    expect(terminated?.exitCode).toBe(128);
    expect(terminated?.message).toContain('"kruise-no-such-command"');
    expect(terminated?.message).toContain('executable file not found');
  });
});
