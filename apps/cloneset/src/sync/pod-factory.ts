import {
  CLONESET_INSTANCE_ID_LABEL,
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
 * Readiness gates every pod gets: `InPlaceUpdateReady` (made False during an in-place update) and
 * `KruisePodReady` (made False by lifecycle hooks with markPodNotReady). OpenKruise's pod webhook
 * injects the second; we have no pod webhook, so the controller adds both and sets both conditions
 * True in one status write after the pod is created.
 *
 * Every pod gets both, whatever the update strategy, as in OpenKruise. Leaving them out of ReCreate
 * CloneSets' pods would save that write, but a pod's gates are fixed at its creation: after the
 * common switch from ReCreate (the default) to InPlaceIfPossible, such pods would be updated in place
 * without leaving Service endpoints first, and a grace period could not take them out.
 */
export const POD_READINESS_GATES: readonly string[] = [IN_PLACE_UPDATE_READY, KRUISE_POD_READY];

function withReadinessGates(gates: DeepReadonly<NonNullable<PodTemplateSpec['spec']>['readinessGates']>): { conditionType: string }[] {
  const present = new Set((gates ?? []).map((gate) => gate.conditionType));
  return [...(gates ?? []).map((gate) => ({ ...gate })), ...POD_READINESS_GATES.filter((gate) => !present.has(gate)).map((conditionType) => ({ conditionType }))];
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
    spec: { ...withVolumes, readinessGates: withReadinessGates(template.spec?.readinessGates) },
  };
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
