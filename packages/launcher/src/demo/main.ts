/**
 * `npm run demo`: the main job on a fresh machine. Brings up the local control plane (or uses the
 * cluster of `$KUBECONFIG` when set), installs the CRDs, runs the enabled controllers in this
 * process (with the BroadcastJob gate on), applies the document's sample CloneSet and shows it scale
 * out, then updates its image in place held at a partition, releases it, runs an Advanced StatefulSet
 * and a BroadcastJob, and prints a summary. Ctrl-C stops everything it started.
 *
 *   npm run demo [-- --namespace kruise-demo] [--keep]
 */
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { KubeConfig } from '@kubernetes/client-node';
import { defaultCacheRoot, startLocalCluster } from '@kruise-ts/local-cluster';
import type { LocalCluster } from '@kruise-ts/local-cluster';

import { runDemo } from './demo.ts';

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: { namespace: { type: 'string', default: 'kruise-demo' }, keep: { type: 'boolean', default: false } },
  strict: true,
});
const out = process.stdout;
const DEMO_POD_START_DELAY_MS = 1000;
const DEMO_CONTAINER_RESTART_DELAY_MS = 1500;
const stop = new AbortController();
let cluster: LocalCluster | undefined;

process.once('SIGINT', () => {
  out.write('\nCtrl-C: stopping what the demo started...\n');
  stop.abort();
  if (cluster === undefined) {
    // Still starting: leave now; the cluster's exit hook stops any process it already started.
    process.exit(130);
  }
});

async function kubeConfigToUse(): Promise<KubeConfig> {
  const kubeConfig = new KubeConfig();
  if ((process.env['KUBECONFIG'] ?? '') !== '') {
    kubeConfig.loadFromDefault();
    out.write(`Using the cluster of $KUBECONFIG (${kubeConfig.getCurrentCluster()?.server ?? 'unknown server'})\n`);
    return kubeConfig;
  }
  out.write('== Starting the local control plane (the first run builds it from Go modules: about 6 minutes on 2 cores)\n');
  // Simulated kubelet delays make the rollout visible at human speed (benchmarks use none).
  cluster = await startLocalCluster({
    name: 'demo',
    reuse: true,
    handleSignals: false,
    kubelet: { podStartDelayMs: DEMO_POD_START_DELAY_MS, containerUpdateDelayMs: DEMO_CONTAINER_RESTART_DELAY_MS },
    log: (line) => out.write(`   ${line}\n`),
    progressTerminal: out,
  });
  out.write(`Kubernetes at ${cluster.server}; kubeconfig ${cluster.kubeconfigPath}\n`);
  kubeConfig.loadFromFile(cluster.kubeconfigPath);
  return kubeConfig;
}

async function main(): Promise<number> {
  const kubeConfig = await kubeConfigToUse();
  const logDir = path.join(defaultCacheRoot(), 'demo');
  await mkdir(logDir, { recursive: true });
  const logFile = path.join(logDir, 'controllers.log');
  const controllerLog = createWriteStream(logFile, { flags: 'w' });
  out.write(`Controller logs: ${logFile}\n`);
  try {
    await runDemo({ kubeConfig, namespace: values.namespace, out, signal: stop.signal, controllerLog, keepRunning: values.keep });
    return 0;
  } finally {
    controllerLog.end();
    if (cluster !== undefined && !cluster.reused) {
      out.write('Stopping the local control plane the demo started...\n');
      await cluster.stop();
    }
  }
}

let code: number;
try {
  code = await main();
} catch (error) {
  if (stop.signal.aborted) {
    code = 130;
  } else {
    process.stderr.write(`\nThe demo failed: ${error instanceof Error ? error.message : String(error)}\n`);
    code = 1;
  }
}
// Everything the demo started is stopped by now; idle keep-alive connections need not hold the exit.
process.exit(code);
