/**
 * Runs the CLI as a user runs it, a process of its own (the Node that runs the tests), and the
 * objects an integration test drives it against.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import type { Client, KubeObject } from '@kruise-ts/controller-runtime';
import { defineResource } from '@kruise-ts/controller-runtime';

const REPOSITORY_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
const run = promisify(execFile);

export const CRD_FILES = ['clonesets', 'statefulsets'].map((plural) =>
  fileURLToPath(new URL(`../../../../crds/apps.kruise.io_${plural}.yaml`, import.meta.url)),
);

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliOptions {
  /** The environment (default: the test's, without KUBECONFIG). */
  readonly env?: NodeJS.ProcessEnv;
  /** A module to run instead of the sources, e.g. the bundle. */
  readonly module?: string;
}

/** Runs `kruise-ts <args>` from its sources (or `options.module`); never throws for a non-zero exit. */
export async function kruiseTs(args: readonly string[], options: CliOptions = {}): Promise<CliRun> {
  const inherited = { ...process.env };
  delete inherited['KUBECONFIG'];
  const command = options.module === undefined ? ['--conditions=@kruise-ts/source', MAIN] : [options.module];
  try {
    const { stdout, stderr } = await run(process.execPath, [...command, ...args], {
      cwd: REPOSITORY_ROOT,
      env: options.env ?? inherited,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') {
      throw error;
    }
    return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

interface Manifest extends KubeObject {
  readonly spec: Record<string, unknown>;
}

export const cloneSets = defineResource<Manifest>({
  group: 'apps.kruise.io',
  version: 'v1alpha1',
  plural: 'clonesets',
  kind: 'CloneSet',
  namespaced: true,
});
export const advancedStatefulSets = defineResource<Manifest>({
  group: 'apps.kruise.io',
  version: 'v1beta1',
  plural: 'statefulsets',
  kind: 'StatefulSet',
  namespaced: true,
});
const pods = defineResource<KubeObject & { spec: object }>({
  group: '',
  version: 'v1',
  plural: 'pods',
  kind: 'Pod',
  namespaced: true,
});

const podTemplate = (app: string): Record<string, unknown> => ({
  metadata: { labels: { app } },
  spec: {
    containers: [
      { name: 'nginx', image: 'nginx:1.25' },
      { name: 'sidecar', image: 'busybox:1.36' },
    ],
  },
});

export function createCloneSet(client: Client, namespace: string, name: string): Promise<Manifest> {
  return client.create(cloneSets, {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name, namespace },
    spec: { replicas: 2, selector: { matchLabels: { app: name } }, template: podTemplate(name) },
  });
}

export function createAdvancedStatefulSet(client: Client, namespace: string, name: string): Promise<Manifest> {
  return client.create(advancedStatefulSets, {
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'StatefulSet',
    metadata: { name, namespace },
    spec: { replicas: 3, serviceName: name, selector: { matchLabels: { app: name } }, template: podTemplate(name) },
  });
}

/** A pod, controlled by `owner` when given: no controller runs here, so the test makes the pods a workload would own. */
export async function createPod(
  client: Client,
  pod: { readonly namespace: string; readonly name: string; readonly owner?: Manifest },
): Promise<void> {
  const { namespace, name } = pod;
  const { apiVersion = '', kind = '', metadata } = pod.owner ?? {};
  const ownerReferences =
    metadata === undefined
      ? []
      : [{ apiVersion, kind, name: metadata.name ?? '', uid: metadata.uid ?? '', controller: true }];
  await client.create(pods, {
    metadata: { name, namespace, ownerReferences },
    spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] },
  });
}
