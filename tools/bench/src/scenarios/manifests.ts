/**
 * The workloads the scenarios create: the same pod template for every kind (CloneSet and native
 * Deployment, Advanced StatefulSet and native StatefulSet, BroadcastJob and native DaemonSet), so that
 * the contenders manage identical pods.
 */
import { simulatedJobRunAnnotations } from '@kruise-ts/local-cluster';

import type { Workload, WorkloadKind } from '../measure/workloads.ts';

export const IMAGE_BEFORE = 'nginx:1.27-alpine';
export const IMAGE_AFTER = 'nginx:1.28-alpine';

export interface WorkloadSpec {
  /** The kinds with replicas (see perNodeManifest for the others). */
  readonly kind: Exclude<WorkloadKind, 'BroadcastJob' | 'DaemonSet'>;
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
  return {
    metadata: { labels: { app: name } },
    spec: { containers: [container(image)], terminationGracePeriodSeconds: 0, ...readinessGates },
  };
}

/**
 * The StatefulSets: pods created and replaced in parallel (a rollout of ordered pods one at a time
 * would measure the pods' start time, not the controller), at most `maxUnavailable` at a time. The
 * native kind's `rollingUpdate.maxUnavailable` needs the MaxUnavailableStatefulSet feature gate
 * (alpha in Kubernetes 1.34), which the benchmark's control plane turns on.
 */
function statefulSetManifest(spec: WorkloadSpec): Workload {
  const metadata = { name: spec.name, namespace: spec.namespace };
  const common = {
    replicas: spec.replicas,
    selector: { matchLabels: { app: spec.name } },
    serviceName: spec.name,
    podManagementPolicy: 'Parallel',
  };
  if (spec.kind === 'StatefulSet') {
    return {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata,
      spec: {
        ...common,
        template: podTemplate(spec.name, spec.image),
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: spec.maxUnavailable } },
      },
    };
  }
  return {
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'StatefulSet',
    metadata,
    spec: {
      ...common,
      template: podTemplate(spec.name, spec.image, spec.updateType !== 'ReCreate'),
      updateStrategy: {
        type: 'RollingUpdate',
        rollingUpdate: { podUpdatePolicy: spec.updateType, maxUnavailable: spec.maxUnavailable },
      },
    },
  };
}

/** The manifest of one workload; every kind replaces at most `maxUnavailable` pods at a time and never surges. */
export function workloadManifest(spec: WorkloadSpec): Workload {
  if (spec.kind === 'StatefulSet' || spec.kind === 'AdvancedStatefulSet') {
    return statefulSetManifest(spec);
  }
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

/** A workload that places one pod on every node it selects: our BroadcastJob, or the native DaemonSet. */
export interface PerNodeSpec {
  readonly kind: 'BroadcastJob' | 'DaemonSet';
  readonly name: string;
  readonly namespace: string;
  /** How long a job pod runs (`sim.kruise-ts.io/run-ms`); the DaemonSet's pods never end. */
  readonly runMs: number;
  /** Only nodes with these labels (the warm-up selects none). */
  readonly nodeSelector?: Readonly<Record<string, string>>;
}

/**
 * The BroadcastJob or DaemonSet: the same pod template as the other workloads, with the job's run
 * time on both (a pod with restartPolicy Always ignores it, so the two pod templates differ only
 * there), restartPolicy Never for the job (its CRD allows only Never or OnFailure) and Always for the
 * DaemonSet (the only one it allows). The job's parallelism is OpenKruise's default (every node at once).
 */
export function perNodeManifest(spec: PerNodeSpec): Workload {
  const metadata = { name: spec.name, namespace: spec.namespace };
  const podSpec = {
    containers: [container(IMAGE_BEFORE)],
    terminationGracePeriodSeconds: 0,
    restartPolicy: spec.kind === 'BroadcastJob' ? 'Never' : 'Always',
    ...(spec.nodeSelector === undefined ? {} : { nodeSelector: spec.nodeSelector }),
  };
  const template = {
    metadata: { labels: { app: spec.name }, annotations: simulatedJobRunAnnotations({ runMs: spec.runMs }) },
    spec: podSpec,
  };
  if (spec.kind === 'DaemonSet') {
    return {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata,
      spec: { selector: { matchLabels: { app: spec.name } }, template },
    };
  }
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'BroadcastJob',
    metadata,
    spec: { template, completionPolicy: { type: 'Always' } },
  };
}
