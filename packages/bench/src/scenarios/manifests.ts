/**
 * The workloads the scenarios create: the same pod template for CloneSets and native Deployments, so
 * that the contenders manage identical pods.
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
  /** ReCreate or InPlaceIfPossible (CloneSet); a Deployment always replaces pods. */
  readonly updateType: 'ReCreate' | 'InPlaceIfPossible';
  readonly maxUnavailable: string;
}

function container(image: string): object {
  return { name: 'main', image, resources: { requests: { cpu: '10m', memory: '16Mi' } } };
}

function podTemplate(name: string, image: string): object {
  return { metadata: { labels: { app: name } }, spec: { containers: [container(image)], terminationGracePeriodSeconds: 0 } };
}

/** The manifest of one workload; both kinds replace at most `maxUnavailable` pods at a time and never surge. */
export function workloadManifest(spec: WorkloadSpec): Workload {
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
