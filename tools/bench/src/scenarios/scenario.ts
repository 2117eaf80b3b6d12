/**
 * The benchmark's scenarios. Each prepares its workloads (not measured), then makes one change whose
 * effect is measured until every workload is settled again.
 */
import type { Client } from '@kruise-ts/controller-runtime';

import type { StatusRecorder } from '../measure/status-recorder.ts';
import { podResource } from '../measure/workloads.ts';
import type { WorkloadFamily, WorkloadKind } from '../measure/workloads.ts';
import type { ScenarioName } from '../result.ts';
import { bcjNodesScenario } from './bcj-nodes.ts';
import { IMAGE_AFTER, imagePatch } from './manifests.ts';
import { sidecarSetScaleScenario } from './sidecarset-scale.ts';
import { createWorkloads, patchWorkload, scaleOut, WORKLOAD } from './workload-steps.ts';

export interface ScenarioOptions {
  readonly pods: number;
  readonly maxUnavailable: string;
  /** steady: workloads and pods per workload (pods = workloads × podsPerWorkload). */
  readonly workloads: number;
  readonly podsPerWorkload: number;
  readonly churnPercent: number;
  readonly timeoutMs: number;
  /** bcj-nodes: how long each job pod runs (the simulated kubelet's `sim.kruise-ts.io/run-ms`). */
  readonly jobRunMs: number;
}

/** The scenario's options and the measurement's idle windows: steady's idle phase, and every scenario's idle window before the change. */
export type RunScenarioOptions = ScenarioOptions & { readonly idleSeconds: number; readonly idleWindowSeconds: number };

export interface ScenarioContext {
  readonly client: Client;
  readonly namespace: string;
  readonly kind: WorkloadKind;
  readonly options: ScenarioOptions;
  readonly recorder: StatusRecorder;
  /** The contender's /metrics endpoints (none for the native baseline). */
  readonly metricsUrls: readonly string[];
}

/** What a measured change did. */
export interface ChangeMade {
  /** Pods it creates, replaces or updates (the denominator of writes per pod). */
  readonly pods: number;
  /** Workloads (namespace/name) that must be seen unsettled before "settled" counts. */
  readonly touched: readonly string[];
}

/** One of several measured changes of a scenario on the same control plane (see `Scenario.phases`). */
export interface ScenarioPhase {
  /** Names the phase's result: `<contender> (<label>)`. */
  readonly label: string;
  /** Brings the workloads to the phase's start after the previous phase (not measured). */
  readonly prepare?: (context: ScenarioContext) => Promise<void>;
  readonly change: (context: ScenarioContext) => Promise<ChangeMade>;
  /** sidecarset-scale: whether a SidecarSet selects the workload's pods (then every new pod must carry its container). */
  readonly sidecarSet?: boolean;
}

/** A scenario whose pods go through the SidecarSet pod webhook: what to look for in them and in the metrics. */
export interface InjectionProbe {
  /** The SidecarSet's container. */
  readonly container: string;
  /** The webhook's path on the contender's server (the `webhook` label of its metrics). */
  readonly webhookPath: string;
  /** The webhook's name in its configuration (the `name` label of kube-apiserver's admission metrics). */
  readonly webhookName: string;
  /** A no-op webhook in a process of its own called for the same pods (measure/reference-webhook.ts): the floor of the API server's admission duration. */
  readonly referenceWebhookName?: string | undefined;
}

export interface Scenario {
  readonly name: ScenarioName;
  /** The workloads it drives: CloneSets (native baseline: Deployments) or Advanced StatefulSets (native: StatefulSets). */
  readonly family: WorkloadFamily;
  /** How long "settled" must hold before it counts (see StatusRecorder.waitUntilSettled); 0 when absent. */
  readonly settleHoldMs?: number;
  /** How many workloads exist during the measured change. */
  workloadCount(options: ScenarioOptions): number;
  /**
   * Pods the preparation leaves (and so the contender caches) before the change, for every phase: the
   * denominator of RSS per 1,000 pods after the preparation. 0: the scenario starts from no pods, and
   * that figure is read at the end of the change instead, per pod of the change.
   */
  preparedPods(options: ScenarioOptions): number;
  /** Creates the starting state and waits until it is settled. */
  prepare(context: ScenarioContext): Promise<void>;
  /**
   * Makes the measured change; returns how many pods it creates, replaces or updates, and the
   * workloads (namespace/name) that must be seen unsettled before "settled" counts (a pod deletion
   * leaves the status settled until the controller notices it).
   */
  change(context: ScenarioContext): Promise<ChangeMade>;
  /**
   * Measured one after the other instead of `change` (which is then the first phase's), on the same
   * control plane and contender process; each phase is a result of its own.
   */
  readonly phases?: readonly ScenarioPhase[];
  /** Flags our contenders get for this scenario on top of the usual ones. */
  readonly contenderArgs?: readonly string[];
  /** Pods admitted through the SidecarSet pod webhook: their injection is checked and its latency measured. */
  readonly injection?: InjectionProbe;
  /**
   * One pod wanted on every node of the cluster (`options.pods` is the node count): a watch of the
   * pods times when every node's pod ran (and a job's succeeded), and fails the run when a node got
   * none or two.
   */
  readonly perNode?: boolean;
}

/** Scale one workload from 0 to N pods. */
export const scaleScenario: Scenario = {
  name: 'scale',
  family: 'cloneset',
  workloadCount: () => 1,
  preparedPods: () => 0,
  prepare: (context) => createWorkloads(context, { replicas: 0, updateType: 'ReCreate' }),
  change: scaleOut,
};

function rolloutScenario(
  name: 'inplace' | 'recreate' | 'asts-inplace' | 'asts-recreate',
  updateType: 'ReCreate' | 'InPlaceIfPossible',
): Scenario {
  return {
    name,
    family: name.startsWith('asts-') ? 'statefulset' : 'cloneset',
    workloadCount: () => 1,
    preparedPods: (options) => options.pods,
    prepare: (context) => createWorkloads(context, { replicas: context.options.pods, updateType }),
    async change(context) {
      await patchWorkload(context, imagePatch(IMAGE_AFTER));
      return { pods: context.options.pods, touched: [`${context.namespace}/${WORKLOAD}`] };
    },
  };
}

/** Change the image of N pods in place, maxUnavailable 20% by default. */
export const inPlaceScenario = rolloutScenario('inplace', 'InPlaceIfPossible');
/** Replace N pods by new ones (ReCreate; a native Deployment's RollingUpdate with maxSurge 0). */
export const recreateScenario = rolloutScenario('recreate', 'ReCreate');
/** The same rollouts of one Advanced StatefulSet (Parallel); the native StatefulSet baseline replaces its pods in both. */
export const astsInPlaceScenario = rolloutScenario('asts-inplace', 'InPlaceIfPossible');
export const astsRecreateScenario = rolloutScenario('asts-recreate', 'ReCreate');

/** Deletes `count` pods of the namespace at random, a few at a time, as the admin (not the contender); returns their workloads. */
async function churnPods(context: ScenarioContext, count: number): Promise<string[]> {
  const pods = (await context.client.listAll(podResource, { namespace: context.namespace })).items;
  const victims = pods
    .map((pod) => ({ pod, order: Math.random() }))
    .sort((a, b) => a.order - b.order)
    .slice(0, count)
    .map(({ pod }) => pod);
  const concurrency = 20;
  for (let start = 0; start < victims.length; start += concurrency) {
    await Promise.all(
      victims
        .slice(start, start + concurrency)
        .map((pod) =>
          context.client.delete(
            podResource,
            { namespace: context.namespace, name: pod.metadata?.name ?? '' },
            { gracePeriodSeconds: 0 },
          ),
        ),
    );
  }
  return [...new Set(victims.map((pod) => `${context.namespace}/${pod.metadata?.labels?.['app'] ?? ''}`))];
}

/** Many workloads of a few pods each, then a share of their pods deleted: the steady state and its repair. */
export const steadyScenario: Scenario = {
  name: 'steady',
  family: 'cloneset',
  // Several pods of one workload are deleted at once: it can look settled between two replacements.
  settleHoldMs: 1000,
  workloadCount: (options) => options.workloads,
  preparedPods: (options) => options.workloads * options.podsPerWorkload,
  prepare: (context) =>
    createWorkloads(context, {
      replicas: context.options.podsPerWorkload,
      updateType: 'ReCreate',
      count: context.options.workloads,
    }),
  async change(context) {
    const total = context.options.workloads * context.options.podsPerWorkload;
    const count = Math.round((total * context.options.churnPercent) / 100);
    return { pods: count, touched: await churnPods(context, count) };
  },
};

export const SCENARIOS: Readonly<Record<ScenarioName, Scenario>> = {
  scale: scaleScenario,
  inplace: inPlaceScenario,
  recreate: recreateScenario,
  steady: steadyScenario,
  'asts-inplace': astsInPlaceScenario,
  'asts-recreate': astsRecreateScenario,
  'sidecarset-scale': sidecarSetScaleScenario,
  'bcj-nodes': bcjNodesScenario,
};
