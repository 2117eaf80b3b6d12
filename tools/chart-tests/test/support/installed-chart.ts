/**
 * The chart as a user installs it: a control plane of its own (the chart's CRDs, with conversion
 * through the chart's Services, would replace the test run's for every other test file), the process
 * kubelet of @kruise-ts/local-cluster running the chart's pods as processes of this repository's
 * build, and helm. The tests talk to the cluster only as a user would: helm, and API calls a kubectl
 * command would make. The chart's pods land on the kubelet's node through the chart's own
 * `nodeSelector` and `tolerations` values; nothing else is set for them.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { AppsV1Api, CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import type { V1Pod } from '@kubernetes/client-node';

import { repositoryImage, startLocalCluster, startProcessKubelet } from '@kruise-ts/local-cluster';
import type { LocalCluster, ProcessKubelet } from '@kruise-ts/local-cluster';
import { waitFor } from '@kruise-ts/local-cluster/testing';

import { CHART_DIRECTORY } from '../../src/index.ts';
import { runHelm, valuesFile } from './helm.ts';
import type { HelmResult } from './helm.ts';
import { describePods } from './pod-diagnostics.ts';

/** Every app of the chart on. */
export const ALL_APPS_GATES = 'CloneSet=true,AdvancedStatefulSet=true,SidecarSet=true,BroadcastJob=true';
export const CHART_APP_LABEL = 'app.kubernetes.io/name=kruise-ts';

export interface ChartCluster {
  readonly kubeconfigPath: string;
  readonly kubeConfig: KubeConfig;
  readonly kubelet: ProcessKubelet;
  readonly runDir: string;
  /** helm against this cluster. */
  helm(args: readonly string[]): Promise<HelmResult>;
  /** Restarts kube-apiserver: its watch caches start cold, and custom resources stored in another version need the conversion webhook to be listed again. */
  restartApiServer(): Promise<void>;
  /** The chart's values that place its pods on the process kubelet's node, with every app on, merged with `values`. */
  values(values?: Readonly<Record<string, unknown>>): Record<string, unknown>;
  stop(): Promise<void>;
}

export async function startChartCluster(
  name: string,
  options: { readonly nodes?: number } = {},
): Promise<ChartCluster> {
  const runDir = await mkdtemp(path.join(os.tmpdir(), `kruise-ts-chart-${name}-`));
  let cluster: LocalCluster | undefined;
  try {
    cluster = await startLocalCluster({
      name: `chart-${name}`,
      runDir,
      nodes: options.nodes ?? 2,
      handleSignals: false,
      log: () => undefined,
    });
    // KRUISE_TS_CHART_E2E_DEBUG=1: the kubelet's log on stderr (what it ran, restarted, deleted).
    const debug = process.env['KRUISE_TS_CHART_E2E_DEBUG'] === '1';
    const kubelet = await startProcessKubelet({
      kubeconfigPath: cluster.kubeconfigPath,
      directory: path.join(runDir, 'process-kubelet'),
      images: [repositoryImage({ workingDir: path.join(runDir, 'image') })],
      log: (line) => {
        if (debug) {
          process.stderr.write(`[process-kubelet ${new Date().toISOString()}] ${line}\n`);
        }
      },
    });
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(cluster.kubeconfigPath);
    const started = cluster;
    return {
      kubeconfigPath: cluster.kubeconfigPath,
      kubeConfig,
      kubelet,
      runDir,
      helm: (args) => runHelm(args, { kubeconfig: started.kubeconfigPath }),
      restartApiServer: () => started.restartComponent('kube-apiserver'),
      values: (values = {}) => ({ featureGates: ALL_APPS_GATES, ...kubelet.placement, ...values }),
      stop: async () => {
        await kubelet.stop();
        await started.stop();
        if (debug) {
          process.stderr.write(`[chart-e2e] kept ${runDir} (pods' logs under process-kubelet/logs)\n`);
        } else {
          await rm(runDir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    await cluster?.stop();
    throw error;
  }
}

/** `helm install <release> charts/kruise-ts -n <namespace> --create-namespace --wait` with `values` and more helm `args`. */
export async function helmInstall(
  cluster: ChartCluster,
  input: {
    readonly release: string;
    readonly namespace: string;
    readonly values: Readonly<Record<string, unknown>>;
    readonly args?: readonly string[];
    readonly timeout?: string;
  },
): Promise<HelmResult> {
  const result = await cluster.helm([
    'install',
    input.release,
    CHART_DIRECTORY,
    '--namespace',
    input.namespace,
    '--create-namespace',
    '-f',
    await valuesFile(input.values),
    '--wait',
    '--timeout',
    input.timeout ?? '4m',
    ...(input.args ?? []),
  ]);
  return withPodsOnFailure(cluster, input.namespace, result);
}

/** A failed `--wait` says only which Deployment was not available; the pods' states and logs say why. */
async function withPodsOnFailure(cluster: ChartCluster, namespace: string, result: HelmResult): Promise<HelmResult> {
  if (result.code === 0) {
    return result;
  }
  return { ...result, stderr: `${result.stderr}\n${await describePods(cluster, namespace)}` };
}

/** `helm upgrade <release> charts/kruise-ts --wait` with `values`. */
export async function helmUpgrade(
  cluster: ChartCluster,
  input: {
    readonly release: string;
    readonly namespace: string;
    readonly values: Readonly<Record<string, unknown>>;
    readonly timeout?: string;
  },
): Promise<HelmResult> {
  const result = await cluster.helm([
    'upgrade',
    input.release,
    CHART_DIRECTORY,
    '--namespace',
    input.namespace,
    '-f',
    await valuesFile(input.values),
    '--wait',
    '--timeout',
    input.timeout ?? '4m',
  ]);
  return withPodsOnFailure(cluster, input.namespace, result);
}

/** Throws helm's output when it failed: what a test should show when an install does not finish. */
export function expectHelmSuccess(result: HelmResult, what: string): void {
  if (result.code !== 0) {
    throw new Error(`${what} failed (exit ${String(result.code)}):\n${result.stderr}\n${result.stdout}`);
  }
}

/** The chart's pods in `namespace`, by app name (`app.kubernetes.io/component`). */
export async function chartPods(cluster: ChartCluster, namespace: string): Promise<V1Pod[]> {
  const core = cluster.kubeConfig.makeApiClient(CoreV1Api);
  return (await core.listNamespacedPod({ namespace, labelSelector: CHART_APP_LABEL })).items;
}

/** Waits until every Deployment of the release namespace has all its replicas updated and available. */
export async function waitForChartDeployments(
  cluster: ChartCluster,
  namespace: string,
  timeoutMs = 180_000,
): Promise<void> {
  const apps = cluster.kubeConfig.makeApiClient(AppsV1Api);
  const waiting = waitFor(
    async () => {
      const deployments = (await apps.listNamespacedDeployment({ namespace })).items;
      return (
        deployments.length > 0 &&
        deployments.every((deployment) => {
          const wanted = deployment.spec?.replicas ?? 1;
          const status = deployment.status;
          return (
            status?.observedGeneration === deployment.metadata?.generation &&
            status?.updatedReplicas === wanted &&
            status.availableReplicas === wanted &&
            (status.replicas ?? 0) === wanted
          );
        })
      );
    },
    { timeoutMs, description: `every Deployment in ${namespace} available` },
  );
  await waiting.catch(async (error: unknown) => {
    throw new Error(
      `${error instanceof Error ? error.message : String(error)}\n${await describePods(cluster, namespace)}`,
    );
  });
}
