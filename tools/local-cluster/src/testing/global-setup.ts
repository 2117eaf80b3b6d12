/**
 * Vitest global setup of the integration project: one real control plane for the whole run.
 *
 * - `KRUISE_TS_KUBECONFIG=<path>`: use that cluster (for example one from `npm run cluster:up`).
 * - otherwise: start a fresh cluster in a temporary directory and stop it at the end of the run.
 *
 * Tests read the kubeconfig path with `inject('kubeconfigPath')` (see `testKubeConfig`).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import type { TestProject } from 'vitest/node';

import { defaultCacheRoot, defaultToolSpecs, ensureTools, startLocalCluster } from '../index.ts';
import './provided-context.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const external = process.env['KRUISE_TS_KUBECONFIG'];
  if (external !== undefined && external !== '') {
    project.provide('kubeconfigPath', path.resolve(external));
    project.provide('toolBinaries', {});
    return () => Promise.resolve();
  }
  const runDir = await mkdtemp(path.join(os.tmpdir(), 'kruise-ts-test-cluster-'));
  const log = (line: string): void => {
    process.stderr.write(`[local-cluster] ${line}\n`);
  };
  // Every tool, not only the cluster's: the chart tests run helm, and building it inside a test
  // would run into the test's timeout on a machine that has not built it yet.
  const tools = await ensureTools({
    cacheRoot: defaultCacheRoot(),
    specs: defaultToolSpecs(),
    log,
    progressTerminal: process.stderr,
  });
  const cluster = await startLocalCluster({ name: 'integration', runDir, log, handleSignals: false });
  log(`control plane for this test run: ${cluster.server} (started in ${String(cluster.startSeconds)}s)`);
  project.provide('kubeconfigPath', cluster.kubeconfigPath);
  project.provide('toolBinaries', Object.fromEntries([...tools].map(([name, tool]) => [name, tool.path])));
  return async () => {
    await cluster.stop();
    await rm(runDir, { recursive: true, force: true });
  };
}
