/**
 * bcj-nodes: when the pod of every node ran, and (a job's) ended. The workloads' statuses say it only
 * as their controllers count it, later and in each kind's own terms (a BroadcastJob's `active`, a
 * DaemonSet's `numberReady`); a watch of the pods themselves times both contenders alike.
 */
import { createLogger, defineResource, InformerFactory } from '@kruise-ts/controller-runtime';
import type { Client, DeepReadonly, KubeObject } from '@kruise-ts/controller-runtime';

import type { PerNodeStats } from '../result.ts';

interface WatchedPod extends KubeObject {
  readonly spec?: { readonly nodeName?: string };
  readonly status?: {
    readonly phase?: string;
    readonly conditions?: readonly { readonly type: string; readonly status: string }[];
  };
}

const watchedPodResource = defineResource<WatchedPod>({
  group: '',
  version: 'v1',
  plural: 'pods',
  kind: 'Pod',
  namespaced: true,
});

/** What the watch noted of one pod (times from performance.now()). */
interface PodTimes {
  node?: string;
  startedAt?: number;
  succeededAt?: number;
}

/** A pod ran once its containers run and it is ready, or once it ended (which it can only do after running). */
function hasStarted(pod: DeepReadonly<WatchedPod>): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') {
    return true;
  }
  return (
    phase === 'Running' &&
    (pod.status?.conditions ?? []).some((condition) => condition.type === 'Ready' && condition.status === 'True')
  );
}

/** What a pod event tells: its node once bound, and the first time it was seen running and succeeded. */
function noteTimes(times: PodTimes, pod: DeepReadonly<WatchedPod>, now: number): void {
  const node = pod.spec?.nodeName;
  if (node !== undefined) {
    times.node ??= node;
  }
  if (hasStarted(pod)) {
    times.startedAt ??= now;
  }
  if (pod.status?.phase === 'Succeeded') {
    times.succeededAt ??= now;
  }
}

export interface PerNodeEnd {
  /** The cluster's nodes: one pod wanted on each. */
  readonly nodes: number;
  /** Whether the pods end (a job's), so that their success is waited for. */
  readonly jobs: boolean;
  /** How long to wait for the watch to catch up with what the workload's status already said. */
  readonly catchUpMs: number;
}

/** A running watch. */
export interface PerNodePodWatch {
  /** Forgets every pod seen so far and makes `t = 0` now (call it with the status recorder's). */
  startWindow(): void;
  /** The window's figures, once the watch saw every node's pod run (and, for jobs, succeed) or `catchUpMs` passed. */
  end(input: PerNodeEnd): Promise<PerNodeStats>;
  stop(): void;
}

/** The latest of each node's earliest time; undefined unless `nodes` nodes have one. */
function lastNodeFirst(
  pods: Iterable<PodTimes>,
  nodes: number,
  time: (pod: PodTimes) => number | undefined,
): number | undefined {
  const earliest = new Map<string, number>();
  for (const pod of pods) {
    const at = time(pod);
    if (pod.node === undefined || at === undefined) {
      continue;
    }
    earliest.set(pod.node, Math.min(at, earliest.get(pod.node) ?? at));
  }
  return earliest.size >= nodes ? Math.max(...earliest.values()) : undefined;
}

/** The figures of the pods seen since `start`. */
export function perNodeStats(
  pods: readonly PodTimes[],
  input: { readonly nodes: number; readonly start: number },
): PerNodeStats {
  const seconds = (at: number | undefined): number | undefined =>
    at === undefined ? undefined : Number(((at - input.start) / 1000).toFixed(3));
  const perNode = new Map<string, number>();
  for (const pod of pods) {
    if (pod.node !== undefined) {
      perNode.set(pod.node, (perNode.get(pod.node) ?? 0) + 1);
    }
  }
  const allRunningSeconds = seconds(lastNodeFirst(pods, input.nodes, (pod) => pod.startedAt));
  const allSucceededSeconds = seconds(lastNodeFirst(pods, input.nodes, (pod) => pod.succeededAt));
  return {
    nodes: input.nodes,
    podsCreated: pods.length,
    podsStarted: pods.filter((pod) => pod.startedAt !== undefined).length,
    ...(allRunningSeconds === undefined ? {} : { allRunningSeconds }),
    podsSucceeded: pods.filter((pod) => pod.succeededAt !== undefined).length,
    ...(allSucceededSeconds === undefined ? {} : { allSucceededSeconds }),
    nodesWithSeveralPods: [...perNode.values()].filter((count) => count > 1).length,
  };
}

/** Why the window's pods fail the run: a node without a pod that ran (or, for jobs, succeeded), or a node with two; undefined when none. */
export function perNodeFailure(stats: PerNodeStats, jobs: boolean): string | undefined {
  if (stats.allRunningSeconds === undefined) {
    return `a pod ran on fewer than all ${String(stats.nodes)} nodes (${String(stats.podsStarted)} pods ran)`;
  }
  if (jobs && stats.allSucceededSeconds === undefined) {
    return `a pod succeeded on fewer than all ${String(stats.nodes)} nodes (${String(stats.podsSucceeded)} pods succeeded)`;
  }
  if (stats.nodesWithSeveralPods > 0) {
    return `${String(stats.nodesWithSeveralPods)} nodes got more than one pod`;
  }
  return undefined;
}

const POLL_MS = 100;

/** Watches the pods of `namespace`; resolves once the watch is synced. */
export async function startPerNodePodWatch(options: {
  readonly client: Client;
  readonly namespace: string;
}): Promise<PerNodePodWatch> {
  const stop = new AbortController();
  const factory = new InformerFactory({
    client: options.client,
    logger: createLogger({ level: 'silent' }),
    namespace: options.namespace,
  });
  const informer = factory.informerFor({ resource: watchedPodResource });
  let start = performance.now();
  let pods = new Map<string, PodTimes>();
  const note = (pod: DeepReadonly<WatchedPod>): void => {
    const uid = pod.metadata?.uid ?? '';
    const times = pods.get(uid) ?? {};
    pods.set(uid, times);
    noteTimes(times, pod, performance.now());
  };
  informer.addEventHandler({
    onAdd: note,
    onUpdate: (_old, pod) => {
      note(pod);
    },
  });
  factory.start(stop.signal);
  await informer.waitForSync(stop.signal);
  return {
    startWindow() {
      start = performance.now();
      pods = new Map();
    },
    async end({ nodes, jobs, catchUpMs }) {
      const deadline = performance.now() + catchUpMs;
      const caughtUp = (): boolean => {
        const stats = perNodeStats([...pods.values()], { nodes, start });
        return stats.allRunningSeconds !== undefined && (!jobs || stats.allSucceededSeconds !== undefined);
      };
      while (!caughtUp() && performance.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
      return perNodeStats([...pods.values()], { nodes, start });
    },
    stop() {
      stop.abort();
    },
  };
}
