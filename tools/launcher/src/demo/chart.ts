/**
 * `npm run demo -- --chart`: the chart as a user installs it. helm (built from the local control
 * plane's Go tools module when missing) installs charts/kruise-ts with every app on, and the process
 * kubelet of @kruise-ts/local-cluster runs the chart's pods as processes of this repository's build
 * (`npm run build`), on a node of their own that the placement values pin them to. helm runs with
 * config, cache and data directories of the demo's own, never the user's.
 */
import { execFile } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

import { AppsV1Api, CoreV1Api } from '@kubernetes/client-node';
import type { KubeConfig, V1Pod } from '@kubernetes/client-node';
import {
  defaultCacheRoot,
  defaultToolSpecs,
  ensureTools,
  repositoryImage,
  startProcessKubelet,
} from '@kruise-ts/local-cluster';
import type { ImageMapping, ProcessKubelet, ProcessNodePlacement } from '@kruise-ts/local-cluster';

import type { Output } from './status-line.ts';

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
export const CHART_DIRECTORY = path.join(REPO_ROOT, 'charts', 'kruise-ts');
export const CHART_RELEASE = 'kruise-ts';
export const CHART_NAMESPACE = 'kruise-system';
/** Every app of the chart on. */
export const ALL_APPS_GATES = 'CloneSet=true,AdvancedStatefulSet=true,SidecarSet=true,BroadcastJob=true';

/** The chart's values: every app on, its pods placed on the process kubelet's node. */
export function chartValues(placement: ProcessNodePlacement): Record<string, unknown> {
  return { featureGates: ALL_APPS_GATES, nodeSelector: placement.nodeSelector, tolerations: placement.tolerations };
}

/**
 * `helm upgrade --install`: a rerun on a cluster the demo reused finds the release and upgrades it.
 * `--take-ownership --force-conflicts`: the CRDs that the in-process demo applied on the same cluster
 * (no helm metadata, other field managers) become the release's, as in docs/migrating-from-openkruise.md.
 */
export function helmInstallArgs(valuesFile: string, chartDirectory: string = CHART_DIRECTORY): string[] {
  return [
    'upgrade',
    '--install',
    CHART_RELEASE,
    chartDirectory,
    '--namespace',
    CHART_NAMESPACE,
    '--create-namespace',
    '-f',
    valuesFile,
    '--take-ownership',
    '--force-conflicts',
    '--wait',
    '--timeout',
    '5m',
  ];
}

/** helm's environment: `kubeconfig`, and config, cache and data under `helmHome` (never the user's). */
export function helmEnvironment(
  helmHome: string,
  kubeconfig: string,
  base: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  return {
    ...base,
    HELM_CONFIG_HOME: path.join(helmHome, 'config'),
    HELM_CACHE_HOME: path.join(helmHome, 'cache'),
    HELM_DATA_HOME: path.join(helmHome, 'data'),
    KUBECONFIG: kubeconfig,
  };
}

/** Restarts after which a chart container counts as crash-looping: the demo stops waiting for helm's 5 minutes. */
const CRASH_RESTARTS = 2;
const CRASH_POLL_MS = 2000;

/** A container that keeps exiting: which, how often, and how it last ended. */
export interface CrashLoop {
  readonly pod: string;
  readonly container: string;
  readonly restarts: number;
  readonly exit: string;
}

/** The first container of `pods` restarted at least twice: the chart's apps never restart in a good install. */
export function crashLoopOf(pods: readonly V1Pod[]): CrashLoop | undefined {
  for (const pod of pods) {
    const status = (pod.status?.containerStatuses ?? []).find((container) => container.restartCount >= CRASH_RESTARTS);
    if (status !== undefined) {
      const last = status.lastState?.terminated;
      const exit =
        last === undefined
          ? 'how is unknown'
          : `exit code ${String(last.exitCode)}${last.reason === undefined ? '' : `, ${last.reason}`}`;
      return { pod: pod.metadata?.name ?? '', container: status.name, restarts: status.restartCount, exit };
    }
  }
  return undefined;
}

/** What `--chart` needs before a cluster: helm and the build the chart's image maps to. */
export interface ChartTools {
  readonly helm: string;
  readonly image: ImageMapping;
}

/** Builds helm when missing from the tools cache (as the cluster's tools are) and runs `npm run build` for the image. */
export async function prepareChartTools(out: Output): Promise<ChartTools> {
  out.write(
    "== Getting helm (the first run builds it from Go modules: under 2 minutes on 2 cores) and building the image's bundle (npm run build)\n",
  );
  const log = (line: string): void => {
    out.write(`   ${line}\n`);
  };
  const specs = defaultToolSpecs().filter((spec) => spec.name === 'helm');
  const helm = (await ensureTools({ cacheRoot: defaultCacheRoot(), specs, log, progressTerminal: out })).get('helm');
  if (helm === undefined) {
    throw new Error('ensureTools did not return helm');
  }
  // The kubelet would run the build before the first pod; run it here, where a failure is plain to see.
  const { prepare, ...image } = repositoryImage();
  const started = performance.now();
  await prepare?.();
  out.write(
    `   helm ${helm.version}: ${helm.path}; bundle built in ${((performance.now() - started) / 1000).toFixed(1)}s (dist/)\n`,
  );
  return { helm: helm.path, image };
}

/** The chart installed and its apps running; `stop` stops the kubelet (the apps' processes with it), the release stays. */
export interface InstalledChart {
  readonly logDirectory: string;
  stop(): Promise<void>;
}

export interface InstallChartOptions {
  readonly tools: ChartTools;
  /** The cluster's administrator kubeconfig (one file). */
  readonly kubeconfigPath: string;
  readonly kubeConfig: KubeConfig;
  /** The demo's directory: the kubelet's pods, logs and helm's own directories go under it. */
  readonly directory: string;
  /** The cluster was just started: what an earlier run's kubelet left (pods' volumes and logs) goes. */
  readonly freshCluster: boolean;
  readonly out: Output;
  readonly signal: AbortSignal;
}

interface HelmRun {
  readonly code: number;
  readonly output: string;
}

function runHelm(options: InstallChartOptions, args: readonly string[], signal: AbortSignal): Promise<HelmRun> {
  const env = helmEnvironment(path.join(options.directory, 'helm'), options.kubeconfigPath);
  return new Promise((resolve) => {
    execFile(options.tools.helm, args, { env, signal, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({
        code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1,
        output: `${stderr}${stdout}`,
      });
    });
  });
}

/** The crash and the end of the container's last run's log, as the demo's error. */
async function crashText(kubelet: ProcessKubelet, crash: CrashLoop): Promise<string> {
  const log = await kubelet
    .containerLog({ namespace: CHART_NAMESPACE, pod: crash.pod, container: crash.container, previous: true })
    .catch(() => '');
  const tail = log.trimEnd().split('\n').slice(-20).join('\n');
  return `the chart's pod ${crash.pod} cannot start: its container ${crash.container} keeps exiting (${crash.exit}; restarted ${String(crash.restarts)} times), so helm's --wait would not finish. The end of its last run's log:\n${tail}`;
}

/** Polls the release namespace's pods while helm waits; aborts `helm` when a container crash-loops and returns what happened. */
async function watchForCrashes(
  core: CoreV1Api,
  kubelet: ProcessKubelet,
  helm: AbortController,
): Promise<string | undefined> {
  // A call, not the property: the awaits below may see helm end (and the signal abort) meanwhile.
  const helmEnded = (): boolean => helm.signal.aborted;
  while (!helmEnded()) {
    await sleep(CRASH_POLL_MS, undefined, { signal: helm.signal }).catch(() => undefined);
    const pods = await core.listNamespacedPod({ namespace: CHART_NAMESPACE }).catch(() => undefined);
    const crash = crashLoopOf(pods?.items ?? []);
    if (crash !== undefined && !helmEnded()) {
      helm.abort();
      return crashText(kubelet, crash);
    }
  }
  return undefined;
}

/** helm, given up on when the demo is interrupted or an app's container crash-loops (`crash`). */
async function runHelmWatchingPods(
  options: InstallChartOptions,
  kubelet: ProcessKubelet,
  args: readonly string[],
): Promise<HelmRun & { readonly crash: string | undefined }> {
  const helm = new AbortController();
  const interrupted = (): void => {
    helm.abort();
  };
  options.signal.addEventListener('abort', interrupted, { once: true });
  try {
    const crashes = watchForCrashes(options.kubeConfig.makeApiClient(CoreV1Api), kubelet, helm);
    const result = await runHelm(options, args, helm.signal);
    helm.abort();
    return { ...result, crash: await crashes };
  } finally {
    options.signal.removeEventListener('abort', interrupted);
  }
}

/** `kruise-ts-cloneset 1/1, ...`: the release's Deployments and their available replicas. */
async function deploymentsText(kubeConfig: KubeConfig): Promise<string> {
  const deployments = (
    await kubeConfig.makeApiClient(AppsV1Api).listNamespacedDeployment({
      namespace: CHART_NAMESPACE,
      labelSelector: `app.kubernetes.io/instance=${CHART_RELEASE}`,
    })
  ).items;
  return deployments
    .map(
      (d) => `${d.metadata?.name ?? ''} ${String(d.status?.availableReplicas ?? 0)}/${String(d.spec?.replicas ?? 1)}`,
    )
    .join(', ');
}

async function helmInstall(options: InstallChartOptions, kubelet: ProcessKubelet): Promise<void> {
  const { out, directory } = options;
  const valuesFile = path.join(directory, 'chart-values.yaml');
  await writeFile(valuesFile, `${JSON.stringify(chartValues(kubelet.placement), null, 2)}\n`);
  const args = helmInstallArgs(valuesFile);
  out.write(`helm ${args.map((arg) => (arg === CHART_DIRECTORY ? 'charts/kruise-ts' : arg)).join(' ')}\n`);
  out.write(
    `   (featureGates ${ALL_APPS_GATES}, the pods on node ${kubelet.nodeName}; --wait: until every app's pods are Ready)\n`,
  );
  const started = performance.now();
  const result = await runHelmWatchingPods(options, kubelet, args);
  options.signal.throwIfAborted();
  if (result.crash !== undefined) {
    throw new Error(
      `${result.crash}\n(helm stopped; the kubelet's log and every container's logs are under ${directory})`,
    );
  }
  if (result.code !== 0) {
    throw new Error(
      `helm failed (exit ${String(result.code)}); the apps' logs are under ${path.join(directory, 'process-kubelet', 'logs')}:\n${result.output}`,
    );
  }
  out.write(
    `Installed in ${((performance.now() - started) / 1000).toFixed(1)}s: ${await deploymentsText(options.kubeConfig)}\n`,
  );
}

/**
 * Starts the process kubelet (its log in `<directory>/process-kubelet.log`) and installs the chart
 * with `helm upgrade --install --wait`. Stops the kubelet when the install fails.
 */
export async function installChart(options: InstallChartOptions): Promise<InstalledChart> {
  const { out, directory } = options;
  out.write(
    "\n== Installing the chart with helm; the process kubelet runs its pods as processes of this repository's build\n",
  );
  const kubeletDirectory = path.join(directory, 'process-kubelet');
  if (options.freshCluster) {
    await rm(kubeletDirectory, { recursive: true, force: true });
  }
  await mkdir(directory, { recursive: true });
  const kubeletLog = createWriteStream(path.join(directory, 'process-kubelet.log'), { flags: 'w' });
  const kubelet = await startProcessKubelet({
    kubeconfigPath: options.kubeconfigPath,
    directory: kubeletDirectory,
    images: [options.tools.image],
    log: (line) => kubeletLog.write(`${new Date().toISOString()} ${line}\n`),
  });
  const logDirectory = path.join(kubeletDirectory, 'logs');
  out.write(
    `Process kubelet: node ${kubelet.nodeName}, pods at ${kubelet.address}; its log ${path.join(directory, 'process-kubelet.log')}, the apps' logs under ${logDirectory}\n`,
  );
  const stop = async (): Promise<void> => {
    await kubelet.stop();
    kubeletLog.end();
  };
  try {
    await helmInstall(options, kubelet);
  } catch (error) {
    await stop();
    throw error;
  }
  return { logDirectory, stop };
}
