/**
 * The two workload kinds a benchmark drives, reduced to what it reads and writes: CloneSets (served by
 * the contender) and native Deployments (served by kube-controller-manager, the baseline).
 */
import { defineResource } from '@kruise-ts/controller-runtime';
import type { KubeObject } from '@kruise-ts/controller-runtime';

/** The status fields both kinds share, plus CloneSet's own. */
export interface WorkloadStatus {
  readonly observedGeneration?: number;
  readonly replicas?: number;
  readonly updatedReplicas?: number;
  readonly readyReplicas?: number;
  readonly availableReplicas?: number;
  /** CloneSet only. */
  readonly updatedReadyReplicas?: number;
  readonly currentRevision?: string;
  readonly updateRevision?: string;
}

/** A CloneSet or Deployment as the benchmark sees it. */
export interface Workload extends KubeObject {
  readonly spec: { readonly replicas?: number; readonly [field: string]: unknown };
  readonly status?: WorkloadStatus;
}

export type WorkloadKind = 'CloneSet' | 'Deployment';

export const cloneSetResource = defineResource<Workload>({ group: 'apps.kruise.io', version: 'v1alpha1', plural: 'clonesets', kind: 'CloneSet', namespaced: true });
export const deploymentResource = defineResource<Workload>({ group: 'apps', version: 'v1', plural: 'deployments', kind: 'Deployment', namespaced: true });

/** Pods, for the steady scenario's churn. */
export const podResource = defineResource<KubeObject>({ group: '', version: 'v1', plural: 'pods', kind: 'Pod', namespaced: true });

export function resourceOf(kind: WorkloadKind): typeof cloneSetResource {
  return kind === 'CloneSet' ? cloneSetResource : deploymentResource;
}

/**
 * "Done": the controller saw the latest spec, every pod is of the update revision, ready and
 * available, no old or surplus pod is left, and (CloneSet) the current revision caught up.
 */
export function isSettled(workload: Workload): boolean {
  const replicas = workload.spec.replicas ?? 1;
  const status = workload.status;
  if (status === undefined || status.observedGeneration !== workload.metadata?.generation) return false;
  const counts = [status.replicas, status.updatedReplicas, status.readyReplicas, status.availableReplicas];
  if (workload.apiVersion !== 'apps/v1') counts.push(status.updatedReadyReplicas);
  const revisionsMatch = workload.apiVersion === 'apps/v1' || status.currentRevision === status.updateRevision;
  // A Deployment's status leaves out zero counts (omitempty): absent is 0.
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
