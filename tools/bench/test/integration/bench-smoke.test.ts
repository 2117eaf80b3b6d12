/**
 * A smoke test of the benchmark tool itself (small N): each run produces complete results for every
 * contender — counted requests, process and metrics figures, a rollout curve — and its three files.
 * How fast anything is, is not asserted: that is what the tool reports.
 *
 * CloneSet scenarios and an interrupted run here; the other workload kinds in bench-smoke-kinds.test.ts
 * (two files, so that the integration run can give them two workers).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { REPOSITORY_ROOT } from '../../src/contenders/command-contender.ts';
import { bench, expectComplete, LAUNCHER, processesRunning } from '../support/bench-run.ts';

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
