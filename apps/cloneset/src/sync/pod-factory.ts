import {
  CLONESET_INSTANCE_ID_LABEL,
  CloneSetUpdateStrategyType,
  IN_PLACE_UPDATE_READY,
  KRUISE_POD_READY,
  LIFECYCLE_STATE_LABEL,
  LIFECYCLE_TIMESTAMP_ANNOTATION,
  LifecycleState,
} from '@kruise-ts/api';
import type { CloneSet, OwnerReference, Pod, PodTemplateSpec } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { attachClaimVolumes } from '@kruise-ts/pvc-instance';
import { revisionLabels } from '@kruise-ts/revision';

/** Everything a new pod is made from. */
export interface NewPodInput {
  readonly cs: DeepReadonly<CloneSet>;
  readonly controllerRef: OwnerReference;
  /** The pod template of the revision the pod is created at. */
  readonly template: DeepReadonly<PodTemplateSpec>;
  readonly revisionName: string;
  readonly instanceId: string;
  /** Gate CloneSetShortHash: `controller-revision-hash` carries only the hash. */
  readonly shortHash: boolean;
  readonly now: Date;
}

/**
 * The lifecycle state a pod is created in. OpenKruise always creates pods PreparingNormal and patches
 * them to Normal once scheduled, one more write per pod. Without a preNormal hook nothing can hold a
 * pod in PreparingNormal and an unscheduled pod is not available anyway, so we create it Normal and
 * save that write; with a preNormal hook it starts PreparingNormal as in OpenKruise.
 */
export function initialLifecycleState(cs: DeepReadonly<CloneSet>): string {
  return cs.spec.lifecycle?.preNormal === undefined ? LifecycleState.Normal : LifecycleState.PreparingNormal;
}

/**
 * The readiness gates a new pod gets, decided once (a pod's gates cannot change after creation):
 * - `InPlaceUpdateReady` (made False during an in-place update) unless the CloneSet recreates pods
 *   (updateStrategy ReCreate);
 * - `KruisePodReady` (made False by lifecycle hooks with markPodNotReady) with the first, or when a
 *   hook has markPodNotReady.
 * OpenKruise gives every pod both (its pod webhook injects the second), and each costs the pod a
 * status write before it can be Ready. A ReCreate CloneSet without markPodNotReady never turns either
 * False, so its pods get none and become Ready with the create alone, as a ReplicaSet's pods do. A
 * pod created without a gate is still updated in place if the strategy changes later, without the
 * readiness dip (as OpenKruise treats pods without the gate); a pod created with the gates keeps them.
 * The conditions of the gates given are set True in one status write right after the create.
 */
export function podReadinessGates(cs: DeepReadonly<CloneSet>): readonly string[] {
  const recreates = cs.spec.updateStrategy.type === CloneSetUpdateStrategyType.ReCreate;
  if (!recreates) {
    return BOTH_GATES;
  }
  const lifecycle = cs.spec.lifecycle;
  const marksNotReady = [lifecycle?.preDelete, lifecycle?.inPlaceUpdate].some((hook) => hook?.markPodNotReady === true);
  return marksNotReady ? [KRUISE_POD_READY] : [];
}

const BOTH_GATES: readonly string[] = [IN_PLACE_UPDATE_READY, KRUISE_POD_READY];

function withReadinessGates(gates: DeepReadonly<NonNullable<PodTemplateSpec['spec']>['readinessGates']>, ours: readonly string[]): { conditionType: string }[] {
  const present = new Set((gates ?? []).map((gate) => gate.conditionType));
  return [...(gates ?? []).map((gate) => ({ ...gate })), ...ours.filter((gate) => !present.has(gate)).map((conditionType) => ({ conditionType }))];
}

/**
 * A pod of the CloneSet at a revision (OpenKruise's `newVersionedPods`): template labels, annotations
 * and finalizers, name `<cloneset>-<instance id>`, the controller reference, revision and instance-id
 * labels, the lifecycle state, the readiness gates, and one PVC volume per volumeClaimTemplate.
 */
export function newPod(input: NewPodInput): Pod {
  const { cs, template } = input;
  const spec = structuredClone(template.spec) as NonNullable<Pod['spec']>;
  const withVolumes = attachClaimVolumes(spec, {
    volumeClaimTemplates: cs.spec.volumeClaimTemplates ?? [],
    ownerName: cs.metadata.name ?? '',
    instanceId: input.instanceId,
  });
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: podMetadata(input),
    spec: { ...withVolumes, ...readinessGatesField(template.spec?.readinessGates, podReadinessGates(cs)) },
  };
}

/** The pod's `readinessGates`, omitted when there are none (as in a pod written without any). */
function readinessGatesField(gates: DeepReadonly<NonNullable<PodTemplateSpec['spec']>['readinessGates']>, ours: readonly string[]): { readinessGates?: { conditionType: string }[] } {
  const all = withReadinessGates(gates, ours);
  return all.length === 0 ? {} : { readinessGates: all };
}

function podMetadata(input: NewPodInput): NonNullable<Pod['metadata']> {
  const { cs, template } = input;
  const csName = cs.metadata.name ?? '';
  const finalizers = template.metadata?.finalizers;
  return {
    name: `${csName}-${input.instanceId}`,
    generateName: `${csName}-`,
    namespace: cs.metadata.namespace ?? '',
    labels: {
      ...template.metadata?.labels,
      ...revisionLabels(input.revisionName, { shortHash: input.shortHash }),
      [CLONESET_INSTANCE_ID_LABEL]: input.instanceId,
      [LIFECYCLE_STATE_LABEL]: initialLifecycleState(cs),
    },
    annotations: { ...template.metadata?.annotations, [LIFECYCLE_TIMESTAMP_ANNOTATION]: input.now.toISOString().replace(/\.\d{3}Z$/, 'Z') },
    ...(finalizers === undefined ? {} : { finalizers: [...finalizers] }),
    ownerReferences: [input.controllerRef],
  };
}
