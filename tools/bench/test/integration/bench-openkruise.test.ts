/**
 * The openkruise contender end to end: kruise-manager installed from an OpenKruise checkout serves the
 * scenario, and its own pod webhook injects the SidecarSet's container. Skipped where the binary or
 * the checkout is not there (tools/bench/README.md says how to get both); how fast anything is,
 * is not asserted.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { REPOSITORY_ROOT } from '../../src/contenders/command-contender.ts';
import { fileUsable, missingOpenKruisePaths, resolveOpenKruisePaths } from '../../src/contenders/openkruise-paths.ts';
import type { BenchResult } from '../../src/index.ts';

const missing = missingOpenKruisePaths(resolveOpenKruisePaths({}, process.env), fileUsable);

async function bench(
  args: readonly string[],
): Promise<{ code: number; stdout: string; stderr: string; result: BenchResult }> {
  const out = await mkdtemp(path.join(os.tmpdir(), 'kruise-ts-bench-openkruise-'));
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
  const json = (await readdir(out)).find((name) => name.endsWith('.json'));
  if (json === undefined) {
    throw new Error(`no result file; exit ${String(code)}\n${stderr}`);
  }
  const result = JSON.parse(await readFile(path.join(out, json), 'utf8')) as BenchResult;
  await rm(out, { recursive: true, force: true });
  return { code, stdout, stderr, result };
}

describe.skipIf(missing !== undefined)('npm run bench -- --contender openkruise', () => {
  it('sidecarset-scale, 30 pods: kruise-manager scales the CloneSet out without, then with a SidecarSet, every pod of the second injected by its own webhook', async () => {
    const run = await bench(['sidecarset-scale', '--pods', '30', '--contender', 'openkruise']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.result.results.map((result) => [result.contender.name, result.contender.kind, result.phase])).toEqual([
      ['openkruise (no SidecarSet)', 'openkruise', 'no SidecarSet'],
      ['openkruise (SidecarSet)', 'openkruise', 'SidecarSet'],
    ]);
    for (const result of run.result.results) {
      expect(result.error).toBeUndefined();
      expect(result.completed).toBe(true);
      expect(result.readySeconds).toBeGreaterThan(0);
      expect(result.process.peakRssBytes).toBeGreaterThan(10 * 1024 * 1024);
      // A Go process: no Node.js heap or event loop to report, and the table says so with a dash.
      expect(result.metrics.peakHeapUsedBytes).toBeUndefined();
      expect(result.metrics.eventLoopDelayP99Seconds).toBeUndefined();
      expect(result.metrics.reconciles).toBeGreaterThan(0);
      // Every pod create went through its mpod.kb.io, seen by its server and by the API server under that name.
      expect(result.injection?.webhookLatency.count).toBeGreaterThanOrEqual(30);
      expect(result.injection?.apiServerAdmission?.count).toBeGreaterThanOrEqual(30);
    }
    expect(run.result.results[0]?.injection).toMatchObject({
      sidecarSet: false,
      podsWithSidecar: 0,
      podsWithoutSidecar: 30,
    });
    expect(run.result.results[1]?.injection).toMatchObject({
      sidecarSet: true,
      podsWithSidecar: 30,
      podsWithoutSidecar: 0,
    });
    expect(run.stdout).toMatch(
      /\| openkruise \(SidecarSet\) \| yes \| [^|]+ \| [^|]+ \| [^|]+ \| [^|]+ \| [^|]+ \| [^|]+ \| – \|/,
    );
  });
});
