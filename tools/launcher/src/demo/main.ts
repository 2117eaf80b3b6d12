/**
 * `npm run demo`: the main job on a fresh machine. Brings up the local control plane (or uses the
 * cluster of `$KUBECONFIG` when set), installs the CRDs, runs the enabled controllers in this
 * process (with the BroadcastJob gate on), applies the document's sample CloneSet and shows it scale
 * out, then updates its image in place held at a partition, releases it, runs an Advanced StatefulSet
 * and a BroadcastJob, and prints a summary. Ctrl-C stops everything it started.
 *
 * `--chart`: the controllers are the chart's apps instead, installed by helm (every app on) and run
 * as processes by the process kubelet (chart.ts); the release stays on a cluster the demo did not start.
 *
 *   npm run demo [-- --namespace kruise-demo] [--keep] [--chart]
 */
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { KubeConfig } from '@kubernetes/client-node';
import { defaultCacheRoot, startLocalCluster } from '@kruise-ts/local-cluster';
import type { LocalCluster } from '@kruise-ts/local-cluster';

import { installChart, prepareChartTools, CHART_NAMESPACE, CHART_RELEASE } from './chart.ts';
import type { ChartTools, InstalledChart } from './chart.ts';
import { runDemo } from './demo.ts';

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    namespace: { type: 'string', default: 'kruise-demo' },
    keep: { type: 'boolean', default: false },
    chart: { type: 'boolean', default: false },
  },
  strict: true,
});
const out = process.stdout;
const DEMO_POD_START_DELAY_MS = 1000;
const DEMO_CONTAINER_RESTART_DELAY_MS = 1500;
const stop = new AbortController();
const demoDirectory = path.join(defaultCacheRoot(), 'demo');
let cluster: LocalCluster | undefined;
/** Set once there is a cluster to run on: from then on Ctrl-C unwinds (stopping what was started) instead of exiting. */
let unwindOnSignal = false;

process.once('SIGINT', () => {
  out.write('\nCtrl-C: stopping what the demo started...\n');
  stop.abort();
  if (!unwindOnSignal) {
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
  out.write(
    '== Starting the local control plane (the first run builds it from Go modules: about 6 minutes on 2 cores)\n',
  );
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

/** The kubeconfig file the process kubelet reads: the local cluster's, or `$KUBECONFIG` when it names one file. */
function kubeconfigPath(): string {
  const fromEnvironment = process.env['KUBECONFIG'] ?? '';
  const file = cluster?.kubeconfigPath ?? fromEnvironment;
  if (file === '' || file.includes(path.delimiter)) {
    throw new Error(`--chart needs $KUBECONFIG to name one kubeconfig file, not ${JSON.stringify(fromEnvironment)}`);
  }
  return file;
}

/** The demo's steps against the in-process controllers, or against the chart's apps when `chart` is installed. */
async function play(kubeConfig: KubeConfig, chart: InstalledChart | undefined): Promise<void> {
  const options = { kubeConfig, namespace: values.namespace, out, signal: stop.signal, keepRunning: values.keep };
  if (chart !== undefined) {
    out.write(`The apps' logs: ${chart.logDirectory}\n`);
    // No controller runs in this process: nothing writes to its log.
    await runDemo({ ...options, controllers: 'installed', controllerLog: { write: () => true } });
    return;
  }
  const logFile = path.join(demoDirectory, 'controllers.log');
  const controllerLog = createWriteStream(logFile, { flags: 'w' });
  out.write(`Controller logs: ${logFile}\n`);
  try {
    await runDemo({ ...options, controllers: 'in-process', controllerLog });
  } finally {
    controllerLog.end();
  }
}

/** Stops the kubelet (the apps' processes with it) and the cluster the demo started; says what stays. */
async function stopStarted(chart: InstalledChart | undefined): Promise<void> {
  if (chart !== undefined) {
    out.write('Stopping the process kubelet and the apps it runs...\n');
    await chart.stop();
  }
  if (cluster !== undefined && !cluster.reused) {
    out.write('Stopping the local control plane the demo started...\n');
    await cluster.stop();
  } else if (chart !== undefined) {
    out.write(
      `The release ${CHART_RELEASE} stays installed in ${CHART_NAMESPACE} on this cluster (the demo did not start it); its pods run again on the next \`npm run demo -- --chart\`; \`helm uninstall ${CHART_RELEASE} -n ${CHART_NAMESPACE}\` removes it, the CRDs stay.\n`,
    );
  }
}

async function main(): Promise<number> {
  await mkdir(demoDirectory, { recursive: true });
  const tools: ChartTools | undefined = values.chart ? await prepareChartTools(out) : undefined;
  const kubeConfig = await kubeConfigToUse();
  unwindOnSignal = true;
  let chart: InstalledChart | undefined;
  try {
    if (tools !== undefined) {
      chart = await installChart({
        tools,
        kubeconfigPath: kubeconfigPath(),
        kubeConfig,
        directory: demoDirectory,
        freshCluster: cluster?.reused === false,
        out,
        signal: stop.signal,
      });
    }
    await play(kubeConfig, chart);
    return 0;
  } finally {
    await stopStarted(chart);
  }
}

let code: number;
try {
  code = await main();
  // Ctrl-C after the summary (--keep) ends the demo as an interrupt too.
  code = stop.signal.aborted ? 130 : code;
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
