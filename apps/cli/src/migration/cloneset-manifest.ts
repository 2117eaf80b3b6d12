/**
 * The CloneSet that takes over a Deployment's pods: the same selector and template, so that it runs
 * the same pods, and the Deployment's settings that mean the same on a CloneSet. It starts with no
 * pods; `migrate` scales it up step by step.
 */
import { copiedTemplate, encodeRecord, MIGRATION_ANNOTATION, recordOf } from './migration-record.ts';
import type { CloneSetManifest, CloneSetManifestSpec, Deployment } from './objects.ts';

export function cloneSetManifest(deployment: Deployment, name: string): CloneSetManifest {
  const { metadata, spec } = deployment;
  const labels = metadata.labels === undefined ? {} : { labels: { ...metadata.labels } };
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: {
      name,
      namespace: metadata.namespace ?? '',
      ...labels,
      annotations: { [MIGRATION_ANNOTATION]: encodeRecord(recordOf(deployment)) },
    },
    spec: {
      replicas: 0,
      selector: structuredClone(spec.selector),
      template: copiedTemplate(spec.template),
      ...optionalCounts(deployment),
      updateStrategy: updateStrategyOf(deployment),
    },
  };
}

function optionalCounts(
  deployment: Deployment,
): Pick<CloneSetManifestSpec, 'minReadySeconds' | 'revisionHistoryLimit' | 'progressDeadlineSeconds'> {
  const { minReadySeconds, revisionHistoryLimit, progressDeadlineSeconds } = deployment.spec;
  return {
    ...(minReadySeconds === undefined ? {} : { minReadySeconds }),
    ...(revisionHistoryLimit === undefined ? {} : { revisionHistoryLimit }),
    // The CloneSet's CRD requires a deadline above minReadySeconds, as the Deployment's validation does.
    ...(progressDeadlineSeconds === undefined ? {} : { progressDeadlineSeconds }),
  };
}

/**
 * A Deployment replaces pods (new ones, never in place), so the CloneSet recreates them too, within
 * the Deployment's own surge and unavailability budget. `Recreate` (every old pod gone before a new
 * one starts) has no CloneSet type: all pods may be unavailable at once and none surge, which is what
 * it does.
 */
export function updateStrategyOf(deployment: Deployment): CloneSetManifestSpec['updateStrategy'] {
  const strategy = deployment.spec.strategy;
  if (strategy?.type === 'Recreate') {
    return { type: 'ReCreate', maxSurge: 0, maxUnavailable: '100%' };
  }
  const { maxSurge, maxUnavailable } = strategy?.rollingUpdate ?? {};
  return {
    type: 'ReCreate',
    ...(maxSurge === undefined ? {} : { maxSurge }),
    ...(maxUnavailable === undefined ? {} : { maxUnavailable }),
  };
}
