/**
 * Runs the CloneSet controller in the test process against the run's real control plane, scoped to one
 * test namespace (so that test files running in parallel never reconcile each other's CloneSets), and
 * small helpers to create CloneSets and read their pods.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

import { loadYaml } from '@kubernetes/client-node';
import type { KubeConfig } from '@kubernetes/client-node';
import { parseFeatureGates } from '@kruise-ts/app-config';
import type { CloneSet, CloneSetInput, PersistentVolumeClaim, Pod } from '@kruise-ts/api';
import type { Client, DeepReadonly, Manager, RequestObserver, RequestRecord } from '@kruise-ts/controller-runtime';
import {
  observeObjects,
  replicaCountsReached,
  startTestManager,
  waitForObject,
} from '@kruise-ts/controller-runtime/testing';
import { podSummary } from '@kruise-ts/workload/testing';
import type { ObjectObserver, TestManager, TestManagerOptions, WaitFor } from '@kruise-ts/controller-runtime/testing';
import {
  applyCrdFiles,
  kwokLogOf,
  testKubeConfig,
  waitFor,
  withStartedInNamespace,
} from '@kruise-ts/local-cluster/testing';
import { podResource, pvcResource } from '@kruise-ts/workload';

import { cloneSetResource, setupCloneSetController } from '../../src/index.ts';

export { RequestLog, testClient } from '@kruise-ts/controller-runtime/testing';
export type { SentRequest } from '@kruise-ts/controller-runtime/testing';

const CRD_FILE = fileURLToPath(new URL('../../../../crds/apps.kruise.io_clonesets.yaml', import.meta.url));
const SEED_EXAMPLES = new URL('../../../../packages/api/test/fixtures/seed-examples/', import.meta.url);

/** Installs the CloneSet CRD (idempotent; test files share it). */
export async function installCloneSetCrd(kubeConfig: KubeConfig): Promise<void> {
  await applyCrdFiles(kubeConfig, [CRD_FILE]);
}

/** A seed example (a CloneSet YAML from the user's documents), as the document shows it. */
export async function seedExample(name: string): Promise<CloneSetInput> {
  return loadYaml<CloneSetInput>(await readFile(new URL(name, SEED_EXAMPLES), 'utf8'));
}

export type ControllerHandle = TestManager;

export interface StartOptions {
  readonly kubeConfig: KubeConfig;
  readonly namespace: string;
  readonly featureGates?: string;
  readonly scalingExcludePreparingDelete?: boolean;
  /** `--cloneset-strip-pod-managed-fields` (default true, as the app's). */
  readonly stripPodManagedFields?: boolean;
  /** `--cloneset-recreate-without-readiness-gates` (default false, as the app's). */
  readonly reCreateWithoutReadinessGates?: boolean;
  /** Told about every API request the controller makes. */
  readonly requestObservers?: readonly RequestObserver[];
  /** The manager's graceful-shutdown budget (default 5 s). */
  readonly gracefulShutdownTimeoutMs?: number;
  /** The work queue's rate limiter (`--rate-limiter-*`; default: the flags' defaults). */
  readonly rateLimiter?: TestManagerOptions['rateLimiter'];
  /** More to register on the manager (a webhook handler). */
  readonly setup?: (manager: Manager) => void;
}

/** Starts a manager with the CloneSet controller, caching only `namespace`. */
export function startController(options: StartOptions): ControllerHandle {
  const setup = (manager: Manager): void => {
    setupCloneSetController(manager, {
      featureGates: parseFeatureGates(options.featureGates ?? ''),
      workers: 3,
      expectationTimeoutMs: 60_000,
      scalingExcludePreparingDelete: options.scalingExcludePreparingDelete ?? false,
      stripPodManagedFields: options.stripPodManagedFields ?? true,
      reCreateWithoutReadinessGates: options.reCreateWithoutReadinessGates ?? false,
    });
    options.setup?.(manager);
  };
  return startTestManager({ ...options, setup });
}

/**
 * Runs `run` in a fresh namespace with the CRD installed and a controller scoped to that namespace;
 * stops the controller and deletes the namespace afterwards.
 */
export function withController<T>(
  prefix: string,
  run: (namespace: string) => Promise<T>,
  options: Omit<StartOptions, 'kubeConfig' | 'namespace'> = {},
): Promise<T> {
  return withStartedInNamespace(
    {
      prefix,
      crdFiles: [CRD_FILE],
      start: (namespace) => startController({ kubeConfig: testKubeConfig(), namespace, ...options }),
    },
    run,
  );
}

/** A CloneSet as a test writes it: apiVersion and kind are filled in. */
export interface CloneSetManifest {
  readonly metadata: CloneSetInput['metadata'];
  readonly spec: CloneSetInput['spec'];
}

/**
 * The tests' plain CloneSet: `web`, `replicas` pods of one `main` container running nginx:1.25
 * (selector and pod label `app=web`), with `extra` spec fields (update strategy, history limit, ...).
 */
export function webCloneSet(replicas: number, extra: Partial<CloneSetManifest['spec']> = {}): CloneSetManifest {
  return {
    metadata: { name: 'web' },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] } },
      ...extra,
    },
  };
}

/** Creates a CloneSet in the namespace. */
export async function createCloneSet(client: Client, namespace: string, cloneSet: CloneSetManifest): Promise<CloneSet> {
  return client.create(cloneSetResource, {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    ...cloneSet,
    metadata: { ...cloneSet.metadata, namespace },
  } as CloneSet);
}

/** The CloneSet's active pods (not terminating), sorted by name. */
export async function activePods(client: Client, namespace: string, selector = ''): Promise<Pod[]> {
  const pods = await client.list(podResource, { namespace, labelSelector: selector });
  return pods.items
    .filter((pod) => pod.metadata?.deletionTimestamp === undefined)
    .sort((a, b) => (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''));
}

/** The namespace's PVCs (not terminating). */
export async function activeClaims(client: Client, namespace: string): Promise<PersistentVolumeClaim[]> {
  const pvcs = await client.list(pvcResource, { namespace });
  return pvcs.items.filter((pvc) => pvc.metadata?.deletionTimestamp === undefined);
}

/** Waits until the CloneSet satisfies `check`, and returns it; a timeout shows its status, its namespace's pods and what kwok did to them. */
export function waitForStatus(
  client: Client,
  options: { namespace: string; name: string; description: string; timeoutMs?: number },
  check: (cs: CloneSet) => boolean,
): Promise<CloneSet> {
  const state = async (): Promise<unknown> => ({
    status: (await client.get(cloneSetResource, { namespace: options.namespace, name: options.name })).status,
    pods: (await client.list(podResource, { namespace: options.namespace })).items.map(podSummary),
    kwok: await kwokLogOf(options.namespace),
  });
  const withState: WaitFor = (probe, waitOptions) => waitFor(probe, { ...waitOptions, state });
  return waitForObject({ client, resource: cloneSetResource, waitFor: withState }, options, check);
}

/** True when the rollout is over: settled, and the current revision is the update revision. */
export function rolledOut(cs: CloneSet): boolean {
  return settled(cs) && cs.status?.currentRevision === cs.status?.updateRevision;
}

/** True when every replica is up to date, ready and available and the status observed the spec. */
export function settled(cs: CloneSet): boolean {
  return replicaCountsReached(cs, ['replicas', 'readyReplicas', 'availableReplicas', 'updatedReplicas']);
}

/** Follows every pod event of a namespace through a watch (not polling), for invariants a rollout must keep. */
export type PodObserver = ObjectObserver;

/** Calls `onChange` with the namespace's pods matching `labelSelector` after every pod event, in the order the API server sent them. */
export function observePods(
  kubeConfig: KubeConfig,
  scope: { namespace: string; labelSelector: string },
  onChange: (pods: readonly DeepReadonly<Pod>[]) => void,
): PodObserver {
  return observeObjects(kubeConfig, { resource: podResource, ...scope }, onChange);
}

/** One write of the controller to a pod: `create`, `patch`, `patch status`, `patch resize`, `delete`... */
export interface PodWrite {
  readonly pod: string;
  readonly verb: string;
  readonly subresource: string;
}

const POD_PATH = /^\/api\/v1\/namespaces\/[^/]+\/pods(?:\/([^/]+)(?:\/([^/]+))?)?$/;

/** Records the controller's successful writes to pods (creations are attributed to `(new)`). */
export class PodWriteCounter implements RequestObserver {
  readonly writes: PodWrite[] = [];
  /** Requests to pods that did not succeed (`<verb> <code>`), e.g. `patch 409`. */
  readonly failed: string[] = [];

  observeRequest(record: RequestRecord): void {
    const match = POD_PATH.exec(record.path);
    if (match === null) {
      return;
    }
    if (!record.code.startsWith('2')) {
      this.failed.push(`${record.verb} ${record.code}`);
      return;
    }
    // Reads and dry runs (the template check) store nothing.
    if (record.method === 'GET' || record.dryRun === true) {
      return;
    }
    this.writes.push({ pod: match[1] ?? '(new)', verb: record.verb, subresource: match[2] ?? '' });
  }

  /** Writes per pod name. */
  perPod(): Map<string, PodWrite[]> {
    const byPod = new Map<string, PodWrite[]>();
    for (const write of this.writes) {
      byPod.set(write.pod, [...(byPod.get(write.pod) ?? []), write]);
    }
    return byPod;
  }
}
