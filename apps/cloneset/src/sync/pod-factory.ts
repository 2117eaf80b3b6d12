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
  /** `--cloneset-recreate-without-readiness-gates` (see {@link podReadinessGates}). */
  readonly reCreateWithoutReadinessGates: boolean;
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
 * `InPlaceUpdateReady` (made False during an in-place update) and `KruisePodReady` (made False by
 * lifecycle hooks with markPodNotReady). OpenKruise's pod webhook injects the second; we have no pod
 * webhook, so the controller declares both and sets both conditions True in one status write after
 * the pod is created. By default every pod gets both, whatever the strategy, as in OpenKruise.
 *
 * With `--cloneset-recreate-without-readiness-gates` (off by default), a ReCreate CloneSet's pods get
 * neither unless a preDelete or inPlaceUpdate hook has markPodNotReady (then `KruisePodReady` only):
 * nothing would ever turn the gates False, and the pod becomes Ready with its create alone, as a
 * ReplicaSet's pod does (the status write was a quarter of a ReCreate rollout's writes). Such pods
 * stay safe after a switch to an in-place strategy: InPlaceIfPossible recreates a pod that has no
 * `InPlaceUpdateReady` gate rather than restart its containers while it is in Service endpoints
 * (pod-control's updatePodInPlace), as Advanced StatefulSet does in OpenKruise, where the gate is
 * the user's choice.
 */
export function podReadinessGates(
  cs: DeepReadonly<CloneSet>,
  options: { readonly reCreateWithoutReadinessGates: boolean },
): readonly string[] {
  if (!options.reCreateWithoutReadinessGates || cs.spec.updateStrategy.type !== CloneSetUpdateStrategyType.ReCreate) {
    return BOTH_GATES;
  }
  const lifecycle = cs.spec.lifecycle;
  const marksNotReady = [lifecycle?.preDelete, lifecycle?.inPlaceUpdate].some((hook) => hook?.markPodNotReady === true);
  return marksNotReady ? [KRUISE_POD_READY] : [];
}

const BOTH_GATES: readonly string[] = [IN_PLACE_UPDATE_READY, KRUISE_POD_READY];

/** The template's gates first, then ours that it lacks; the field is left out when there are none. */
function readinessGatesField(
  gates: DeepReadonly<NonNullable<PodTemplateSpec['spec']>['readinessGates']>,
  ours: readonly string[],
): { readinessGates?: { conditionType: string }[] } {
  const present = new Set((gates ?? []).map((gate) => gate.conditionType));
  const all = [
    ...(gates ?? []).map((gate) => ({ ...gate })),
    ...ours.filter((gate) => !present.has(gate)).map((conditionType) => ({ conditionType })),
  ];
  return all.length === 0 ? {} : { readinessGates: all };
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
    id: input.instanceId,
  });
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: podMetadata(input),
    spec: { ...withVolumes, ...readinessGatesField(template.spec?.readinessGates, podReadinessGates(cs, input)) },
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
    annotations: {
      ...template.metadata?.annotations,
      [LIFECYCLE_TIMESTAMP_ANNOTATION]: input.now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    },
    ...(finalizers === undefined ? {} : { finalizers: [...finalizers] }),
    ownerReferences: [input.controllerRef],
  };
}
