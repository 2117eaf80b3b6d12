/**
 * Runs the Advanced StatefulSet controller in the test process against the run's real control plane,
 * scoped to one test namespace, and small helpers to create sets and read their pods.
 */
import { fileURLToPath } from 'node:url';

import type { KubeConfig } from '@kubernetes/client-node';
import { parseFeatureGates } from '@kruise-ts/app-config';
import type { StatefulSet, StatefulSetInput } from '@kruise-ts/api';
import type { Client, RequestObserver } from '@kruise-ts/controller-runtime';
import { replicaCountsReached, startTestManager, waitForObject } from '@kruise-ts/controller-runtime/testing';
import type { TestManager } from '@kruise-ts/controller-runtime/testing';
import {
  applyCrdFiles,
  createTestNamespace,
  testKubeConfig,
  waitFor,
  withStartedInNamespace,
} from '@kruise-ts/local-cluster/testing';
import type { TestNamespace } from '@kruise-ts/local-cluster/testing';

import { setupStatefulSetController, statefulSetResource } from '../../src/index.ts';

const CRD_FILE = fileURLToPath(new URL('../../../../crds/apps.kruise.io_statefulsets.yaml', import.meta.url));

/** Installs the StatefulSet CRD (idempotent; test files share it). */
export async function installStatefulSetCrd(kubeConfig: KubeConfig): Promise<void> {
  await applyCrdFiles(kubeConfig, [CRD_FILE]);
}

/** A fresh namespace with the CRD installed, for tests that start and stop controllers themselves. */
export async function statefulSetNamespace(kubeConfig: KubeConfig, prefix: string): Promise<TestNamespace> {
  await installStatefulSetCrd(kubeConfig);
  return createTestNamespace(kubeConfig, prefix);
}

export interface StartOptions {
  readonly kubeConfig: KubeConfig;
  readonly namespace: string;
  readonly featureGates?: string;
  readonly requestObservers?: readonly RequestObserver[];
}

/** Starts a manager with the Advanced StatefulSet controller (3 workers, 60 s expectations, the app's default flags), caching only `namespace`. */
export function startController(options: StartOptions): TestManager {
  const controllerOptions = {
    featureGates: parseFeatureGates(options.featureGates ?? ''),
    workers: 3,
    expectationTimeoutMs: 60_000,
    stripPodManagedFields: true,
  };
  return startTestManager({ ...options, setup: (manager) => setupStatefulSetController(manager, controllerOptions) });
}

/** Runs `run` in a fresh namespace with the CRD installed and a controller (with the default options) scoped to it. */
export function withController<T>(prefix: string, run: (namespace: string) => Promise<T>): Promise<T> {
  const start = (namespace: string): TestManager => startController({ kubeConfig: testKubeConfig(), namespace });
  return withStartedInNamespace({ prefix, crdFiles: [CRD_FILE], start }, run);
}

/** A set as a test writes it: apiVersion and kind are filled in. */
export type StatefulSetManifest = Pick<StatefulSetInput, 'metadata' | 'spec'>;

/** The tests' plain set: `db`, `replicas` pods of one `main` container (nginx:1.25), label app=db, with `extra` spec fields. */
export function dbStatefulSet(replicas: number, extra: Partial<StatefulSetManifest['spec']> = {}): StatefulSetManifest {
  return {
    metadata: { name: 'db' },
    spec: {
      replicas,
      serviceName: 'db',
      selector: { matchLabels: { app: 'db' } },
      template: {
        metadata: { labels: { app: 'db' } },
        spec: {
          readinessGates: [{ conditionType: 'InPlaceUpdateReady' }],
          containers: [{ name: 'main', image: 'nginx:1.25' }],
        },
      },
      ...extra,
    },
  };
}

/** Creates a set in the namespace. */
export function createStatefulSet(client: Client, namespace: string, set: StatefulSetManifest): Promise<StatefulSet> {
  return client.create(statefulSetResource, {
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'StatefulSet',
    ...set,
    metadata: { ...set.metadata, namespace },
  } as StatefulSet);
}

/** Waits until the set satisfies `check`, and returns it. */
export function waitForSet(
  client: Client,
  options: { namespace: string; name: string; description: string; timeoutMs?: number },
  check: (set: StatefulSet) => boolean,
): Promise<StatefulSet> {
  return waitForObject({ client, resource: statefulSetResource, waitFor }, options, check);
}

/** Every replica is created, ready and at the update revision, and the status observed the spec. */
export function settled(set: StatefulSet): boolean {
  return (
    replicaCountsReached(set, ['replicas', 'readyReplicas', 'updatedReplicas']) &&
    set.status?.currentRevision === set.status?.updateRevision
  );
}
