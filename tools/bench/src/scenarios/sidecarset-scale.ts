/**
 * sidecarset-scale: one CloneSet scaled out from 0 to N pods twice, on the same control plane and the
 * same contender process, which serves the SidecarSet pod webhook and registers it with the API server
 * itself (the launcher's --webhook-local-configuration: url on 127.0.0.1, failurePolicy Ignore as in
 * production). First with no SidecarSet (the API server calls the webhook for every pod, which has
 * nothing to inject: what any cluster with the SidecarSet app pays), then, after scaling back to 0,
 * with a SidecarSet that selects the CloneSet's pods. A pod of the second phase without the sidecar
 * fails the run: fail-open must not mean "fast because it skipped".
 */
import { defineResource } from '@kruise-ts/controller-runtime';
import type { KubeObject } from '@kruise-ts/controller-runtime';

import { counterSum, parsePrometheusText } from '../collect/index.ts';
import { REFERENCE_WEBHOOK_NAME, startReferenceWebhook } from '../measure/reference-webhook.ts';
import type { ReferenceWebhook } from '../measure/reference-webhook.ts';
import { isSettled, podResource, resourceOf } from '../measure/workloads.ts';
import type { InjectionProbe, Scenario, ScenarioContext } from './scenario.ts';
import { IMAGE_BEFORE } from './manifests.ts';
import { createWorkloads, patchWorkload, scaleOut, WORKLOAD } from './workload-steps.ts';

/** The SidecarSet's container, what the benchmark looks for in the pods. */
export const BENCH_SIDECAR = 'bench-sidecar';
/** The configuration the contender writes for its pod webhook (deleted when it stops). */
export const BENCH_WEBHOOK_CONFIGURATION = 'kruise-ts-bench';

const INJECTION: InjectionProbe = {
  container: BENCH_SIDECAR,
  webhookPath: '/mutate-pod',
  webhookName: 'mpod.kruise-ts.io',
  referenceWebhookName: REFERENCE_WEBHOOK_NAME,
};
const SIDECARSET = 'bench';
const POLL_MS = 250;
const WEBHOOK_TIMEOUT_MS = 60_000;

interface SidecarSetObject extends KubeObject {
  readonly spec: object;
  readonly status?: { readonly observedGeneration?: number };
}

const sidecarSetResource = defineResource<SidecarSetObject>({
  group: 'apps.kruise.io',
  version: 'v1alpha1',
  plural: 'sidecarsets',
  kind: 'SidecarSet',
  namespaced: false,
});

async function pollUntil(description: string, timeoutMs: number, probe: () => Promise<boolean>): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await probe())) {
    if (performance.now() > deadline) {
      throw new Error(`sidecarset-scale: ${description} did not happen within ${String(timeoutMs / 1000)} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Admission requests the contender's pod webhook answered, from its /metrics. */
async function webhookRequests(metricsUrls: readonly string[]): Promise<number> {
  const texts = await Promise.all(
    metricsUrls.map(async (url) => (await fetch(url, { signal: AbortSignal.timeout(5_000) })).text()),
  );
  return texts.reduce(
    (sum, text) =>
      sum +
      (counterSum(parsePrometheusText(text), 'controller_runtime_webhook_requests_total', {
        webhook: INJECTION.webhookPath,
      }) ?? 0),
    0,
  );
}

/**
 * Creates and deletes probe pods (which no SidecarSet selects and no CloneSet owns) until the
 * contender's webhook counts a request: its configuration is written and in the API server's cache.
 */
async function waitForWebhook(context: ScenarioContext, reference: ReferenceWebhook): Promise<void> {
  if (context.metricsUrls.length === 0) {
    throw new Error(
      "sidecarset-scale reads the contender's /metrics to know that its webhook is called; this contender serves none",
    );
  }
  const probePod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { generateName: 'webhook-probe-', namespace: context.namespace, labels: { 'bench-probe': 'true' } },
    spec: { containers: [{ name: 'main', image: IMAGE_BEFORE }], terminationGracePeriodSeconds: 0 },
  };
  await pollUntil("the API server calling the contender's pod webhook", WEBHOOK_TIMEOUT_MS, async () => {
    const before = await webhookRequests(context.metricsUrls).catch(() => -1);
    const probe = await context.client.create(podResource, probePod);
    await context.client.delete(
      podResource,
      { namespace: context.namespace, name: probe.metadata?.name ?? '' },
      { gracePeriodSeconds: 0 },
    );
    return before >= 0 && (await webhookRequests(context.metricsUrls)) > before;
  });
  // The reference webhook's configuration went in first, so the probe pods have called it too.
  await reference.called;
}

/** The reference webhook of the contender being measured (each contender has a control plane of its own). */
let reference: ReferenceWebhook | undefined;

/** Back to 0 pods (every one gone, not only terminating), then a SidecarSet for the CloneSet's pods, known to the contender. */
async function addSidecarSet(context: ScenarioContext): Promise<void> {
  const { client, namespace } = context;
  await patchWorkload(context, { spec: { replicas: 0 } });
  await pollUntil('the scale-down to 0 pods', context.options.timeoutMs, async () => {
    const workload = await client.get(resourceOf(context.kind), { namespace, name: WORKLOAD });
    return (
      isSettled(workload) &&
      (await client.listAll(podResource, { namespace, labelSelector: `app=${WORKLOAD}` })).items.length === 0
    );
  });
  await client.create(sidecarSetResource, {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'SidecarSet',
    metadata: { name: SIDECARSET },
    spec: {
      namespace,
      selector: { matchLabels: { app: WORKLOAD } },
      containers: [
        {
          name: BENCH_SIDECAR,
          image: 'busybox:1.36',
          command: ['sleep', 'infinity'],
          resources: { requests: { cpu: '10m', memory: '16Mi' } },
        },
      ],
    },
  });
  // The controller's status write says the SidecarSet is in the contender's cache, which its webhook reads.
  await pollUntil('the SidecarSet observed by the contender', WEBHOOK_TIMEOUT_MS, async () => {
    const set = await client.get(sidecarSetResource, { name: SIDECARSET });
    return set.status?.observedGeneration === set.metadata?.generation;
  });
}

export const sidecarSetScaleScenario: Scenario = {
  name: 'sidecarset-scale',
  family: 'cloneset',
  workloadCount: () => 1,
  preparedPods: () => 0,
  async prepare(context) {
    await createWorkloads(context, { replicas: 0, updateType: 'ReCreate' });
    await reference?.stop();
    reference = await startReferenceWebhook(context.client, context.namespace);
    await waitForWebhook(context, reference);
  },
  change: scaleOut,
  phases: [
    { label: 'no SidecarSet', change: scaleOut, sidecarSet: false },
    { label: 'SidecarSet', prepare: addSidecarSet, change: scaleOut, sidecarSet: true },
  ],
  // The all-in-one process with SidecarSet on, registering its webhook on a port it picks; the
  // SidecarSet's revisions in the benchmark's namespace (the default, the controllers' kruise-system, does not exist here).
  contenderArgs: [
    '--feature-gates=SidecarSet=true',
    `--webhook-local-configuration=${BENCH_WEBHOOK_CONFIGURATION}`,
    '--webhook-port=0',
    '--sidecarset-revision-namespace=bench',
  ],
  injection: INJECTION,
};

/** The phase's pods of the workload with the sidecar, and without it. */
export async function countSidecars(
  context: Pick<ScenarioContext, 'client' | 'namespace'>,
  container: string,
): Promise<{ withSidecar: number; withoutSidecar: number }> {
  const pods = (
    await context.client.listAll(podResource, { namespace: context.namespace, labelSelector: `app=${WORKLOAD}` })
  ).items as (KubeObject & { spec?: { containers?: readonly { name: string }[] } })[];
  const withSidecar = pods.filter((pod) =>
    (pod.spec?.containers ?? []).some((candidate) => candidate.name === container),
  ).length;
  return { withSidecar, withoutSidecar: pods.length - withSidecar };
}
