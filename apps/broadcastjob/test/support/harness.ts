/**
 * Runs the BroadcastJob controller in the test process against the run's real control plane, scoped
 * to one test namespace, on fake nodes of the test's own (labelled, so the job's nodeSelector keeps
 * it off the nodes other tests use), and helpers to create jobs and read their pods.
 */
import { fileURLToPath } from 'node:url';

import type { KubeConfig, V1Node } from '@kubernetes/client-node';
import { broadcastJobSchema } from '@kruise-ts/api';
import type { BroadcastJob, BroadcastJobInput, Pod } from '@kruise-ts/api';
import type { Client, DeepReadonly, RequestObserver } from '@kruise-ts/controller-runtime';
import { startTestManager, waitForObject } from '@kruise-ts/controller-runtime/testing';
import type { TestManager, TestManagerOptions } from '@kruise-ts/controller-runtime/testing';
import {
  createFakeNodes,
  TEST_NODE_TOLERATION,
  testKubeConfig,
  waitFor,
  withStartedInNamespace,
} from '@kruise-ts/local-cluster/testing';
import type { FakeNodes } from '@kruise-ts/local-cluster/testing';
import { podResource } from '@kruise-ts/workload';

import { broadcastJobResource, setupBroadcastJobController } from '../../src/index.ts';

const CRD_FILE = fileURLToPath(new URL('../../../../crds/apps.kruise.io_broadcastjobs.yaml', import.meta.url));

/** The label of a test's nodes (its value: the namespace). */
export const TEST_NODE_LABEL = 'bcj.kruise-ts.io/test';

/** What a test may add to the controller's manager: observers of every request it sends, its work queue's rate limiter. */
export interface ControllerOptions {
  readonly requestObservers?: readonly RequestObserver[];
  readonly rateLimiter?: TestManagerOptions['rateLimiter'];
  /** `--broadcastjob-pod-update-batch-period` (default 0: every pod change reconciled at once). */
  readonly podUpdateBatchPeriodMs?: number;
}

/** Starts a manager with the BroadcastJob controller for `namespace`. */
export function startController(
  kubeConfig: KubeConfig,
  namespace: string,
  options: ControllerOptions = {},
): TestManager {
  return startTestManager({
    kubeConfig,
    namespace,
    requestObservers: options.requestObservers,
    rateLimiter: options.rateLimiter,
    setup: (manager) =>
      setupBroadcastJobController(manager, {
        workers: 2,
        assignPodsByScheduler: true,
        expectationTimeoutMs: 30_000,
        podUpdateBatchPeriodMs: options.podUpdateBatchPeriodMs,
      }),
  });
}

/** Runs `run` in a fresh namespace with the CRD installed and a controller scoped to it. */
export function withController<T>(
  prefix: string,
  run: (namespace: string) => Promise<T>,
  options: ControllerOptions = {},
): Promise<T> {
  return withStartedInNamespace(
    { prefix, crdFiles: [CRD_FILE], start: (namespace) => startController(testKubeConfig(), namespace, options) },
    run,
  );
}

/** A controller a test can restart (a new process would start from the API server's state, as this one does). */
export interface RestartableController {
  restart(): Promise<void>;
}

/** As {@link withController}, with a handle that stops the controller and starts a fresh one. */
export function withRestartableController<T>(
  prefix: string,
  run: (namespace: string, controller: RestartableController) => Promise<T>,
): Promise<T> {
  let current: TestManager | undefined;
  let namespaceName = '';
  const frame = {
    prefix,
    crdFiles: [CRD_FILE],
    start: (namespace: string) => {
      namespaceName = namespace;
      current = startController(testKubeConfig(), namespace);
      return { stop: async () => current?.stop() };
    },
  };
  const controller: RestartableController = {
    restart: async () => {
      await current?.stop();
      current = startController(testKubeConfig(), namespaceName);
    },
  };
  return withStartedInNamespace(frame, (namespace) => run(namespace, controller));
}

/** `count` fake nodes labelled for the namespace's jobs; `customize` cordons or taints some. */
export function testNodes(
  namespace: string,
  count: number,
  customize?: (node: V1Node, index: number) => V1Node,
): Promise<FakeNodes> {
  return createFakeNodes(testKubeConfig(), {
    prefix: 'bcj',
    count,
    labels: { [TEST_NODE_LABEL]: namespace },
    ...(customize === undefined ? {} : { customize }),
  });
}

/** A job of the namespace's nodes (their label selected, their taint tolerated): one container, restartPolicy Never, pod annotations for the simulated kubelet. */
export function jobBody(
  namespace: string,
  name: string,
  options: {
    readonly spec?: Partial<BroadcastJobInput['spec']>;
    readonly podAnnotations?: Record<string, string>;
    readonly restartPolicy?: 'Never' | 'OnFailure';
  } = {},
): BroadcastJob {
  const podSpec = {
    containers: [{ name: 'work', image: 'busybox:1.36' }],
    restartPolicy: options.restartPolicy ?? 'Never',
    nodeSelector: { [TEST_NODE_LABEL]: namespace },
    tolerations: [{ ...TEST_NODE_TOLERATION }],
    terminationGracePeriodSeconds: 0,
  };
  return broadcastJobSchema.parse({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'BroadcastJob',
    metadata: { name, namespace },
    spec: {
      template: { metadata: { labels: { app: name }, annotations: options.podAnnotations ?? {} }, spec: podSpec },
      ...options.spec,
    },
  });
}

/** Creates a job. */
export function createJob(client: Client, body: BroadcastJob): Promise<BroadcastJob> {
  return client.create(broadcastJobResource, body);
}

/** The job's pods (by its name label). */
export async function jobPods(client: Client, namespace: string, name: string): Promise<Pod[]> {
  return (await client.list(podResource, { namespace, labelSelector: `broadcastjob-name=${name}` })).items;
}

/** Waits until the job satisfies `check`. */
export function waitForJob(
  client: Client,
  wanted: {
    readonly namespace: string;
    readonly name: string;
    readonly description: string;
    readonly timeoutMs?: number;
  },
  check: (job: BroadcastJob) => boolean,
): Promise<BroadcastJob> {
  return waitForObject({ client, resource: broadcastJobResource, waitFor }, { timeoutMs: 60_000, ...wanted }, check);
}

/** The node a pod is pinned to (its required node affinity on metadata.name). */
export function pinnedNode(pod: DeepReadonly<Pod>): string | undefined {
  const terms =
    pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  return terms[0]?.matchFields?.find((field) => field.key === 'metadata.name')?.values?.[0];
}
