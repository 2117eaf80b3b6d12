/**
 * The benchmark's scenarios. Each prepares its workloads (not measured), then makes one change whose
 * effect is measured until every workload is settled again.
 */
import type { Client } from '@kruise-ts/controller-runtime';

import type { StatusRecorder } from '../measure/status-recorder.ts';
import { podResource, resourceOf } from '../measure/workloads.ts';
import type { Workload, WorkloadFamily, WorkloadKind } from '../measure/workloads.ts';
import type { ScenarioName } from '../result.ts';
import { IMAGE_AFTER, IMAGE_BEFORE, imagePatch, workloadManifest } from './manifests.ts';

export interface ScenarioOptions {
  readonly pods: number;
  readonly maxUnavailable: string;
  /** steady: workloads and pods per workload (pods = workloads × podsPerWorkload). */
  readonly workloads: number;
  readonly podsPerWorkload: number;
  readonly churnPercent: number;
  readonly timeoutMs: number;
}

export interface ScenarioContext {
  readonly client: Client;
  readonly namespace: string;
  readonly kind: WorkloadKind;
  readonly options: ScenarioOptions;
  readonly recorder: StatusRecorder;
}

export interface Scenario {
  readonly name: ScenarioName;
  /** The workloads it drives: CloneSets (native baseline: Deployments) or Advanced StatefulSets (native: StatefulSets). */
  readonly family: WorkloadFamily;
  /** How long "settled" must hold before it counts (see StatusRecorder.waitUntilSettled); 0 when absent. */
  readonly settleHoldMs?: number;
  /** How many workloads exist during the measured change. */
  workloadCount(options: ScenarioOptions): number;
  /** Creates the starting state and waits until it is settled. */
  prepare(context: ScenarioContext): Promise<void>;
  /**
   * Makes the measured change; returns how many pods it creates, replaces or updates, and the
   * workloads (namespace/name) that must be seen unsettled before "settled" counts (a pod deletion
   * leaves the status settled until the controller notices it).
   */
  change(context: ScenarioContext): Promise<{ readonly pods: number; readonly touched: readonly string[] }>;
}

const WORKLOAD = 'bench';

interface Creation {
  readonly replicas: number;
  readonly updateType: 'ReCreate' | 'InPlaceIfPossible';
  readonly count?: number;
}

/**
 * The API server drops a native StatefulSet's `rollingUpdate.maxUnavailable` when its feature gate is
 * off; the baseline would then replace one pod at a time and its figures would mean nothing.
 */
function assertStoredMaxUnavailable(context: ScenarioContext, workload: Workload): void {
  if (context.kind !== 'StatefulSet') return;
  const strategy = workload.spec['updateStrategy'] as { rollingUpdate?: { maxUnavailable?: unknown } } | undefined;
  const stored = strategy?.rollingUpdate?.maxUnavailable;
  if (stored !== context.options.maxUnavailable) {
    throw new Error(`the API server stored the native StatefulSet with rollingUpdate.maxUnavailable ${JSON.stringify(stored)}, not ${context.options.maxUnavailable}: is the MaxUnavailableStatefulSet feature gate on?`);
  }
}

async function createWorkloads(context: ScenarioContext, { replicas, updateType, count = 1 }: Creation): Promise<void> {
  const names = count === 1 ? [WORKLOAD] : Array.from({ length: count }, (_unused, index) => `${WORKLOAD}-${String(index).padStart(3, '0')}`);
  const resource = resourceOf(context.kind);
  const created = await Promise.all(
    names.map((name) =>
      context.client.create(
        resource,
        workloadManifest({ kind: context.kind, name, namespace: context.namespace, replicas, image: IMAGE_BEFORE, updateType, maxUnavailable: context.options.maxUnavailable }),
      ),
    ),
  );
  for (const workload of created) assertStoredMaxUnavailable(context, workload);
  await context.recorder.waitUntilSettled(count, context.options.timeoutMs);
}

async function patchWorkload(context: ScenarioContext, body: object): Promise<void> {
  await context.client.patch(resourceOf(context.kind), { namespace: context.namespace, name: WORKLOAD }, { type: 'merge', body });
}

/** Scale one workload from 0 to N pods. */
export const scaleScenario: Scenario = {
  name: 'scale',
  family: 'cloneset',
  workloadCount: () => 1,
  prepare: (context) => createWorkloads(context, { replicas: 0, updateType: 'ReCreate' }),
  async change(context) {
    await patchWorkload(context, { spec: { replicas: context.options.pods } });
    return { pods: context.options.pods, touched: [`${context.namespace}/${WORKLOAD}`] };
  },
};

function rolloutScenario(name: 'inplace' | 'recreate' | 'asts-inplace' | 'asts-recreate', updateType: 'ReCreate' | 'InPlaceIfPossible'): Scenario {
  return {
    name,
    family: name.startsWith('asts-') ? 'statefulset' : 'cloneset',
    workloadCount: () => 1,
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
      victims.slice(start, start + concurrency).map((pod) => context.client.delete(podResource, { namespace: context.namespace, name: pod.metadata?.name ?? '' }, { gracePeriodSeconds: 0 })),
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
  prepare: (context) => createWorkloads(context, { replicas: context.options.podsPerWorkload, updateType: 'ReCreate', count: context.options.workloads }),
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
};
