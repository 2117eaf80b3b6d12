/**
 * What an Advanced StatefulSet would create, for a dry run: the pod the controller makes (the real
 * factory: identity, labels, readiness gates, claim volumes) and its claims, for the highest ordinal
 * the set runs, where the pod's name, hostname and pod-name label are longest. The revision is a
 * placeholder of the longest real hash and the time is fixed, so that one spec gives one cache key.
 * The pod's and claims' own names end in `x`s instead of the ordinal's digits: the same length, but
 * not the name of a pod or claim the set already has (a dry run of an existing name is refused as
 * AlreadyExists, which says nothing about the template). No owner references: the set may not
 * exist yet (a create under admission has no uid), and ours are valid by construction.
 */
import type { FeatureGates } from '@kruise-ts/app-config';
import { APPS_KRUISE_IO_V1BETA1, PodUpdatePolicyType, STATEFULSET_KIND } from '@kruise-ts/api';
import type { PersistentVolumeClaim, Pod, StatefulSet } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { newClaims } from '@kruise-ts/pvc-instance';
import { revisionName } from '@kruise-ts/revision';
import { claimTemplateMapping, podTemplateMapping } from '@kruise-ts/template-validation';
import type { FieldMapping, ValidationTarget } from '@kruise-ts/template-validation';

import { parseReserveOrdinals } from '../ordinals.ts';
import { newStatefulPod } from '../sync/stateful-pod.ts';

/** The feature gates that change which pod the set makes. */
export interface PodShapeOptions {
  /** Gate StatefulSetStartOrdinal: `spec.ordinals.start` is honoured. */
  readonly startOrdinal: boolean;
  /** Gate PodIndexLabel: pods carry the pod-index label. */
  readonly podIndexLabel: boolean;
}

/** The pod shape the gates give, the same for the webhook and the controller's check. */
export function podShapeOf(gates: FeatureGates): PodShapeOptions {
  return { startOrdinal: gates.enabled('StatefulSetStartOrdinal'), podIndexLabel: gates.enabled('PodIndexLabel') };
}

/** A revision hash is a uint32 in decimal, safe-encoded: at most 10 characters. */
const PLACEHOLDER_HASH = 'xxxxxxxxxx';
const PLACEHOLDER_TIME = 0;
const CLAIM_TEMPLATES = 'spec.volumeClaimTemplates';

/** Fields the controller sets from the set's identity, not from the template: an error there is about the name or serviceName. */
const IDENTITY_FIELDS: ReadonlyMap<string, string> = new Map([
  ['spec.hostname', 'metadata.name'],
  ['spec.subdomain', 'spec.serviceName'],
]);

/** The object without owner references, and named with `x`s in place of the ordinal's digits at the end of its name. */
function forDryRun<T extends Pod | PersistentVolumeClaim>(object: T, ordinal: number): T {
  const metadata = { ...object.metadata };
  delete metadata.ownerReferences;
  const name = metadata.name ?? '';
  const digits = String(ordinal).length;
  metadata.name = `${name.slice(0, name.length - digits)}${'x'.repeat(digits)}`;
  return { ...object, metadata };
}

/** The highest ordinal the set runs (as if it had one pod when it has none): replicas from the start ordinal, reserved ones skipped. */
export function targetOrdinal(set: DeepReadonly<StatefulSet>, options: PodShapeOptions): number {
  const start = options.startOrdinal ? (set.spec.ordinals?.start ?? 0) : 0;
  return parseReserveOrdinals(set.spec.reserveOrdinals).reserved.nthFree(start, Math.max(1, set.spec.replicas));
}

function podMapping(pod: Pod, claimNames: readonly string[]): FieldMapping {
  const templateMapping = podTemplateMapping(pod, claimNames, {
    template: 'spec.template',
    claimTemplates: CLAIM_TEMPLATES,
    name: 'metadata.name',
  });
  return (field) => IDENTITY_FIELDS.get(field) ?? templateMapping(field);
}

/** The pod and claims the set creates at its highest ordinal, with their field mappings. */
export function statefulSetValidationTarget(
  set: DeepReadonly<StatefulSet>,
  options: PodShapeOptions,
): ValidationTarget {
  const name = set.metadata.name ?? '';
  const namespace = set.metadata.namespace ?? '';
  const templates = set.spec.volumeClaimTemplates ?? [];
  const ordinal = targetOrdinal(set, options);
  const source = {
    setName: name,
    namespace,
    serviceName: set.spec.serviceName ?? '',
    controllerRef: {
      apiVersion: APPS_KRUISE_IO_V1BETA1,
      kind: STATEFULSET_KIND,
      name,
      uid: 'validation',
      controller: true,
    },
    volumeClaimTemplates: templates,
    lifecycle: set.spec.lifecycle,
    podIndexLabel: options.podIndexLabel,
  };
  const pod = forDryRun(
    newStatefulPod(source, {
      ordinal,
      template: set.spec.template,
      revision: revisionName(name, PLACEHOLDER_HASH),
      now: PLACEHOLDER_TIME,
    }),
    ordinal,
  );
  const claims = newClaims({
    owner: { name, namespace },
    volumeClaimTemplates: templates,
    identity: { kind: 'ordinal', ordinal },
    selectorLabels: set.spec.selector.matchLabels,
    ownerReferences: [],
  });
  const claimNames = templates.map((template) => template.metadata?.name ?? '');
  return {
    pod,
    podMapping: podMapping(pod, claimNames),
    claims: claims.map((claim, index) => ({
      claim: forDryRun(claim, ordinal),
      mapping: claimTemplateMapping(CLAIM_TEMPLATES, index),
    })),
  };
}

/** Whether the set updates pods in place only (OpenKruise's InPlaceOnly update rule applies). */
export function isInPlaceOnly(set: DeepReadonly<StatefulSet>): boolean {
  return set.spec.updateStrategy.rollingUpdate?.podUpdatePolicy === PodUpdatePolicyType.InPlaceOnly;
}
