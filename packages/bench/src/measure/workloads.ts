/**
 * The workload kinds a benchmark drives, reduced to what it reads and writes: CloneSets and Advanced
 * StatefulSets (served by the contender), native Deployments and StatefulSets (served by
 * kube-controller-manager, the baselines).
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

/** A workload as the benchmark sees it. */
export interface Workload extends KubeObject {
  readonly spec: { readonly replicas?: number; readonly [field: string]: unknown };
  readonly status?: WorkloadStatus;
}

/** `StatefulSet` is the native `apps/v1` kind; `AdvancedStatefulSet` is `apps.kruise.io/v1beta1` StatefulSet. */
export const WORKLOAD_KINDS = ['CloneSet', 'Deployment', 'AdvancedStatefulSet', 'StatefulSet'] as const;
export type WorkloadKind = (typeof WORKLOAD_KINDS)[number];

/** Which family of workloads a scenario drives: the contender serves the Kruise kind, the native baseline its Kubernetes sibling. */
export type WorkloadFamily = 'cloneset' | 'statefulset';

export const cloneSetResource = defineResource<Workload>({ group: 'apps.kruise.io', version: 'v1alpha1', plural: 'clonesets', kind: 'CloneSet', namespaced: true });
export const deploymentResource = defineResource<Workload>({ group: 'apps', version: 'v1', plural: 'deployments', kind: 'Deployment', namespaced: true });
export const advancedStatefulSetResource = defineResource<Workload>({ group: 'apps.kruise.io', version: 'v1beta1', plural: 'statefulsets', kind: 'StatefulSet', namespaced: true });
export const statefulSetResource = defineResource<Workload>({ group: 'apps', version: 'v1', plural: 'statefulsets', kind: 'StatefulSet', namespaced: true });

/** Pods, for the steady scenario's churn. */
export const podResource = defineResource<KubeObject>({ group: '', version: 'v1', plural: 'pods', kind: 'Pod', namespaced: true });

const RESOURCES: Readonly<Record<WorkloadKind, ResourceType<Workload>>> = {
  CloneSet: cloneSetResource,
  Deployment: deploymentResource,
  AdvancedStatefulSet: advancedStatefulSetResource,
  StatefulSet: statefulSetResource,
};

export function resourceOf(kind: WorkloadKind): ResourceType<Workload> {
  return RESOURCES[kind];
}

/** The kind a contender serves in a scenario of `family`: the native baseline drives the Kubernetes kind. */
export function workloadKindFor(family: WorkloadFamily, native: boolean): WorkloadKind {
  if (family === 'cloneset') return native ? 'Deployment' : 'CloneSet';
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
  const replicas = workload.spec.replicas ?? 1;
  const status = workload.status;
  if (status === undefined || status.observedGeneration !== workload.metadata?.generation) return false;
  const counts = [status.replicas, status.updatedReplicas, status.readyReplicas, status.availableReplicas];
  if (isKruise(workload)) counts.push(status.updatedReadyReplicas);
  const revisionsMatch = isDeployment(workload) || status.currentRevision === status.updateRevision;
  // Native statuses leave out zero counts (omitempty): absent is 0.
  return revisionsMatch && counts.every((value) => (value ?? 0) === replicas);
}

/** A status sample's counters of one workload. */
export function countersOf(workload: Workload): { replicas: number; updated: number; ready: number; available: number } {
  const status = workload.status;
  return {
    replicas: status?.replicas ?? 0,
    updated: status?.updatedReplicas ?? 0,
    ready: status?.readyReplicas ?? 0,
    available: status?.availableReplicas ?? 0,
  };
}
