/**
 * The workload kinds a benchmark drives, reduced to what it reads and writes: CloneSets, Advanced
 * StatefulSets and BroadcastJobs (served by the contender), native Deployments, StatefulSets and
 * DaemonSets (served by kube-controller-manager, the baselines).
 */
import { defineResource } from '@kruise-ts/controller-runtime';
import type { KubeObject, ResourceType } from '@kruise-ts/controller-runtime';

/** The status fields the kinds share, plus the Kruise kinds' own. */
export interface WorkloadStatus {
  readonly observedGeneration?: number;
  readonly replicas?: number;
  readonly updatedReplicas?: number;
  readonly readyReplicas?: number;
  readonly availableReplicas?: number;
  /** CloneSet and Advanced StatefulSet only. */
  readonly updatedReadyReplicas?: number;
  /** Every kind but Deployment. */
  readonly currentRevision?: string;
  readonly updateRevision?: string;
}

/** A DaemonSet's status (apps/v1; zero counts are left out). */
export interface DaemonSetStatus {
  readonly observedGeneration?: number;
  readonly desiredNumberScheduled?: number;
  readonly currentNumberScheduled?: number;
  readonly updatedNumberScheduled?: number;
  readonly numberReady?: number;
  readonly numberAvailable?: number;
  readonly numberMisscheduled?: number;
}

/** A BroadcastJob's status (apps.kruise.io/v1alpha1). */
export interface BroadcastJobStatus {
  readonly desired?: number;
  readonly active?: number;
  readonly succeeded?: number;
  readonly failed?: number;
  readonly conditions?: readonly { readonly type: string; readonly status: string }[];
}

/** A workload as the benchmark sees it. */
export interface Workload extends KubeObject {
  readonly spec: { readonly replicas?: number; readonly [field: string]: unknown };
  readonly status?: WorkloadStatus & DaemonSetStatus & BroadcastJobStatus;
}

/** `StatefulSet` is the native `apps/v1` kind; `AdvancedStatefulSet` is `apps.kruise.io/v1beta1` StatefulSet. */
export const WORKLOAD_KINDS = [
  'CloneSet',
  'Deployment',
  'AdvancedStatefulSet',
  'StatefulSet',
  'BroadcastJob',
  'DaemonSet',
] as const;
export type WorkloadKind = (typeof WORKLOAD_KINDS)[number];

/**
 * Which family of workloads a scenario drives: the contender serves the Kruise kind, the native
 * baseline its Kubernetes sibling (a BroadcastJob's is the DaemonSet: one pod per node, but never ending).
 */
export type WorkloadFamily = 'cloneset' | 'statefulset' | 'broadcastjob';

export const cloneSetResource = defineResource<Workload>({
  group: 'apps.kruise.io',
  version: 'v1alpha1',
  plural: 'clonesets',
  kind: 'CloneSet',
  namespaced: true,
});
export const deploymentResource = defineResource<Workload>({
  group: 'apps',
  version: 'v1',
  plural: 'deployments',
  kind: 'Deployment',
  namespaced: true,
});
export const advancedStatefulSetResource = defineResource<Workload>({
  group: 'apps.kruise.io',
  version: 'v1beta1',
  plural: 'statefulsets',
  kind: 'StatefulSet',
  namespaced: true,
});
export const statefulSetResource = defineResource<Workload>({
  group: 'apps',
  version: 'v1',
  plural: 'statefulsets',
  kind: 'StatefulSet',
  namespaced: true,
});
export const broadcastJobResource = defineResource<Workload>({
  group: 'apps.kruise.io',
  version: 'v1alpha1',
  plural: 'broadcastjobs',
  kind: 'BroadcastJob',
  namespaced: true,
});
export const daemonSetResource = defineResource<Workload>({
  group: 'apps',
  version: 'v1',
  plural: 'daemonsets',
  kind: 'DaemonSet',
  namespaced: true,
});

/** Pods, for the steady scenario's churn. */
export const podResource = defineResource<KubeObject>({
  group: '',
  version: 'v1',
  plural: 'pods',
  kind: 'Pod',
  namespaced: true,
});

const RESOURCES: Readonly<Record<WorkloadKind, ResourceType<Workload>>> = {
  CloneSet: cloneSetResource,
  Deployment: deploymentResource,
  AdvancedStatefulSet: advancedStatefulSetResource,
  StatefulSet: statefulSetResource,
  BroadcastJob: broadcastJobResource,
  DaemonSet: daemonSetResource,
};

export function resourceOf(kind: WorkloadKind): ResourceType<Workload> {
  return RESOURCES[kind];
}

/** The kind a contender serves in a scenario of `family`: the native baseline drives the Kubernetes kind. */
export function workloadKindFor(family: WorkloadFamily, native: boolean): WorkloadKind {
  if (family === 'cloneset') {
    return native ? 'Deployment' : 'CloneSet';
  }
  if (family === 'broadcastjob') {
    return native ? 'DaemonSet' : 'BroadcastJob';
  }
  return native ? 'StatefulSet' : 'AdvancedStatefulSet';
}

const isKruise = (workload: Workload): boolean => workload.apiVersion?.startsWith('apps.kruise.io/') === true;
const isDeployment = (workload: Workload): boolean => workload.kind === 'Deployment';

/**
 * "Done": the controller saw the latest spec, every pod is of the update revision, ready and
 * available, no old or surplus pod is left, and (every kind with revisions in its status) the
 * current revision caught up.
 */
export function isSettled(workload: Workload): boolean {
  if (workload.kind === 'DaemonSet') {
    return isDaemonSetSettled(workload);
  }
  if (workload.kind === 'BroadcastJob') {
    return isBroadcastJobComplete(workload);
  }
  const replicas = workload.spec.replicas ?? 1;
  const status = workload.status;
  if (status === undefined || status.observedGeneration !== workload.metadata?.generation) {
    return false;
  }
  const counts = [status.replicas, status.updatedReplicas, status.readyReplicas, status.availableReplicas];
  if (isKruise(workload)) {
    counts.push(status.updatedReadyReplicas);
  }
  const revisionsMatch = isDeployment(workload) || status.currentRevision === status.updateRevision;
  // Native statuses leave out zero counts (omitempty): absent is 0.
  return revisionsMatch && counts.every((value) => (value ?? 0) === replicas);
}

/**
 * A DaemonSet is done when its controller saw the latest spec and counts a pod on every node it wants
 * one on, each of the current template, ready and available, and none on a node it does not want.
 * How many nodes that is, the status alone says (the scenario checks it against the pods).
 */
function isDaemonSetSettled(workload: Workload): boolean {
  const status = workload.status;
  if (status === undefined || status.observedGeneration !== workload.metadata?.generation) {
    return false;
  }
  const desired = status.desiredNumberScheduled ?? 0;
  const counts = [
    status.currentNumberScheduled,
    status.updatedNumberScheduled,
    status.numberReady,
    status.numberAvailable,
  ];
  return desired > 0 && (status.numberMisscheduled ?? 0) === 0 && counts.every((value) => (value ?? 0) === desired);
}

/** A BroadcastJob is done when its controller says it completed (a failed job never is). */
function isBroadcastJobComplete(workload: Workload): boolean {
  return (workload.status?.conditions ?? []).some(
    (condition) => condition.type === 'Complete' && condition.status === 'True',
  );
}

type Counters = { replicas: number; updated: number; ready: number; available: number };

/**
 * The counters of the one-pod-per-node kinds, in the rollout curve's terms: pods the controller
 * counts (DaemonSet: scheduled; BroadcastJob: desired), pods of the current template (a job's: every
 * pod it made), ready pods (a job's: active ones) and available pods (a job's: succeeded ones).
 */
function perNodeCounters(workload: Workload): Counters | undefined {
  const status = workload.status ?? {};
  if (workload.kind === 'DaemonSet') {
    return daemonSetCounters(status);
  }
  if (workload.kind !== 'BroadcastJob') {
    return undefined;
  }
  const { desired = 0, active = 0, succeeded = 0, failed = 0 } = status;
  return { replicas: desired, updated: active + succeeded + failed, ready: active, available: succeeded };
}

function daemonSetCounters(status: DaemonSetStatus): Counters {
  const { currentNumberScheduled = 0, updatedNumberScheduled = 0, numberReady = 0, numberAvailable = 0 } = status;
  return {
    replicas: currentNumberScheduled,
    updated: updatedNumberScheduled,
    ready: numberReady,
    available: numberAvailable,
  };
}

/** A status sample's counters of one workload. */
export function countersOf(workload: Workload): Counters {
  const perNode = perNodeCounters(workload);
  if (perNode !== undefined) {
    return perNode;
  }
  const status = workload.status;
  return {
    replicas: status?.replicas ?? 0,
    updated: status?.updatedReplicas ?? 0,
    ready: status?.readyReplicas ?? 0,
    available: status?.availableReplicas ?? 0,
  };
}
