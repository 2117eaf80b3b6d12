import { spawn } from 'node:child_process';
import type { ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

import { CoreV1Api } from '@kubernetes/client-node';
import { inject } from 'vitest';
import { describe, expect, it } from 'vitest';

import { createTestNamespace, testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';

import { createLogger, defineResource, Manager, objectReference, requestForObject } from '../../src/index.ts';
import { TransportClosedError } from '../../src/client/transport.ts';
import type { KubeObject } from '../../src/index.ts';

interface ConfigMap extends KubeObject {
  readonly data?: Record<string, string>;
}

const configMaps = defineResource<ConfigMap>({
  group: '',
  version: 'v1',
  plural: 'configmaps',
  kind: 'ConfigMap',
  namespaced: true,
});
const kubeConfig = testKubeConfig();
const core = kubeConfig.makeApiClient(CoreV1Api);
const fixture = fileURLToPath(new URL('../fixtures/elected-manager.ts', import.meta.url));

interface Candidate {
  readonly identity: string;
  readonly process: ChildProcessByStdio<null, Readable, null>;
  readonly output: () => string;
}

function candidate(namespace: string, lease: string, identity: string): Candidate {
  const child = spawn(
    process.execPath,
    ['--conditions=@kruise-ts/source', fixture, inject('kubeconfigPath'), namespace, lease, identity],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { identity, process: child, output: () => output };
}

function leaderSince(c: Candidate): number | undefined {
  const match = /LEADER \S+ (\d+)/.exec(c.output());
  return match === null ? undefined : Number(match[1]);
}

async function exited(c: Candidate): Promise<void> {
  if (c.process.exitCode === null && c.process.signalCode === null) {
    await new Promise((resolve) => c.process.once('exit', resolve));
  }
}

describe('leader election', () => {
  it.each([
    { how: 'SIGKILL', signal: 'SIGKILL', bound: 'the lease duration plus one retry period' },
    { how: 'SIGTERM', signal: 'SIGTERM', bound: 'one retry period, because the lease is released' },
  ] as const)('hands over within $bound when the leader gets $how', async ({ signal }) => {
    await using ns = await createTestNamespace(kubeConfig, 'leader');
    // As in the fixture. A lease long enough that the slack below stays under it: a SIGTERM handover
    // within the bound then proves the lease was released, not left to expire.
    const leaseDurationMs = 8000;
    const retryPeriodMs = 500;
    const slackMs = 4000;
    const first = candidate(ns.name, 'election', 'first');
    await waitFor(() => Promise.resolve(leaderSince(first)), {
      description: 'the first candidate to lead',
      timeoutMs: 30_000,
    });
    const second = candidate(ns.name, 'election', 'second');
    try {
      // The second candidate runs but must not lead while the first renews.
      await new Promise((resolve) => setTimeout(resolve, leaseDurationMs + 1000));
      expect(leaderSince(second)).toBeUndefined();

      const killedAt = Date.now();
      first.process.kill(signal);
      const tookOverAt = await waitFor(() => Promise.resolve(leaderSince(second)), {
        description: 'the second candidate to take over',
        timeoutMs: 30_000,
      });
      const handover = tookOverAt - killedAt;
      const bound = signal === 'SIGKILL' ? leaseDurationMs + retryPeriodMs * 1.2 : retryPeriodMs * 1.2;
      // Protocol bound plus scheduling slack (two processes on a loaded 2-core machine): how long a
      // standby may wait, not how fast things run.
      expect(handover).toBeLessThan(bound + slackMs);
      if (signal === 'SIGTERM') {
        await exited(first);
        expect(first.output()).toContain('STOPPED first');
      }
    } finally {
      first.process.kill('SIGKILL');
      second.process.kill('SIGTERM');
      await exited(second);
    }
  });
});

describe('manager', () => {
  it('serves controller-runtime metrics, probes and events, and shuts down within its bound', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'manager');
    const manager = new Manager({
      kubeConfig,
      logger: createLogger({ level: 'silent' }),
      namespace: ns.name,
      metricsAddress: '0',
      healthProbeAddress: '0',
      gracefulShutdownTimeoutMs: 5000,
      freezeCache: true,
    });
    const informer = manager.informers.informerFor({ resource: configMaps });
    const recorder = manager.eventRecorder('test-controller');
    let failOnce = true;
    const controller = manager.newController({
      name: 'configmap-echo',
      reconciler: {
        reconcile: (_context, request) => {
          const object = informer.lister().get(request.namespace, request.name);
          if (object === undefined) {
            return Promise.resolve(undefined);
          }
          if (failOnce) {
            failOnce = false;
            return Promise.reject(new Error('first attempt fails on purpose'));
          }
          recorder.normal(objectReference(configMaps, object), 'Echoed', `saw ${request.name}`);
          return Promise.resolve(undefined);
        },
      },
    });
    controller.watch(informer, requestForObject());
    await manager.client.create(configMaps, { metadata: { name: 'one', namespace: ns.name } });

    const stop = new AbortController();
    const running = manager.start(stop.signal);
    try {
      const ports = await waitFor(
        () => Promise.resolve(manager.boundPorts().health === undefined ? undefined : manager.boundPorts()),
        { description: 'the probe servers' },
      );
      await waitFor(async () => (await fetch(`http://127.0.0.1:${String(ports.health)}/readyz`)).status === 200, {
        description: '/readyz to pass',
      });
      expect(await (await fetch(`http://127.0.0.1:${String(ports.health)}/healthz`)).text()).toBe('ok');

      const events = await waitFor(
        async () => {
          const list = await core.listNamespacedEvent({ namespace: ns.name });
          return list.items.find((e) => e.reason === 'Echoed' && e.involvedObject.name === 'one');
        },
        { description: 'the Echoed event' },
      );
      expect(events).toMatchObject({
        type: 'Normal',
        message: 'saw one',
        involvedObject: { kind: 'ConfigMap', name: 'one' },
        source: { component: 'test-controller' },
      });

      const metrics = await (await fetch(`http://127.0.0.1:${String(ports.metrics)}/metrics`)).text();
      for (const name of [
        'controller_runtime_reconcile_total{controller="configmap-echo",result="success"}',
        'controller_runtime_reconcile_total{controller="configmap-echo",result="error"}',
        'controller_runtime_reconcile_errors_total{controller="configmap-echo"}',
        'controller_runtime_reconcile_time_seconds_bucket',
        'workqueue_depth',
        'workqueue_adds_total',
        'workqueue_queue_duration_seconds_bucket',
        'workqueue_work_duration_seconds_bucket',
        'workqueue_retries_total',
        'rest_client_requests_total{code="200",method="GET"',
        'rest_client_requests_total{code="201",method="POST"',
      ]) {
        expect(metrics).toContain(name);
      }
      expect(metrics).toMatch(/workqueue_adds_total\{[^}]*name="configmap-echo"[^}]*\} [1-9]/);
      expect(metrics).toMatch(/workqueue_retries_total\{[^}]*name="configmap-echo"[^}]*\} [1-9]/);
    } finally {
      const stopping = Date.now();
      stop.abort();
      await running;
      expect(Date.now() - stopping).toBeLessThan(5000 + 3000);
    }
  });

  it('returns within the graceful-shutdown timeout even when a reconcile ignores its signal, and nothing reaches the API server afterwards', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'manager-stop');
    const sent: { readonly verb: string; readonly path: string; readonly sentAt: number }[] = [];
    const gracefulShutdownTimeoutMs = 1000;
    const manager = new Manager({
      kubeConfig,
      logger: createLogger({ level: 'silent' }),
      namespace: ns.name,
      gracefulShutdownTimeoutMs,
      requestObservers: [
        {
          observeRequest: (r) =>
            sent.push({ verb: r.verb, path: r.path, sentAt: performance.now() - r.durationSeconds * 1000 }),
        },
      ],
    });
    const informer = manager.informers.informerFor({ resource: configMaps });
    const entered = Promise.withResolvers<undefined>();
    const lateWrite = Promise.withResolvers<unknown>();
    manager
      .newController({
        name: 'stubborn',
        reconciler: {
          // Ignores its abort signal on purpose, then writes long after the shutdown budget.
          reconcile: async () => {
            entered.resolve(undefined);
            await new Promise((resolve) => setTimeout(resolve, 3 * gracefulShutdownTimeoutMs));
            await manager.client
              .create(configMaps, { metadata: { name: 'too-late', namespace: ns.name } })
              .then(lateWrite.resolve, lateWrite.resolve);
            return undefined;
          },
        },
      })
      .watch(informer, requestForObject());
    await core.createNamespacedConfigMap({ namespace: ns.name, body: { metadata: { name: 'trigger' } } });
    const stop = new AbortController();
    const running = manager.start(stop.signal);
    await entered.promise;

    const stopping = performance.now();
    stop.abort();
    await running;
    const returned = performance.now();
    // The bound is the configured budget; the slack covers closing the probe servers and a loaded machine.
    expect(returned - stopping).toBeLessThan(gracefulShutdownTimeoutMs + 1000);

    const outcome = await lateWrite.promise;
    expect(outcome).toBeInstanceOf(TransportClosedError);
    expect(sent.filter((request) => request.sentAt > returned)).toEqual([]);
    await expect(core.readNamespacedConfigMap({ namespace: ns.name, name: 'too-late' })).rejects.toMatchObject({
      code: 404,
    });
  });
});
