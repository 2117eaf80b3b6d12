/**
 * `rollout status` on the real control plane, with the controllers of the four kinds running as the
 * launcher's process (scoped to the test's namespace, webhooks registered for it): it waits for real
 * rollouts, prints one line per change or redraws its bars, and exits 1 with the controller's words
 * when a rollout cannot finish.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify, stripVTControlCharacters } from 'node:util';

import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { defineResource } from '@kruise-ts/controller-runtime';
import type { KubeObject } from '@kruise-ts/controller-runtime';
import { testClient } from '@kruise-ts/controller-runtime/testing';
import { simulatedJobRunAnnotations } from '@kruise-ts/local-cluster';
import { applyCrdFiles, createTestNamespace, testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';
import type { TestNamespace } from '@kruise-ts/local-cluster/testing';

import { startControllersProcess } from '../support/controllers-process.ts';
import type { ControllersProcess } from '../support/controllers-process.ts';
import { kruiseTs } from '../support/run-cli.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);
const kubeconfigPath = inject('kubeconfigPath');
const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
const run = promisify(execFile);
const CRDS = ['clonesets', 'statefulsets', 'broadcastjobs', 'sidecarsets'].map((plural) =>
  fileURLToPath(new URL(`../../../../crds/apps.kruise.io_${plural}.yaml`, import.meta.url)),
);

interface Manifest extends KubeObject {
  readonly spec: Record<string, unknown>;
  readonly status?: Record<string, unknown>;
}

const cloneSets = defineResource<Manifest>({
  group: 'apps.kruise.io',
  version: 'v1alpha1',
  plural: 'clonesets',
  kind: 'CloneSet',
  namespaced: true,
});
const statefulSets = defineResource<Manifest>({
  group: 'apps.kruise.io',
  version: 'v1beta1',
  plural: 'statefulsets',
  kind: 'StatefulSet',
  namespaced: true,
});
const broadcastJobs = defineResource<Manifest>({
  group: 'apps.kruise.io',
  version: 'v1alpha1',
  plural: 'broadcastjobs',
  kind: 'BroadcastJob',
  namespaced: true,
});
const sidecarSets = defineResource<Manifest>({
  group: 'apps.kruise.io',
  version: 'v1alpha1',
  plural: 'sidecarsets',
  kind: 'SidecarSet',
  namespaced: false,
});
const pods = defineResource<Manifest>({ group: '', version: 'v1', plural: 'pods', kind: 'Pod', namespaced: true });

let namespace: TestNamespace;
let controllers: ControllersProcess;

beforeAll(async () => {
  await applyCrdFiles(kubeConfig, CRDS);
  namespace = await createTestNamespace(kubeConfig, 'cli-status');
  controllers = await startControllersProcess({
    kubeconfigPath,
    namespace: namespace.name,
    featureGates: 'CloneSet=true,AdvancedStatefulSet=true,BroadcastJob=true,SidecarSet=true',
  });
}, 120_000);

afterAll(async () => {
  await controllers[Symbol.asyncDispose]();
  await namespace[Symbol.asyncDispose]();
});

const status = (...args: string[]) =>
  kruiseTs(['--kubeconfig', kubeconfigPath, '-n', namespace.name, 'rollout', 'status', ...args]);

function cloneSet(name: string, spec: Record<string, unknown>, podSpec: Record<string, unknown> = {}): Manifest {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name, namespace: namespace.name },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'main', image: 'nginx:1.25' }], ...podSpec },
      },
      ...spec,
    },
  };
}

/** The last frame drawn in bars mode: what follows the last "erase below". */
function lastFrame(stdout: string): string[] {
  return (stdout.split('\u001b[0J').pop() ?? '').trimEnd().split('\n');
}

describe('kruise-ts rollout status', () => {
  it('waits for a new CloneSet, one line per change, and exits 0 when it is rolled out', async () => {
    await client.create(cloneSets, cloneSet('web', {}));
    const run = await status('clone/web', '--timeout', '60s');
    expect(run, controllers.output()).toMatchObject({ code: 0, stderr: '' });
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines.at(-1)).toBe('cloneset "web" successfully rolled out');
    expect(lines.filter((line, index) => line === lines[index - 1])).toEqual([]);
    for (const line of lines.slice(0, -1)) {
      expect(line).toMatch(/^Waiting for cloneset "web" (rollout to finish: .*|spec update to be observed)\.\.\.$/);
    }
    const stored = await client.get(cloneSets, { namespace: namespace.name, name: 'web' });
    expect(stored.status).toMatchObject({ replicas: 3, updatedReadyReplicas: 3, availableReplicas: 3 });
  });

  it('draws bars with the partition and stops at the partition', async () => {
    await client.patch(
      cloneSets,
      { namespace: namespace.name, name: 'web' },
      {
        type: 'merge',
        body: {
          spec: {
            updateStrategy: { partition: 1 },
            template: { spec: { containers: [{ name: 'main', image: 'nginx:1.27' }] } },
          },
        },
      },
    );
    const run = await status('cloneset/web', '--progress=bars', '--timeout=60s');
    expect(run, controllers.output()).toMatchObject({ code: 0, stderr: '' });
    const frame = lastFrame(run.stdout);
    expect(frame[0]).toMatch(/^cloneset\.apps\.kruise\.io\/web {2}\(partition 1, revision web-[a-z0-9]+\)$/);
    expect(frame.slice(1, 4)).toEqual([
      `  updated       ${'█'.repeat(27)}│${'░'.repeat(12)}  2/3`,
      `  updated-ready ${'█'.repeat(27)}│${'░'.repeat(12)}  2/3`,
      `  available     ${'█'.repeat(40)}  3/3`,
    ]);
    expect(frame.at(-1)).toBe('partitioned roll out complete: 2 new pods have been updated (partition 1)...');
    const stored = await client.get(cloneSets, { namespace: namespace.name, name: 'web' });
    expect(stored.status).toMatchObject({ updatedReplicas: 2, updatedReadyReplicas: 2 });
  });

  it('draws coloured bars by itself in a terminal (a pseudo-terminal from script(1))', async () => {
    const cli = [
      '--conditions=@kruise-ts/source',
      MAIN,
      '--kubeconfig',
      kubeconfigPath,
      '-n',
      namespace.name,
      'rollout',
      'status',
      'clone/web',
    ];
    const command = `stty cols 100; ${[process.execPath, ...cli].map((word) => `'${word}'`).join(' ')}`;
    const env: NodeJS.ProcessEnv = { ...process.env, TERM: 'xterm-256color', KUBECONFIG: '' };
    delete env['NO_COLOR'];
    const { stdout } = await run('script', ['-qec', command, '/dev/null'], { env });
    expect(stdout).toContain(`\u001b[32m${'█'.repeat(27)}\u001b[39m`);
    const frame = stripVTControlCharacters(stdout).replaceAll('\r', '').trimEnd().split('\n');
    expect(frame.slice(1, 4)).toEqual([
      `  updated       ${'█'.repeat(27)}│${'░'.repeat(12)}  2/3`,
      `  updated-ready ${'█'.repeat(27)}│${'░'.repeat(12)}  2/3`,
      `  available     ${'█'.repeat(40)}  3/3`,
    ]);
    expect(frame.at(-1)).toBe('partitioned roll out complete: 2 new pods have been updated (partition 1)...');
  });

  it('exits 1 with the condition when the progress deadline passes', async () => {
    // No fake node has this label: the pods stay Pending and the rollout cannot progress.
    await client.create(
      cloneSets,
      cloneSet('stuck', { progressDeadlineSeconds: 2 }, { nodeSelector: { 'kruise-ts.io/no-such-node': 'true' } }),
    );
    const run = await status('clone/stuck', '--timeout=60s');
    expect(run, controllers.output()).toMatchObject({ code: 1 });
    expect(run.stderr).toMatch(/^error: cloneset "stuck" exceeded its progress deadline: .+\n$/);
    const stored = await client.get(cloneSets, { namespace: namespace.name, name: 'stuck' });
    const conditions = (stored.status?.['conditions'] ?? []) as { type: string; status: string; reason?: string }[];
    expect(conditions).toContainEqual(
      expect.objectContaining({ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded' }),
    );
  });

  it('gives up after --timeout, having printed where the rollout stood', async () => {
    await client.create(cloneSets, cloneSet('pending', {}, { nodeSelector: { 'kruise-ts.io/no-such-node': 'true' } }));
    const run = await status('clone/pending', '--timeout=2s');
    expect(run).toMatchObject({ code: 1, stderr: 'error: timed out waiting for the condition\n' });
    expect(run.stdout).toContain('Waiting for cloneset "pending" rollout to finish: ');
  });

  it('follows an Advanced StatefulSet in place to its partition', async () => {
    await client.create(statefulSets, {
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'StatefulSet',
      metadata: { name: 'db', namespace: namespace.name },
      spec: {
        replicas: 3,
        serviceName: 'db',
        podManagementPolicy: 'Parallel',
        selector: { matchLabels: { app: 'db' } },
        template: {
          metadata: { labels: { app: 'db' } },
          spec: {
            readinessGates: [{ conditionType: 'InPlaceUpdateReady' }],
            containers: [{ name: 'main', image: 'nginx:1.25' }],
          },
        },
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible' } },
      },
    });
    expect(await status('asts/db', '--timeout=60s'), controllers.output()).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/statefulset "db" successfully rolled out\n$/) as unknown,
    });
    await client.patch(
      statefulSets,
      { namespace: namespace.name, name: 'db' },
      {
        type: 'merge',
        body: {
          spec: {
            updateStrategy: { rollingUpdate: { partition: 1 } },
            template: { spec: { containers: [{ name: 'main', image: 'nginx:1.27' }] } },
          },
        },
      },
    );
    const run = await status('statefulset.apps.kruise.io/db', '--timeout=60s');
    expect(run, controllers.output()).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe(
      'partitioned roll out complete: 2 new pods have been updated (partition 1)...',
    );
    const stored = await client.get(statefulSets, { namespace: namespace.name, name: 'db' });
    expect(stored.status).toMatchObject({ replicas: 3, updatedReplicas: 2, updatedReadyReplicas: 2 });
  });

  it('follows a BroadcastJob to completion, and fails with a failed one', async () => {
    const job = (name: string, outcome: 'succeed' | 'fail'): Manifest => ({
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'BroadcastJob',
      metadata: { name, namespace: namespace.name },
      spec: {
        template: {
          metadata: {
            annotations: simulatedJobRunAnnotations({ runMs: 500, ...(outcome === 'fail' ? { outcome: 'fail' } : {}) }),
          },
          spec: { restartPolicy: 'Never', containers: [{ name: 'pull', image: 'busybox:1.36' }] },
        },
        failurePolicy: { type: 'FailFast' },
      },
    });
    await client.create(broadcastJobs, job('pull', 'succeed'));
    const done = await status('bcj/pull', '--timeout=60s');
    expect(done, controllers.output()).toMatchObject({ code: 0, stderr: '' });
    expect(done.stdout.trimEnd().split('\n').at(-1)).toMatch(
      /^broadcastjob "pull" completed: (\d+) of \1 pods succeeded$/,
    );

    await client.create(broadcastJobs, job('broken', 'fail'));
    const failed = await status('broadcastjob/broken', '--timeout=60s');
    expect(failed, controllers.output()).toMatchObject({ code: 1 });
    expect(failed.stderr).toMatch(/^error: broadcastjob "broken" failed: .+\n$/);
  });

  it("waits for a SidecarSet's upgrade of the pods it injected", async () => {
    const setName = `logs-${namespace.name}`;
    await client.create(sidecarSets, {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'SidecarSet',
      metadata: { name: setName },
      spec: {
        namespace: namespace.name,
        selector: { matchLabels: { sidecar: 'yes' } },
        containers: [{ name: 'logger', image: 'busybox:1.36' }],
        updateStrategy: { maxUnavailable: '100%' },
      },
    });
    try {
      // The pod webhook reaches the API server's cache a moment after it is registered: dry-run pods until one is injected.
      await waitFor(
        async () => {
          const probe = await client.create(
            pods,
            {
              metadata: { name: 'probe', namespace: namespace.name, labels: { sidecar: 'yes' } },
              spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] },
            },
            { dryRun: true },
          );
          return (probe.spec['containers'] as unknown[]).length === 2 ? true : undefined;
        },
        { description: 'the SidecarSet pod webhook injecting', timeoutMs: 60_000, intervalMs: 500 },
      );
      const withSidecar = cloneSet('side', {});
      await client.create(cloneSets, {
        ...withSidecar,
        spec: {
          ...withSidecar.spec,
          template: {
            metadata: { labels: { app: 'side', sidecar: 'yes' } },
            spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] },
          },
        },
      });
      expect(await status('clone/side', '--timeout=60s')).toMatchObject({ code: 0 });
      await client.patch(
        sidecarSets,
        { name: setName },
        { type: 'merge', body: { spec: { containers: [{ name: 'logger', image: 'busybox:1.37' }] } } },
      );
      const run = await status(`sidecarset/${setName}`, '--timeout=60s');
      expect(run, controllers.output()).toMatchObject({ code: 0, stderr: '' });
      expect(run.stdout.trimEnd().split('\n').at(-1)).toBe(`sidecarset "${setName}" successfully rolled out`);
      const stored = await client.get(sidecarSets, { name: setName });
      expect(stored.status).toMatchObject({ matchedPods: 3, updatedPods: 3, updatedReadyPods: 3 });
    } finally {
      await client.delete(sidecarSets, { name: setName }).catch(() => undefined);
    }
  });

  it("exits 1 with the API server's NotFound for an object that does not exist", async () => {
    const run = await status('clone/missing');
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('Error from server (NotFound): clonesets.apps.kruise.io "missing" not found\n');
  });
});
