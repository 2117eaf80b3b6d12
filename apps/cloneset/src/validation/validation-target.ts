/**
 * What a CloneSet would create, for a dry run: the pod the controller makes from the template (the
 * real pod factory: labels, readiness gates, claim volumes) and one claim per volumeClaimTemplate.
 * The parts that vary per pod are fixed placeholders of the real lengths (a 5-character instance id,
 * a 10-character revision hash), so that one template gives one cache key and the names and label
 * values are as long as the real ones. No owner reference: the CloneSet may not exist yet (a create
 * under admission has no uid), and ours are valid by construction.
 */
import { CloneSetUpdateStrategyType } from '@kruise-ts/api';
import type { CloneSet, OwnerReference, PersistentVolumeClaim, Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { newClaimsForInstance } from '@kruise-ts/pvc-instance';
import { claimTemplateMapping, podTemplateMapping } from '@kruise-ts/template-validation';
import type { ValidationTarget } from '@kruise-ts/template-validation';

import { newPod } from '../sync/pod-factory.ts';

/** The options of the controller that change what a pod looks like. */
export interface PodShapeOptions {
  /** Gate CloneSetShortHash. */
  readonly shortHash: boolean;
  /** `--cloneset-recreate-without-readiness-gates`. */
  readonly reCreateWithoutReadinessGates: boolean;
}

const PLACEHOLDER_INSTANCE_ID = 'xxxxx';
const PLACEHOLDER_HASH = 'xxxxxxxxxx';
const PLACEHOLDER_TIME = new Date(0);

function withoutOwners<T extends Pod | PersistentVolumeClaim>(object: T): T {
  const metadata = { ...object.metadata };
  delete metadata.ownerReferences;
  return { ...object, metadata };
}

/** The pod and claims a CloneSet creates, with their field mappings. */
export function cloneSetValidationTarget(cs: DeepReadonly<CloneSet>, options: PodShapeOptions): ValidationTarget {
  const name = cs.metadata.name ?? '';
  const namespace = cs.metadata.namespace ?? '';
  const controllerRef: OwnerReference = {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    name,
    uid: 'validation',
    controller: true,
  };
  const pod = withoutOwners(
    newPod({
      cs,
      controllerRef,
      template: cs.spec.template,
      revisionName: `${name}-${PLACEHOLDER_HASH}`,
      instanceId: PLACEHOLDER_INSTANCE_ID,
      shortHash: options.shortHash,
      reCreateWithoutReadinessGates: options.reCreateWithoutReadinessGates,
      now: PLACEHOLDER_TIME,
    }),
  );
  const templates = cs.spec.volumeClaimTemplates ?? [];
  const claims = newClaimsForInstance({
    owner: { name, namespace, controllerRef },
    volumeClaimTemplates: templates,
    instanceId: PLACEHOLDER_INSTANCE_ID,
    selectorLabels: cs.spec.selector.matchLabels,
  });
  const claimNames = templates.map((template) => template.metadata?.name ?? '');
  return {
    pod,
    podMapping: podTemplateMapping(pod, claimNames, {
      template: 'spec.template',
      claimTemplates: 'spec.volumeClaimTemplates',
      name: 'metadata.name',
    }),
    claims: claims.map((claim, index) => ({
      claim: withoutOwners(claim),
      mapping: claimTemplateMapping('spec.volumeClaimTemplates', index),
    })),
  };
}

/** Whether the CloneSet updates pods in place only (OpenKruise's InPlaceOnly update rule applies). */
export function isInPlaceOnly(cs: DeepReadonly<CloneSet>): boolean {
  return cs.spec.updateStrategy.type === CloneSetUpdateStrategyType.InPlaceOnly;
}
