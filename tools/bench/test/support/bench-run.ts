/**
 * What the bench smoke tests share: one `npm run bench` run with its result file read back, the checks
 * every complete contender result passes, and a count of processes by command line.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'vitest';

import { REPOSITORY_ROOT } from '../../src/contenders/command-contender.ts';
import type { BenchResult, ContenderResult } from '../../src/index.ts';

export const LAUNCHER = 'node --conditions=@kruise-ts/source tools/launcher/src/cli.ts';

export interface BenchRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly result: BenchResult;
  readonly files: string[];
  /** The first bytes of each contender's kube-apiserver profile, read before the output is removed. */
  readonly profileHeads: ReadonlyMap<string, number[]>;
}

export async function bench(args: readonly string[]): Promise<BenchRun> {
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
export function expectComplete(result: ContenderResult, pods: number, { preparedPods = true } = {}): void {
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

/** How many processes have exactly this command line (words separated by spaces). */
export async function processesRunning(commandLine: string): Promise<number> {
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
