import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterEach, describe, expect, it } from 'vitest';

import { LocalClusterError, startLocalCluster } from '../../src/index.ts';
import type { LocalClusterOptions } from '../../src/index.ts';
import { waitFor } from '../../src/testing/index.ts';

const temporaryDirs: string[] = [];

async function runDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kruise-ts-failure-'));
  temporaryDirs.push(dir);
  return dir;
}

/** Pids of live processes whose command line mentions `fragment` (a run directory). */
async function processesMentioning(fragment: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) {
      continue;
    }
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(fragment) && !cmdline.includes('own-cluster')) {
      pids.push(Number(entry));
    }
  }
  return pids;
}

/** Waits (briefly: the reaper polls once a second) until nothing started under `dir` runs. */
async function expectNothingRunning(dir: string): Promise<void> {
  await waitFor(async () => (await processesMentioning(dir)).length === 0, {
    description: `no process of ${dir} to remain`,
    timeoutMs: 10_000,
  });
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address !== null ? address.port : 0;
}

async function startFailure(options: LocalClusterOptions): Promise<LocalClusterError> {
  try {
    const cluster = await startLocalCluster({ nodes: 1, handleSignals: false, ...options });
    await cluster.stop();
  } catch (error) {
    if (error instanceof LocalClusterError) {
      return error;
    }
    throw error;
  }
  throw new Error('expected the cluster start to fail');
}

/** Alive and not a zombie: a killed process stays in the table until its (new) parent reaps it. */
async function isAlive(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${String(pid)}/stat`, 'utf8').catch(() => undefined);
  return stat !== undefined && !stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
}

afterEach(async () => {
  for (const dir of temporaryDirs.splice(0)) {
    await rm(dir, { recursive: true, force: true });
  }
});

describe('failure modes of the local cluster', () => {
  it('a port in use stops the start with a message naming the component and the port, and leaves nothing running', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const address = blocker.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    try {
      const dir = await runDir();
      const error = await startFailure({ runDir: dir, apiServerPort: port });
      expect(error.details.component).toBe('kube-apiserver');
      expect(error.message).toContain(`port 127.0.0.1:${String(port)} is already in use`);
      await expectNothingRunning(dir);
    } finally {
      blocker.close();
    }
  });

  it('a component that crashes fails the start at once, quoting its log', async () => {
    const dir = await runDir();
    const error = await startFailure({ runDir: dir, extraArgs: { 'kube-controller-manager': ['--no-such-flag'] } });
    expect(error.details.component).toBe('kube-controller-manager');
    expect(error.message).toMatch(/exited with code \d+ before becoming ready/);
    expect(error.details.logFile).toBe(path.join(dir, 'logs', 'kube-controller-manager.log'));
    expect(error.details.logTail).toContain('unknown flag: --no-such-flag');
    await expectNothingRunning(dir);
  });

  it('a component that never becomes ready fails the start after the timeout, quoting its log', async () => {
    const dir = await runDir();
    // kwok serves its health endpoint on another port than the one probed, so it never looks ready.
    const elsewhere = await freePort();
    // The timeout applies to each component: long enough for the others to start on a loaded 2-core machine.
    const error = await startFailure({
      runDir: dir,
      startTimeoutMs: 20_000,
      extraArgs: { kwok: [`--server-address=127.0.0.1:${String(elsewhere)}`] },
    });
    expect(error.details.component).toBe('kwok');
    expect(error.message).toContain('did not become ready within 20s');
    expect(error.details.logTail).not.toBe('');
    await expectNothingRunning(dir);
  });

  it('a second start in the same directory says a cluster runs, or reuses it when asked', async () => {
    const dir = await runDir();
    await using first = await startLocalCluster({ runDir: dir, nodes: 1, handleSignals: false });
    const error = await startFailure({ runDir: dir });
    expect(error.message).toContain(`a cluster is already running in ${dir}`);
    expect(error.message).toContain(first.kubeconfigPath);

    const second = await startLocalCluster({ runDir: dir, reuse: true, handleSignals: false });
    expect(second.reused).toBe(true);
    expect(second.server).toBe(first.server);
    await second.stop();
    const running = await processesMentioning(dir);
    expect(first.components.every((c) => running.includes(c.pid))).toBe(true);
  });

  it.each([
    { signal: 'SIGTERM', outcome: 'stops the cluster in order and exits' },
    { signal: 'SIGKILL', outcome: 'leaves the reaper to stop the orphaned cluster' },
  ] as const)('an owner process killed with $signal $outcome', async ({ signal }) => {
    const dir = await runDir();
    const fixture = fileURLToPath(new URL('../fixtures/own-cluster.ts', import.meta.url));
    const owner = spawn(process.execPath, [fixture, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    owner.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const ready = await waitFor(() => Promise.resolve(/READY (\[.*\])/.exec(output)?.[1]), {
      description: 'the owner to start its cluster',
      timeoutMs: 120_000,
    });
    const pids = JSON.parse(ready) as number[];
    expect(pids).toHaveLength(5);
    expect((await processesMentioning(dir)).length).toBeGreaterThanOrEqual(5);

    owner.kill(signal);
    await waitFor(async () => (await processesMentioning(dir)).length === 0, {
      description: `no process of ${dir} to remain after ${signal}`,
      timeoutMs: 30_000,
    });
    expect(await Promise.all(pids.map(isAlive))).toEqual(pids.map(() => false));
  });
});
