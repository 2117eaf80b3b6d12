/**
 * Runs the helm binary of the local control plane's tools (built from Go modules, see
 * @kruise-ts/local-cluster) against charts/kruise-ts, with its own config, cache and data directories
 * so that tests never read or write the user's helm setup.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { loadAll } from 'js-yaml';

import { toolBinary } from '@kruise-ts/local-cluster/testing';

import { CHART_DIRECTORY } from '../../src/index.ts';

/** The Kubernetes version `helm template` assumes: the local control plane's. */
export const TEMPLATE_KUBE_VERSION = 'v1.34.10';

const helmHome = mkdtempSync(path.join(os.tmpdir(), 'kruise-ts-chart-tests-helm-'));

/** What one helm command did. */
export interface HelmResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs helm with `args`; `kubeconfig` for commands that talk to a cluster. Never throws for a non-zero exit. */
export async function runHelm(
  args: readonly string[],
  options: { readonly kubeconfig?: string } = {},
): Promise<HelmResult> {
  const helm = await toolBinary('helm');
  const env = {
    ...process.env,
    HELM_CONFIG_HOME: path.join(helmHome, 'config'),
    HELM_CACHE_HOME: path.join(helmHome, 'cache'),
    HELM_DATA_HOME: path.join(helmHome, 'data'),
    KUBECONFIG: options.kubeconfig ?? path.join(helmHome, 'no-cluster'),
  };
  return new Promise((resolve) => {
    execFile(helm, args, { env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      resolve({ code, stdout, stderr });
    });
  });
}

/** Writes `values` to a values file (JSON is YAML) and returns its path, for `-f`. */
export async function valuesFile(values: object): Promise<string> {
  const file = path.join(mkdtempSync(path.join(helmHome, 'values-')), 'values.yaml');
  await writeFile(file, JSON.stringify(values));
  return file;
}

/** A rendered Kubernetes object (only the fields the tests read are typed). */
export interface Manifest {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: {
    readonly name: string;
    readonly namespace?: string;
    readonly labels?: Record<string, string>;
    readonly annotations?: Record<string, string>;
  };
  readonly [field: string]: unknown;
}

/** What `helm template` printed: the raw text and the parsed objects. */
export interface Rendered {
  readonly text: string;
  readonly manifests: readonly Manifest[];
}

export interface RenderOptions {
  readonly release?: string;
  readonly namespace?: string;
  readonly kubeVersion?: string;
}

/** `helm template` of the chart with `values`; the result, or the failure (exit code and stderr). */
export async function templateChart(values: object, options: RenderOptions = {}): Promise<HelmResult> {
  return runHelm([
    'template',
    options.release ?? 'kruise-ts',
    CHART_DIRECTORY,
    '--namespace',
    options.namespace ?? 'kruise-system',
    '--kube-version',
    options.kubeVersion ?? TEMPLATE_KUBE_VERSION,
    '-f',
    await valuesFile(values),
  ]);
}

/** Renders the chart and parses the objects; throws with helm's message when it fails. */
export async function renderChart(values: object = {}, options: RenderOptions = {}): Promise<Rendered> {
  const result = await templateChart(values, options);
  if (result.code !== 0) {
    throw new Error(`helm template failed (exit ${String(result.code)}): ${result.stderr}`);
  }
  const manifests = loadAll(result.stdout)
    .map((document) => document as Manifest | null)
    .filter((manifest): manifest is Manifest => manifest !== null);
  return { text: result.stdout, manifests };
}

/** Renders the chart expecting a failure; returns helm's error output. */
export async function renderChartFailure(values: object, options: RenderOptions = {}): Promise<string> {
  const result = await templateChart(values, options);
  if (result.code === 0) {
    throw new Error(`helm template succeeded with ${JSON.stringify(values)}, expected a failure`);
  }
  return result.stderr;
}

/** The objects of one kind, sorted by name. */
export function ofKind<T = Manifest>(manifests: readonly Manifest[], kind: string): T[] {
  return manifests
    .filter((manifest) => manifest.kind === kind)
    .sort((a, b) => a.metadata.name.localeCompare(b.metadata.name)) as T[];
}

/** `kind/name` of every object, sorted: what a render produced, at a glance. */
export function inventory(manifests: readonly Manifest[]): string[] {
  return manifests.map((manifest) => `${manifest.kind}/${manifest.metadata.name}`).sort();
}

/** The chart tests' helm flags for the CRDs: see installChart. */
export const CHART_TEST_CRD_ARGS: readonly string[] = ['--set', 'crds.install=false'];

/**
 * `helm install <release>` of the chart with `featureGates` (commas escaped for --set), waiting up
 * to 3 minutes for the Deployments, without the CRDs: the test run installs them once and points
 * their conversion webhooks at its own converter (tools/launcher/src/testing), which a chart's
 * CRD would replace for every test file at once; installs with CRDs run on a control plane of their
 * own (tools/launcher/test/integration/openkruise-crds.test.ts). `set`: more `--set` values.
 */
export function installChart(input: {
  readonly release: string;
  readonly namespace: string;
  readonly gates: string;
  readonly kubeconfig: string;
  readonly set?: readonly string[];
}): Promise<HelmResult> {
  const values = (input.set ?? []).flatMap((value) => ['--set', value]);
  return runHelm(
    [
      'install',
      input.release,
      CHART_DIRECTORY,
      '--namespace',
      input.namespace,
      '--set',
      `featureGates=${input.gates.replaceAll(',', '\\,')}`,
      ...values,
      '--wait',
      '--timeout',
      '3m',
      ...CHART_TEST_CRD_ARGS,
    ],
    { kubeconfig: input.kubeconfig },
  );
}
