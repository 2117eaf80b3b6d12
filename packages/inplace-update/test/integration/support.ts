/** Pods and clients for the integration tests against the real API server. */
import type { KubeConfig } from '@kubernetes/client-node';

import type { Pod, PodTemplateSpec } from '@kruise-ts/api';
import { createClient, resourceClient, Transport } from '@kruise-ts/controller-runtime';
import type { Client, DeepReadonly, ResourceClient } from '@kruise-ts/controller-runtime';
import { waitFor } from '@kruise-ts/local-cluster/testing';
import { podResource } from '@kruise-ts/workload';

const READS = new Set(['get', 'list', 'watch']);

/** A client whose transport counts the write requests sent to the API server (any answer, 409 included). */
export function countingClient(kubeConfig: KubeConfig): {
  readonly client: Client;
  readonly writes: () => number;
  readonly conflicts: () => number;
} {
  let writes = 0;
  let conflicts = 0;
  const transport = new Transport({
    kubeConfig,
    qps: 100,
    burst: 100,
    userAgent: 'inplace-update-test',
    observer: {
      observeRequest: (record) => {
        if (!READS.has(record.verb)) {
          writes++;
          conflicts += record.code === '409' ? 1 : 0;
        }
      },
    },
  });
  return { client: createClient(transport), writes: () => writes, conflicts: () => conflicts };
}

/** The pod calls of a client, as the package's functions take them. */
export function podClient(client: Client): ResourceClient<Pod> {
  return resourceClient(client, podResource);
}

/** Options of {@link createRunningPod}. */
export interface RunningPodOptions {
  readonly client: Client;
  readonly namespace: string;
  readonly name: string;
  readonly template: PodTemplateSpec;
  /** The revision label the pod starts with. */
  readonly revision: string;
  /** Give the pod the InPlaceUpdateReady readiness gate (default true). */
  readonly readinessGate?: boolean;
}

function condition(pod: DeepReadonly<Pod>, type: string): string | undefined {
  return pod.status?.conditions?.find((c) => c.type === type)?.status;
}

/** Whether the pod's Ready condition is True. */
export function isReady(pod: DeepReadonly<Pod>): boolean {
  return condition(pod, 'Ready') === 'True';
}

/** The status of the pod's InPlaceUpdateReady condition. */
export function inPlaceUpdateReady(pod: DeepReadonly<Pod>): string | undefined {
  return condition(pod, 'InPlaceUpdateReady');
}

/**
 * Creates a pod from the template, marks InPlaceUpdateReady True as a workload controller does for a
 * new pod, and waits until the fake kubelet runs it and it is Ready.
 */
export async function createRunningPod(options: RunningPodOptions): Promise<DeepReadonly<Pod>> {
  const { client, namespace, name } = options;
  const gate = options.readinessGate ?? true;
  await client.create(podResource, {
    metadata: {
      ...options.template.metadata,
      name,
      namespace,
      labels: { ...options.template.metadata?.labels, 'controller-revision-hash': options.revision },
    },
    spec: {
      ...options.template.spec,
      containers: options.template.spec?.containers ?? [],
      ...(gate ? { readinessGates: [{ conditionType: 'InPlaceUpdateReady' }] } : {}),
    },
  });
  if (gate) {
    await client.patchStatus(
      podResource,
      { namespace, name },
      { type: 'strategic', body: { status: { conditions: [{ type: 'InPlaceUpdateReady', status: 'True' }] } } },
    );
  }
  return waitFor(
    async () => {
      const pod = await client.get(podResource, { namespace, name });
      return pod.status?.phase === 'Running' && isReady(pod) ? pod : undefined;
    },
    { description: `pod ${namespace}/${name} to be Running and Ready` },
  );
}
