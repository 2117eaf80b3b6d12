/**
 * Runs the SidecarSet controller in the test process against the run's real control plane, scoped to
 * one test namespace (it reconciles only SidecarSets whose spec.namespace is that namespace), and
 * helpers to create SidecarSets (cluster-scoped: deleted by the returned disposer) and pods.
 */
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';

import type { KubeConfig } from '@kubernetes/client-node';
import { sidecarSetSchema } from '@kruise-ts/api';
import type { Pod, SidecarSet, SidecarSetInput } from '@kruise-ts/api';
import type { Client } from '@kruise-ts/controller-runtime';
import { startTestManager, waitForObject } from '@kruise-ts/controller-runtime/testing';
import type { TestManager } from '@kruise-ts/controller-runtime/testing';
import { applyCrdFiles, testKubeConfig, waitFor, withStartedInNamespace } from '@kruise-ts/local-cluster/testing';
import { podResource } from '@kruise-ts/workload';

import { setupSidecarSetController, sidecarSetResource } from '../../src/index.ts';

const CRD_FILE = fileURLToPath(new URL('../../../../crds/apps.kruise.io_sidecarsets.yaml', import.meta.url));

/** Installs the SidecarSet CRD (idempotent). */
export async function installSidecarSetCrd(kubeConfig: KubeConfig): Promise<void> {
  await applyCrdFiles(kubeConfig, [CRD_FILE]);
}

/** Starts a manager with the SidecarSet controller for `namespace`. */
export function startController(
  kubeConfig: KubeConfig,
  namespace: string,
  options: { readonly podWebhook?: boolean } = {},
): TestManager {
  return startTestManager({
    kubeConfig,
    namespace,
    setup: (manager) =>
      setupSidecarSetController(manager, {
        workers: 2,
        excludedNamespaces: ['kube-system'],
        namespace,
        revisionNamespace: namespace,
        ...options,
      }),
  });
}

/** Runs `run` in a fresh namespace with the CRD installed and a controller scoped to it. */
export function withController<T>(
  prefix: string,
  run: (namespace: string) => Promise<T>,
  options: { readonly podWebhook?: boolean } = {},
): Promise<T> {
  return withStartedInNamespace(
    { prefix, crdFiles: [CRD_FILE], start: (namespace) => startController(testKubeConfig(), namespace, options) },
    run,
  );
}

/** A SidecarSet scoped to `namespace` for pods labelled app=web, with a unique name; dispose to delete it. */
export async function createSidecarSet(
  client: Client,
  namespace: string,
  spec: Partial<SidecarSetInput['spec']> = {},
): Promise<SidecarSet & AsyncDisposable> {
  const name = `sc-${randomBytes(3).toString('hex')}`;
  const body = {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'SidecarSet',
    metadata: { name },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      namespace,
      containers: [{ name: 'logger', image: 'busybox:1.36' }],
      ...spec,
    },
  };
  const created = sidecarSetSchema.parse(await client.create(sidecarSetResource, body as SidecarSet));
  return Object.assign(created, {
    [Symbol.asyncDispose]: () =>
      client.delete(sidecarSetResource, { name }).then(
        () => undefined,
        () => undefined,
      ),
  });
}

/** A pod labelled app=web with one container `app`. */
export function webPod(name: string, extra: Partial<Pod> = {}): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels: { app: 'web' } },
    spec: { containers: [{ name: 'app', image: 'nginx:1.27' }], terminationGracePeriodSeconds: 0 },
    ...extra,
  };
}

/** Creates a pod in the namespace. */
export function createPod(client: Client, namespace: string, pod: Pod): Promise<Pod> {
  return client.create(podResource, { ...pod, metadata: { ...pod.metadata, namespace } });
}

/** Waits until the SidecarSet satisfies `check`. */
export function waitForSidecarSet(
  client: Client,
  wanted: { readonly name: string; readonly description: string },
  check: (set: SidecarSet) => boolean,
): Promise<SidecarSet> {
  return waitForObject(
    { client, resource: sidecarSetResource, waitFor },
    { namespace: '', ...wanted, timeoutMs: 30_000 },
    check,
  );
}
