/**
 * What `kubectl get pods -o wide`, `kubectl describe` and `kubectl logs --tail` would show about the
 * chart's pods, as text to append to a failure: an install that does not finish on a loaded CI machine
 * must say why (which container waits, crashed, or was killed by a probe, and what it printed last),
 * since the run directory with the logs is gone by the time anyone reads the failure.
 */
import { CoreV1Api } from '@kubernetes/client-node';
import type { V1ContainerState, V1ContainerStatus, V1Pod } from '@kubernetes/client-node';

import type { ContainerLogReference } from '@kruise-ts/local-cluster';

import type { ChartCluster } from './installed-chart.ts';

const LOG_TAIL_LINES = 25;

function stateText(state: V1ContainerState | undefined): string {
  if (state?.running !== undefined) {
    return `running since ${state.running.startedAt?.toISOString() ?? '?'}`;
  }
  if (state?.waiting !== undefined) {
    return `waiting: ${state.waiting.reason ?? ''} ${state.waiting.message ?? ''}`.trim();
  }
  if (state?.terminated !== undefined) {
    const { reason, exitCode, message } = state.terminated;
    return `terminated: ${reason ?? ''} exit ${String(exitCode)} ${message ?? ''}`.trim();
  }
  return 'no state';
}

function containerText(status: V1ContainerStatus): string {
  return [
    `  container ${status.name}: ready ${String(status.ready)}, restarts ${String(status.restartCount)}`,
    `    state: ${stateText(status.state)}`,
    ...(status.lastState?.terminated === undefined ? [] : [`    last state: ${stateText(status.lastState)}`]),
  ].join('\n');
}

function podHeader(pod: V1Pod): string {
  const conditions = (pod.status?.conditions ?? []).map((condition) => `${condition.type}=${condition.status}`);
  const deleting = pod.metadata?.deletionTimestamp === undefined ? '' : ', terminating';
  return `pod ${pod.metadata?.name ?? '?'} on ${pod.spec?.nodeName ?? '(unbound)'}: ${pod.status?.phase ?? '?'}${deleting} [${conditions.join(' ')}]`;
}

async function logTail(cluster: ChartCluster, reference: ContainerLogReference): Promise<string> {
  const text = await cluster.kubelet.containerLog(reference).catch((error: unknown) => `(no log: ${String(error)})`);
  const lines = text.trimEnd().split('\n').slice(-LOG_TAIL_LINES);
  return lines.map((line) => `      ${line}`).join('\n');
}

async function podText(cluster: ChartCluster, pod: V1Pod): Promise<string> {
  const parts = [podHeader(pod)];
  const at = { namespace: pod.metadata?.namespace ?? '', pod: pod.metadata?.name ?? '' };
  for (const status of pod.status?.containerStatuses ?? []) {
    parts.push(containerText(status));
    if (status.restartCount > 0) {
      parts.push(`    log of the run before (last ${String(LOG_TAIL_LINES)} lines):`);
      parts.push(await logTail(cluster, { ...at, container: status.name, previous: true }));
    }
    parts.push(`    log (last ${String(LOG_TAIL_LINES)} lines):`);
    parts.push(await logTail(cluster, { ...at, container: status.name }));
  }
  return parts.join('\n');
}

/** Every pod of `namespace` with its containers' states and the ends of their logs; never throws. */
export async function describePods(cluster: ChartCluster, namespace: string): Promise<string> {
  try {
    const core = cluster.kubeConfig.makeApiClient(CoreV1Api);
    const pods = (await core.listNamespacedPod({ namespace })).items;
    const texts = await Promise.all(pods.map((pod) => podText(cluster, pod)));
    return `pods in ${namespace}:\n${texts.join('\n')}`;
  } catch (error) {
    return `pods in ${namespace}: could not be read (${String(error)})`;
  }
}
