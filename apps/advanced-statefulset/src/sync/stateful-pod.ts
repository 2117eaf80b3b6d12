/**
 * A pod of an Advanced StatefulSet: its stable identity (`<set>-<ordinal>`, hostname and subdomain,
 * the pod-name and pod-index labels) and storage (one claim volume per volumeClaimTemplate), as
 * upstream's `newVersionedStatefulSetPod`, `identityMatches` and `storageMatches` make and check them.
 */
import {
  CONTROLLER_REVISION_HASH_LABEL,
  KRUISE_POD_READY,
  LIFECYCLE_STATE_LABEL,
  LIFECYCLE_TIMESTAMP_ANNOTATION,
  LifecycleState,
  POD_INDEX_LABEL,
  STATEFULSET_POD_NAME_LABEL,
} from '@kruise-ts/api';
import type { Lifecycle, OwnerReference, PersistentVolumeClaim, Pod, PodTemplateSpec } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { isPodAllHooked } from '@kruise-ts/lifecycle';
import { attachClaimVolumes, claimName } from '@kruise-ts/pvc-instance';
import { metaTime } from '@kruise-ts/workload';

import { podName } from '../ordinals.ts';

type ReadonlyPod = DeepReadonly<Pod>;

/** The set's parts a pod is made from. */
export interface StatefulPodSource {
  readonly setName: string;
  readonly namespace: string;
  readonly serviceName: string;
  readonly controllerRef: OwnerReference;
  readonly volumeClaimTemplates: readonly DeepReadonly<PersistentVolumeClaim>[];
  readonly lifecycle: DeepReadonly<Lifecycle> | undefined;
  /** Gate PodIndexLabel (on by default): the `apps.kubernetes.io/pod-index` label. */
  readonly podIndexLabel: boolean;
}

/** The readiness gates every pod gets (OpenKruise's pod webhook adds KruisePodReady; we have no pod webhook). */
const KRUISE_GATES: readonly string[] = [KRUISE_POD_READY];

/**
 * The new pod of `ordinal` at a revision: the template's labels, annotations and finalizers; the
 * identity; the claim volumes; the revision label; the controller reference; the lifecycle state
 * (PreparingNormal while a preNormal hook is not yet all applied, else Normal); the readiness gate
 * KruisePodReady next to the template's own (InPlaceUpdateReady stays the user's choice, as in
 * OpenKruise, where the CRD requires it for the in-place policies).
 */
export function newStatefulPod(
  source: StatefulPodSource,
  input: {
    readonly ordinal: number;
    readonly template: DeepReadonly<PodTemplateSpec>;
    readonly revision: string;
    readonly now: number;
  },
): Pod {
  const name = podName(source.setName, input.ordinal);
  const { template } = input;
  const spec = attachClaimVolumes(structuredClone(template.spec) as NonNullable<Pod['spec']>, {
    volumeClaimTemplates: source.volumeClaimTemplates,
    ownerName: source.setName,
    id: String(input.ordinal),
  });
  const gates = [...(spec.readinessGates ?? [])];
  for (const gate of KRUISE_GATES.filter((type) => !gates.some((declared) => declared.conditionType === type))) {
    gates.push({ conditionType: gate });
  }
  const labels: Record<string, string> = {
    ...template.metadata?.labels,
    [CONTROLLER_REVISION_HASH_LABEL]: input.revision,
    [STATEFULSET_POD_NAME_LABEL]: name,
    ...(source.podIndexLabel ? { [POD_INDEX_LABEL]: String(input.ordinal) } : {}),
  };
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: source.namespace,
      labels,
      annotations: { ...template.metadata?.annotations, [LIFECYCLE_TIMESTAMP_ANNOTATION]: metaTime(input.now) },
      ...(template.metadata?.finalizers === undefined ? {} : { finalizers: [...template.metadata.finalizers] }),
      ownerReferences: [source.controllerRef],
    },
    spec: {
      ...spec,
      hostname: name,
      ...(source.serviceName === '' ? {} : { subdomain: source.serviceName }),
      readinessGates: gates,
    },
  };
  labels[LIFECYCLE_STATE_LABEL] = initialLifecycleState(source.lifecycle, pod);
  return pod;
}

/** PreparingNormal while a preNormal hook's labels and finalizers are not all on the pod yet, else Normal. */
function initialLifecycleState(lifecycle: DeepReadonly<Lifecycle> | undefined, pod: ReadonlyPod): LifecycleState {
  const preNormal = lifecycle?.preNormal;
  return preNormal === undefined || isPodAllHooked(preNormal, pod)
    ? LifecycleState.Normal
    : LifecycleState.PreparingNormal;
}

/** Upstream's `identityMatches`: name, namespace and the pod-name label are the ordinal's (index label too, when on). */
export function identityMatches(source: StatefulPodSource, pod: ReadonlyPod, ordinal: number): boolean {
  const name = podName(source.setName, ordinal);
  const labels = pod.metadata?.labels ?? {};
  return (
    pod.metadata?.name === name &&
    pod.metadata.namespace === source.namespace &&
    labels[STATEFULSET_POD_NAME_LABEL] === name &&
    (!source.podIndexLabel || labels[POD_INDEX_LABEL] === String(ordinal))
  );
}

/** Upstream's `storageMatches`: every template's volume points at the ordinal's claim. */
export function storageMatches(source: StatefulPodSource, pod: ReadonlyPod, ordinal: number): boolean {
  const volumes = pod.spec?.volumes ?? [];
  return source.volumeClaimTemplates.every((template) => {
    const volumeName = template.metadata?.name ?? '';
    const volume = volumes.find((candidate) => candidate.name === volumeName);
    return volume?.persistentVolumeClaim?.claimName === claimName(volumeName, source.setName, String(ordinal));
  });
}

/** The labels that fix a pod's identity: a merge patch body (volumes cannot change on a live pod). */
export function identityPatch(
  source: StatefulPodSource,
  ordinal: number,
): { metadata: { labels: Record<string, string> } } {
  const name = podName(source.setName, ordinal);
  return {
    metadata: {
      labels: {
        [STATEFULSET_POD_NAME_LABEL]: name,
        ...(source.podIndexLabel ? { [POD_INDEX_LABEL]: String(ordinal) } : {}),
      },
    },
  };
}
