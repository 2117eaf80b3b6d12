/**
 * The workloads the scenarios create: the same pod template for every kind (CloneSet and native
 * Deployment, Advanced StatefulSet and native StatefulSet), so that the contenders manage identical pods.
 */
import type { Workload, WorkloadKind } from '../measure/workloads.ts';

export const IMAGE_BEFORE = 'nginx:1.27-alpine';
export const IMAGE_AFTER = 'nginx:1.28-alpine';

export interface WorkloadSpec {
  readonly kind: WorkloadKind;
  readonly name: string;
  readonly namespace: string;
  readonly replicas: number;
  readonly image: string;
  /** ReCreate or InPlaceIfPossible (the Kruise kinds); the native kinds always replace pods. */
  readonly updateType: 'ReCreate' | 'InPlaceIfPossible';
  readonly maxUnavailable: string;
}

function container(image: string): object {
  return { name: 'main', image, resources: { requests: { cpu: '10m', memory: '16Mi' } } };
}

/**
 * The pod template. An Advanced StatefulSet updated in place needs the InPlaceUpdateReady readiness
 * gate in its template (OpenKruise refuses the spec without it; a CloneSet adds it to its pods itself).
 */
function podTemplate(name: string, image: string, inPlaceReadinessGate = false): object {
  const readinessGates = inPlaceReadinessGate ? { readinessGates: [{ conditionType: 'InPlaceUpdateReady' }] } : {};
  return { metadata: { labels: { app: name } }, spec: { containers: [container(image)], terminationGracePeriodSeconds: 0, ...readinessGates } };
}

/**
 * The StatefulSets: pods created and replaced in parallel (a rollout of ordered pods one at a time
 * would measure the pods' start time, not the controller), at most `maxUnavailable` at a time. The
 * native kind's `rollingUpdate.maxUnavailable` needs the MaxUnavailableStatefulSet feature gate
 * (alpha in Kubernetes 1.34), which the benchmark's control plane turns on.
 */
function statefulSetManifest(spec: WorkloadSpec): Workload {
  const metadata = { name: spec.name, namespace: spec.namespace };
  const common = { replicas: spec.replicas, selector: { matchLabels: { app: spec.name } }, serviceName: spec.name, podManagementPolicy: 'Parallel' };
  if (spec.kind === 'StatefulSet') {
    return {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata,
      spec: { ...common, template: podTemplate(spec.name, spec.image), updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: spec.maxUnavailable } } },
    };
  }
  return {
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'StatefulSet',
    metadata,
    spec: {
      ...common,
      template: podTemplate(spec.name, spec.image, spec.updateType !== 'ReCreate'),
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { podUpdatePolicy: spec.updateType, maxUnavailable: spec.maxUnavailable } },
    },
  };
}

/** The manifest of one workload; every kind replaces at most `maxUnavailable` pods at a time and never surges. */
export function workloadManifest(spec: WorkloadSpec): Workload {
  if (spec.kind === 'StatefulSet' || spec.kind === 'AdvancedStatefulSet') return statefulSetManifest(spec);
  const metadata = { name: spec.name, namespace: spec.namespace };
  const selector = { matchLabels: { app: spec.name } };
  if (spec.kind === 'Deployment') {
    return {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata,
      spec: {
        replicas: spec.replicas,
        selector,
        template: podTemplate(spec.name, spec.image),
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: spec.maxUnavailable, maxSurge: 0 } },
      },
    };
  }
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata,
    spec: {
      replicas: spec.replicas,
      selector,
      template: podTemplate(spec.name, spec.image),
      updateStrategy: { type: spec.updateType, maxUnavailable: spec.maxUnavailable, maxSurge: 0 },
    },
  };
}

/** The merge patch that changes the image of a workload's only container (a merge patch replaces the whole list). */
export function imagePatch(image: string): object {
  return { spec: { template: { spec: { containers: [container(image)] } } } };
}
