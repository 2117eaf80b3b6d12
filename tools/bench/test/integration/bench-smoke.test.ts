/**
 * A smoke test of the benchmark tool itself (small N): each run produces complete results for every
 * contender — counted requests, process and metrics figures, a rollout curve — and its three files.
 * How fast anything is, is not asserted: that is what the tool reports.
 */
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { REPOSITORY_ROOT } from '../../src/contenders/command-contender.ts';
import type { BenchResult, ContenderResult } from '../../src/index.ts';

const LAUNCHER = 'node --conditions=@kruise-ts/source tools/launcher/src/cli.ts';

interface BenchRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly result: BenchResult;
  readonly files: string[];
  /** The first bytes of each contender's kube-apiserver profile, read before the output is removed. */
  readonly profileHeads: ReadonlyMap<string, number[]>;
}

async function bench(args: readonly string[]): Promise<BenchRun> {
  const out = await mkdtemp(path.join(os.tmpdir(), 'kruise-ts-bench-'));
  const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      ['--conditions=@kruise-ts/source', 'tools/bench/src/cli.ts', ...args, '--idle-window-seconds', '1', '--out', out],
      { cwd: REPOSITORY_ROOT, maxBuffer: 64 * 1024 * 1024 },
      (error, stdoutText, stderrText) => {
        resolve({
          code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1,
          stdout: stdoutText,
          stderr: stderrText,
        });
      },
    );
  });
  const files = (await readdir(out)).filter((name) => !name.endsWith('-work')).sort();
  const json = files.find((name) => name.endsWith('.json'));
  if (json === undefined) {
    throw new Error(`no result file; exit ${String(code)}\n${stderr}`);
  }
  const result = JSON.parse(await readFile(path.join(out, json), 'utf8')) as BenchResult;
  const profileHeads = new Map<string, number[]>();
  for (const { contender, apiserverProfile } of result.results) {
    if (apiserverProfile !== undefined) {
      profileHeads.set(contender.name, [...(await readFile(apiserverProfile)).subarray(0, 2)]);
    }
  }
  await rm(out, { recursive: true, force: true });
  return { code, stdout, stderr, result, files, profileHeads };
}

/** `preparedPods`: whether the scenario's preparation wrote pods (bcj-nodes' warm-up makes none). */
function expectComplete(result: ContenderResult, pods: number, { preparedPods = true } = {}): void {
  expect(result.error).toBeUndefined();
  expect(result.completed).toBe(true);
  expect(result.pods).toBe(pods);
  expect(result.wallSeconds).toBeGreaterThan(0);
  expect(result.requests.total).toBeGreaterThan(0);
  expect(result.requests.writes).toBeGreaterThanOrEqual(pods);
  // Rounded to two decimals in the result: at most half a hundredth off (8.125 is reported as 8.13).
  expect(Math.abs(result.requests.writesPerPod - result.requests.writes / pods)).toBeLessThanOrEqual(0.005 + 1e-9);
  expect(result.requests.podWritesPerPod).toBeGreaterThan(0);
  expect(result.requests.podWritesPerPod).toBeLessThanOrEqual(result.requests.writesPerPod);
  expect(result.requests.byVerbAndResource.reduce((sum, row) => sum + row.count, 0)).toBe(result.requests.total);
  expect(result.requests.mutatingLatency.count).toBe(result.requests.writes);
  expect(result.process.peakRssBytes).toBeGreaterThan(10 * 1024 * 1024);
  expect(result.process.cpuSeconds).toBeGreaterThan(0);
  // Every contender is waited for (its metrics port) and its idle CPU and resident set per pod are read.
  if (result.contender.kind !== 'native') {
    expect(result.readySeconds).toBeGreaterThanOrEqual(0);
  }
  expect(result.idleCpuCores).toBeGreaterThanOrEqual(0);
  expect(result.rssBytesPer1000Pods).toBeGreaterThan(0);
  expect(result.series.length).toBeGreaterThan(1);
  expect(result.series[0]?.t).toBe(0);
  // The change started only after the preparation's pod writes had stopped for the quiet period.
  expect(result.quietBeforeChange).toMatchObject({ quiet: true, quietMs: 2000 });
  if (preparedPods) {
    expect(result.quietBeforeChange?.podWritesSeen).toBeGreaterThan(0);
  }
  expect(Object.keys(result.controlPlaneCpuSeconds ?? {})).toEqual(
    expect.arrayContaining(['etcd', 'kube-apiserver', 'kwok']),
  );
  expect(result.controlPlaneCpuSeconds?.['kube-apiserver']).toBeGreaterThan(0);
  // Read from kube-apiserver's log and the audit log (usually empty at this size; counted in tests of the readers).
  expect(Array.isArray(result.simulator?.watchClosures)).toBe(true);
  expect(Array.isArray(result.simulator?.kubeletFailedRequests)).toBe(true);
}

describe('npm run bench', () => {
  it('inplace, 100 pods: our launcher, and the same launcher plugged in as an external command', async () => {
    const external = `ext=${LAUNCHER} --kubeconfig={kubeconfig} --metrics-bind-address=127.0.0.1:{metricsPort} --health-probe-bind-address=127.0.0.1:0 --leader-elect=false --kube-api-qps={qps} --kube-api-burst={burst} --log-level=warn`;
    const run = await bench([
      'inplace',
      '--pods',
      '100',
      '--contender',
      'kruise-ts',
      '--contender',
      external,
      '--apiserver-profile-seconds',
      '2',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.result.settings).toMatchObject({
      scenario: 'inplace',
      pods: 100,
      clientQps: 0,
      kubelet: { podStartDelayMs: 0, containerUpdateDelayMs: 0, podDeleteDelayMs: 0 },
    });
    expect(
      run.result.results.map((result) => [result.contender.name, result.contender.kind, result.workloadKind]),
    ).toEqual([
      ['kruise-ts', 'kruise-ts', 'CloneSet'],
      ['ext', 'external', 'CloneSet'],
    ]);
    for (const result of run.result.results) {
      expectComplete(result, 100);
      // An in-place update patches each pod; none is created or deleted.
      const verbs = new Map(result.requests.byVerbAndResource.map((row) => [`${row.verb} ${row.resource}`, row.count]));
      expect(verbs.get('patch pods')).toBe(100);
      expect(verbs.get('create pods')).toBeUndefined();
      expect(verbs.get('delete pods')).toBeUndefined();
      expect(result.metrics.peakHeapUsedBytes).toBeGreaterThan(0);
      expect(result.metrics.eventLoopDelayP99Seconds).toBeGreaterThan(0);
      expect(result.metrics.reconciles).toBeGreaterThan(0);
      expect(result.metrics.reconcileP99Seconds).toBeGreaterThan(0);
      expect(result.series.at(-1)).toMatchObject({ replicas: 100, updated: 100, available: 100 });
      // A pprof profile is gzip data.
      expect(run.profileHeads.get(result.contender.name)).toEqual([0x1f, 0x8b]);
    }
    expect(run.files.map((name) => path.extname(name))).toEqual(['.json', '.md', '.svg']);
    expect(run.stdout).toContain('| ext | yes |');
    expect(run.stdout).toMatch(/\(\d+\.\d\d×\)/);
  });

  it('steady, 4 × 10 pods: our apps one process each, and native Deployments as the baseline', async () => {
    const run = await bench([
      'steady',
      '--workloads',
      '4',
      '--pods-per-workload',
      '10',
      '--idle-seconds',
      '2',
      '--churn-percent',
      '20',
      '--contender',
      'kruise-ts-per-app',
      '--contender',
      'native',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const [ours, native] = run.result.results;
    expect(ours?.workloadKind).toBe('CloneSet');
    expect(native?.workloadKind).toBe('Deployment');
    for (const result of run.result.results) {
      expectComplete(result, 8);
      expect(result.steady).toMatchObject({ workloads: 4, podsPerWorkload: 10, churnedPods: 8, idleSeconds: 2 });
      expect(result.steady?.convergeSeconds).toBe(result.wallSeconds);
      expect(result.steady?.rssBytesPer1000Pods).toBeGreaterThan(0);
      // The churned pods were replaced by the contender.
      expect(
        result.requests.byVerbAndResource.find((row) => row.verb === 'create' && row.resource === 'pods')?.count,
      ).toBe(8);
    }
    expect(ours?.steady?.heapBytesPer1000Pods).toBeGreaterThan(0);
    // Every one of our processes collected its garbage before the heap was read (live heap).
    expect(ours?.steady?.heapAfterFullGc).toBe(true);
    expect(native?.steady?.heapAfterFullGc).toBe(false);
    expect(run.stdout).toContain('native-deployment');
  });

  it('asts-inplace, 30 pods: our launcher updates the Advanced StatefulSet in place, the native StatefulSet controller replaces its pods', async () => {
    const run = await bench(['asts-inplace', '--pods', '30']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.result.settings).toMatchObject({ scenario: 'asts-inplace', pods: 30, maxUnavailable: '20%' });
    expect(
      run.result.results.map((result) => [result.contender.name, result.contender.kind, result.workloadKind]),
    ).toEqual([
      ['kruise-ts', 'kruise-ts', 'AdvancedStatefulSet'],
      ['native-statefulset', 'native', 'StatefulSet'],
    ]);
    const [ours, native] = run.result.results;
    for (const result of run.result.results) {
      expectComplete(result, 30);
      expect(result.series.at(-1)).toMatchObject({ replicas: 30, updated: 30, available: 30 });
    }
    const count = (result: ContenderResult | undefined, verb: string): number | undefined =>
      result?.requests.byVerbAndResource.find((row) => row.verb === verb && row.resource === 'pods')?.count;
    // In place: each pod patched, none created or deleted; the native controller deletes and re-creates every pod.
    expect([count(ours, 'patch'), count(ours, 'create'), count(ours, 'delete')]).toEqual([30, undefined, undefined]);
    // The native controller may send a delete twice (a retry after a conflict under load; CI saw 31).
    expect(count(native, 'delete')).toBeGreaterThanOrEqual(30);
    // The native controller retries a create whose name is still held by the terminating pod (409).
    expect(count(native, 'create')).toBeGreaterThanOrEqual(30);
    expect(run.stdout).toContain('native-statefulset');
  });

  it('sidecarset-scale, 30 pods: our launcher scales a CloneSet out without, then with a SidecarSet, every pod of the second injected through its webhook', async () => {
    const run = await bench(['sidecarset-scale', '--pods', '30']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.result.results.map((result) => [result.contender.name, result.phase, result.workloadKind])).toEqual([
      ['kruise-ts (no SidecarSet)', 'no SidecarSet', 'CloneSet'],
      ['kruise-ts (SidecarSet)', 'SidecarSet', 'CloneSet'],
    ]);
    // The launcher ran with SidecarSet on and wrote its own webhook configuration.
    expect(run.result.results[0]?.contender.command).toContain('--webhook-local-configuration=kruise-ts-bench');
    const [without, withSidecarSet] = run.result.results;
    for (const result of run.result.results) {
      expectComplete(result, 30);
      expect(
        result.requests.byVerbAndResource.find((row) => row.verb === 'create' && row.resource === 'pods')?.count,
      ).toBe(30);
      expect(result.series.at(-1)).toMatchObject({ replicas: 30, available: 30 });
      // Every pod creation of both phases went through the webhook, seen by its server and by the API server.
      expect(result.injection?.webhookLatency.count).toBeGreaterThanOrEqual(30);
      expect(result.injection?.webhookLatency.p99Seconds).toBeGreaterThan(0);
      expect(result.injection?.apiServerAdmission?.count).toBeGreaterThanOrEqual(30);
      expect(result.injection?.podCreateLatency.count).toBe(30);
    }
    expect(without?.injection).toMatchObject({ sidecarSet: false, podsWithSidecar: 0, podsWithoutSidecar: 30 });
    expect(withSidecarSet?.injection).toMatchObject({ sidecarSet: true, podsWithSidecar: 30, podsWithoutSidecar: 0 });
    expect(run.stdout).toContain('### SidecarSet injection');
    expect(run.stdout).toContain('| kruise-ts (SidecarSet) | yes | 30 / 0 |');
  });

  it('bcj-nodes, 20 nodes: our BroadcastJob runs a pod on every node to completion, the native DaemonSet controller places one on every node', async () => {
    const run = await bench(['bcj-nodes', '--nodes', '20', '--job-run-ms', '500']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.result.settings).toMatchObject({ scenario: 'bcj-nodes', pods: 20, nodes: 20, jobRunMs: 500 });
    expect(
      run.result.results.map((result) => [result.contender.name, result.contender.kind, result.workloadKind]),
    ).toEqual([
      ['kruise-ts', 'kruise-ts', 'BroadcastJob'],
      ['native-daemonset', 'native', 'DaemonSet'],
    ]);
    // The BroadcastJob gate is off by default: the scenario turns it on.
    expect(run.result.results[0]?.contender.command).toContain('--feature-gates=BroadcastJob=true');
    const [ours, native] = run.result.results;
    for (const result of run.result.results) {
      expectComplete(result, 20, { preparedPods: false });
      expect(
        result.requests.byVerbAndResource.find((row) => row.verb === 'create' && row.resource === 'pods')?.count,
      ).toBe(20);
      expect(result.perNode).toMatchObject({ nodes: 20, podsCreated: 20, podsStarted: 20, nodesWithSeveralPods: 0 });
      expect(result.perNode?.allRunningSeconds).toBeGreaterThan(0);
    }
    // Every job pod ran its 500 ms and succeeded before the job completed; the DaemonSet's pods keep running.
    expect(ours?.perNode).toMatchObject({ podsSucceeded: 20 });
    expect(ours?.perNode?.allSucceededSeconds).toBeGreaterThanOrEqual(ours?.perNode?.allRunningSeconds ?? Infinity);
    expect(ours?.wallSeconds).toBeGreaterThan(0.5);
    expect(ours?.series.at(-1)).toMatchObject({ replicas: 20, ready: 0, available: 20 });
    expect(native?.perNode).toMatchObject({ podsSucceeded: 0 });
    expect(native?.perNode?.allSucceededSeconds).toBeUndefined();
    expect(native?.series.at(-1)).toMatchObject({ replicas: 20, ready: 20, available: 20 });
    expect(run.stdout).toContain('### A pod on every node');
    expect(run.stdout).toContain('| native-daemonset | DaemonSet | 20 | 20 / 20 / 0 |');
  });

  it('stops the contender it started when interrupted (Ctrl-C) mid-run', async () => {
    // A contender that never serves CloneSets, so the run waits in its preparation until interrupted.
    const marker = `${String(7_000 + Math.floor(Math.random() * 1_000))}.5`;
    const out = await mkdtemp(path.join(os.tmpdir(), 'kruise-ts-bench-'));
    const child = spawn(
      process.execPath,
      [
        '--conditions=@kruise-ts/source',
        'tools/bench/src/cli.ts',
        'scale',
        '--pods',
        '10',
        '--contender',
        `stray=exec sleep ${marker}`,
        '--out',
        out,
      ],
      {
        cwd: REPOSITORY_ROOT,
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr += chunk;
    });
    const exited = once(child, 'exit');
    try {
      await expect.poll(() => stderr, { timeout: 60_000, interval: 200 }).toContain('stray: preparing scale');
      expect(await processesRunning(`sleep ${marker}`)).toBe(1);
      child.kill('SIGINT');
      const [code] = (await exited) as [number | null];
      expect(code).toBe(130);
      expect(await processesRunning(`sleep ${marker}`)).toBe(0);
    } finally {
      child.kill('SIGKILL');
      await rm(out, { recursive: true, force: true });
    }
  });
});

/** How many processes have exactly this command line (words separated by spaces). */
async function processesRunning(commandLine: string): Promise<number> {
  const pids = (await readdir('/proc')).filter((entry) => /^\d+$/.test(entry));
  const lines = await Promise.all(pids.map((pid) => readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')));
  return lines.filter(
    (line) =>
      line
        .split('\0')
        .filter((word) => word !== '')
        .join(' ') === commandLine,
  ).length;
}
