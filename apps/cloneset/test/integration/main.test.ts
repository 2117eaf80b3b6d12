/**
 * The controller's real entrypoint (`src/main.ts`) as the chart runs it: flags, kubeconfig, leader
 * election, metrics, reconciling, and a clean exit on SIGTERM.
 */
import { spawn } from 'node:child_process';
import type { ChildProcessByStdio } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Readable } from 'node:stream';

import { CoordinationV1Api } from '@kubernetes/client-node';
import { describe, expect, inject, it } from 'vitest';

import { createTestNamespace, testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';

import { createCloneSet, installCloneSetCrd, settled, testClient, waitForStatus } from '../support/harness.ts';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);

interface Running {
  readonly child: ChildProcessByStdio<null, Readable, Readable>;
  readonly stdout: () => string;
  readonly stderr: () => string;
  readonly exited: Promise<number | null>;
}

function runMain(args: readonly string[]): Running {
  const child = spawn(process.execPath, ['--conditions=@kruise-ts/source', MAIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, KUBECONFIG: '' },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      resolve(code);
    });
  });
  return { child, stdout: () => out, stderr: () => err, exited };
}

describe('cloneset main', () => {
  it('rejects a bad flag with exit code 2 and a message naming the flag', async () => {
    const run = runMain(['--kube-api-qps=fast', '--leader-elect=maybe']);
    expect(await run.exited).toBe(2);
    expect(run.stderr()).toContain('--kube-api-qps');
    expect(run.stderr()).toContain('--leader-elect');
    expect(run.stderr()).not.toContain('    at ');
  });

  it('exits without touching the cluster when the CloneSet feature gate is off', async () => {
    const run = runMain(['--feature-gates=CloneSet=false', '--kubeconfig=/nonexistent']);
    expect(await run.exited).toBe(0);
    expect(run.stdout()).toContain('feature gate is off');
  });

  it("holds its Lease, reconciles a CloneSet, serves metrics and exits 0 on SIGTERM, with OpenKruise's flags", async () => {
    await installCloneSetCrd(kubeConfig);
    await using ns = await createTestNamespace(kubeConfig, 'cloneset-main');
    const run = runMain([
      `--kubeconfig=${inject('kubeconfigPath')}`,
      `--namespace=${ns.name}`,
      `--leader-election-namespace=${ns.name}`,
      // OpenKruise's names for ours, a flag with no effect here, and a gate kruise-ts does not implement.
      '--metrics-addr=127.0.0.1:0',
      '--health-probe-addr=127.0.0.1:0',
      '--controller-cache-sync-timeout=2m',
      '--cloneset-workers=2',
      '--v=4',
      '--feature-gates=ImagePullJobGate=true',
      '--graceful-shutdown-timeout=5s',
      // The validation webhook's server: a free port, as test files run in parallel.
      '--webhook-port=0',
    ]);
    try {
      const lease = await waitFor(
        async () =>
          (
            await kubeConfig
              .makeApiClient(CoordinationV1Api)
              .readNamespacedLease({ name: 'kruise-ts-cloneset', namespace: ns.name })
          ).spec?.holderIdentity,
        { description: 'the kruise-ts-cloneset Lease to be held' },
      );
      expect(lease).not.toBe('');
      await createCloneSet(client, ns.name, {
        metadata: { name: 'main' },
        spec: {
          replicas: 2,
          selector: { matchLabels: { app: 'main' } },
          template: {
            metadata: { labels: { app: 'main' } },
            spec: { containers: [{ name: 'main', image: 'nginx:alpine' }] },
          },
        },
      });
      await waitForStatus(
        client,
        { namespace: ns.name, name: 'main', description: 'two ready pods' },
        (cs) => settled(cs) && cs.status?.readyReplicas === 2,
      );

      const port = /"metricsPort":(\d+)/.exec(run.stdout())?.[1];
      expect(port).toBeDefined();
      const metrics = await (await fetch(`http://127.0.0.1:${port ?? ''}/metrics`)).text();
      expect(metrics).toMatch(
        /controller_runtime_reconcile_total\{[^}]*controller="cloneset"[^}]*result="success"[^}]*\} [1-9]/,
      );
      expect(metrics).toMatch(/leader_election_master_status\{name="kruise-ts-cloneset"\} 1/);
      // The process metrics benchmarks and dashboards read (heap, event-loop delay, RSS, CPU).
      for (const name of [
        'nodejs_heap_size_used_bytes',
        'nodejs_eventloop_lag_p99_seconds',
        'process_resident_memory_bytes',
        'process_cpu_seconds_total',
      ]) {
        expect(metrics).toMatch(new RegExp(`^${name} [0-9.e+-]+$`, 'm'));
      }
      const warnings = run
        .stdout()
        .split('\n')
        .filter((line) => line.includes('"level":"warn"'))
        .map((line) => (JSON.parse(line) as { msg: string }).msg);
      expect(warnings).toEqual(
        expect.arrayContaining([
          expect.stringContaining("--metrics-addr is OpenKruise's name for --metrics-bind-address"),
          expect.stringContaining("--controller-cache-sync-timeout is OpenKruise's name for --cache-sync-timeout"),
          expect.stringContaining('--v is accepted for compatibility with OpenKruise and has no effect'),
          expect.stringContaining(
            'feature gate ImagePullJobGate=true is accepted for compatibility with OpenKruise but has no effect',
          ),
        ]),
      );
      expect(run.stdout()).toMatch(/"workers":2.*"msg":"Starting workers"|"msg":"Starting workers".*"workers":2/);
    } finally {
      run.child.kill('SIGTERM');
    }
    expect(await run.exited).toBe(0);
    expect(run.stdout()).toContain('Shutting down');
  });
});
