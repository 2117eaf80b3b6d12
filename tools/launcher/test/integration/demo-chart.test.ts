/**
 * `npm run demo -- --chart` end to end: helm installs the chart with every app on, the process kubelet
 * runs its pods as processes of this repository's build, and the demo's steps run through them.
 *
 * On a control plane of its own: the chart's CRDs point their conversion at the chart's Services,
 * which on the test run's shared cluster would take the CRDs from the run's converter for every other
 * test file. The demo gets it through $KUBECONFIG (as a user with a cluster would run it), and a cache
 * directory of its own (KRUISE_TS_CACHE_DIR) whose `bin` is the real cache's, so that the kubelet's
 * pods, logs and helm's directories are the test's while helm comes from (or is built into) the
 * shared tools cache.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, symlink, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { defaultCacheRoot, startLocalCluster } from '@kruise-ts/local-cluster';
import type { LocalCluster } from '@kruise-ts/local-cluster';

const DEMO = fileURLToPath(new URL('../../src/demo/main.ts', import.meta.url));

let cluster: LocalCluster;
let runDir: string;
let cacheRoot: string;

/** Runs the demo with `args` to its exit; its exit code (or signal) and everything it printed. */
function runDemo(args: readonly string[]): Promise<{ code: number | string; output: string }> {
  const child = spawn(process.execPath, ['--conditions=@kruise-ts/source', DEMO, ...args], {
    env: { ...process.env, KUBECONFIG: cluster.kubeconfigPath, KRUISE_TS_CACHE_DIR: cacheRoot },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer): void => {
    output += chunk.toString();
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  return new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      resolve({ code: code ?? signal ?? 'unknown', output });
    });
  });
}

/** Pids of the processes whose environment names `text` (the process kubelet's containers carry their pod's directory there). */
async function processesNaming(text: string): Promise<number[]> {
  const pids = (await readdir('/proc')).filter((entry) => /^\d+$/.test(entry));
  const found: number[] = [];
  for (const pid of pids) {
    const environment = await readFile(`/proc/${pid}/environ`, 'utf8').catch(() => '');
    if (environment.includes(text)) {
      found.push(Number(pid));
    }
  }
  return found;
}

beforeAll(async () => {
  runDir = await mkdtemp(path.join(os.tmpdir(), 'kruise-ts-demo-chart-'));
  cacheRoot = await mkdtemp(path.join(os.tmpdir(), 'kruise-ts-demo-chart-cache-'));
  const sharedBin = path.join(defaultCacheRoot(), 'bin');
  await mkdir(sharedBin, { recursive: true });
  await symlink(sharedBin, path.join(cacheRoot, 'bin'));
  cluster = await startLocalCluster({
    name: 'demo-chart',
    runDir,
    nodes: 4,
    handleSignals: false,
    log: () => undefined,
  });
});

afterAll(async () => {
  await cluster.stop();
  await rm(runDir, { recursive: true, force: true });
  await rm(cacheRoot, { recursive: true, force: true });
});

describe('npm run demo -- --chart', () => {
  it("installs the chart with helm, runs every step through the chart's apps, stops the kubelet's processes and leaves the release on a cluster it did not start", async () => {
    const { code, output } = await runDemo(['--chart', '--namespace', 'demo-chart']);
    expect(code, output).toBe(0);
    expect(output).toContain(
      'helm upgrade --install kruise-ts charts/kruise-ts --namespace kruise-system --create-namespace',
    );
    expect(output).toMatch(
      /Installed in [\d.]+s: kruise-ts-advanced-statefulset 1\/1, kruise-ts-broadcastjob 1\/1, kruise-ts-cloneset 1\/1, kruise-ts-sidecarset 2\/2/,
    );
    expect(output).toContain("Controllers: the chart's apps, each in its own pod (this process runs none)");
    expect(output).not.toContain('Installing the CRDs');
    expect(output).toContain('pods kept through the update (same UID):   5/5, container restarts 5');
    expect(output).toContain(
      "controller writes per pod for the update:  not counted (the apps run in the chart's pods)",
    );
    expect(output).toMatch(
      /Advanced StatefulSet demo-db: 3 pods with a PVC each in [\d.]+s, updated in place in [\d.]+s, pods kept 3\/3, PVCs kept 3\/3/,
    );
    // The process kubelet's node is tainted: the job runs on kwok's four nodes only.
    expect(output).toMatch(
      /BroadcastJob demo-bcj: 4 nodes, 2 pods at a time, completed in [\d.]+s, 4 succeeded, 0 failed/,
    );
    expect(output).toContain('Stopping the process kubelet and the apps it runs...');
    expect(output).toContain(
      'The release kruise-ts stays installed in kruise-system on this cluster (the demo did not start it)',
    );
    expect(await processesNaming(path.join(cacheRoot, 'demo', 'process-kubelet'))).toEqual([]);
  }, 240_000);
});
