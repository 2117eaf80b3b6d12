/**
 * What a SidecarSet is validated as: OpenKruise validates its containers, init containers and volumes
 * "as a fake Pod through upstream pod validation" (§B.5); here that pod is created with a server-side
 * dry run. It goes to the controllers' own namespace, where the app may create pods, because a
 * SidecarSet is cluster-scoped and the namespaces its sidecars end up in are not known at admission.
 */
import type { Pod, SidecarContainer, SidecarSet } from '@kruise-ts/api';
import type { DeepReadonly, StatusCause } from '@kruise-ts/controller-runtime';
import { prefixMapping } from '@kruise-ts/template-validation';
import type { ValidationTarget } from '@kruise-ts/template-validation';

type PodSpec = NonNullable<Pod['spec']>;
type PodContainer = PodSpec['containers'][number];

/** Where the validation pod is dry-run. */
export interface SidecarSetValidationOptions {
  /** The controllers' own namespace (the app's revisionNamespace); the dry run needs `create` on pods there. */
  readonly namespace: string;
}

/** The fixed name of the dry-run pod: one SidecarSet body gives one pod, so one cache key. */
export const VALIDATION_POD_NAME = 'sidecarset-validation';

/** The container added when the SidecarSet has init containers only (a pod needs a container). */
export const PLACEHOLDER_CONTAINER_NAME = 'kruise-ts-validation-placeholder';

// The same fields the injection drops (injection/build-sidecars.ts): a Pod has no such fields.
const SIDECAR_ONLY_FIELDS = new Set([
  'podInjectPolicy',
  'upgradeStrategy',
  'shareVolumePolicy',
  'shareVolumeDevicePolicy',
  'transferEnv',
  'resourcesPolicy',
]);

// A sidecar may mount (or use as a device) a volume of the pod it is injected into, which the SidecarSet
// does not declare; OpenKruise accepts that, so the dry run's "Not found" on such a name is no error.
const POD_VOLUME_REFERENCE = /^spec\.(init)?[cC]ontainers\[\d+\]\.(volumeMounts|volumeDevices)\[\d+\]\.name$/;

/** The placeholder's own paths; it is only ever at index 0 (it is added when there are no containers). */
const PLACEHOLDER_FIELD = /^spec\.containers\[0\](\.|\[|$)/;

/** One sidecar as a pod container: the SidecarSet-only fields dropped, the rest kept as written. */
export function podContainerOf(sidecar: DeepReadonly<SidecarContainer>): PodContainer {
  return Object.fromEntries(
    Object.entries(structuredClone(sidecar)).filter(([field]) => !SIDECAR_ONLY_FIELDS.has(field)),
  ) as PodContainer;
}

/** A placeholder name no init container has: the API server would report the clash at the user's init container. */
function placeholderName(initContainers: readonly PodContainer[]): string {
  const taken = new Set(initContainers.map((container) => container.name));
  let name = PLACEHOLDER_CONTAINER_NAME;
  for (let suffix = 1; taken.has(name); suffix += 1) {
    name = `${PLACEHOLDER_CONTAINER_NAME}-${String(suffix)}`;
  }
  return name;
}

/** The pod a SidecarSet is dry-run as, and whether a placeholder container was added to it. */
export function sidecarSetValidationPod(
  set: DeepReadonly<SidecarSet>,
  options: SidecarSetValidationOptions,
): { readonly pod: Pod; readonly placeholder: boolean } {
  const containers = (set.spec.containers ?? []).map(podContainerOf);
  const initContainers = (set.spec.initContainers ?? []).map(podContainerOf);
  const placeholder = containers.length === 0;
  // Appended after the user's containers (there are none), so that their indexes are the SidecarSet's.
  const podContainers = placeholder ? [{ name: placeholderName(initContainers), image: 'placeholder' }] : containers;
  const volumes = structuredClone(set.spec.volumes ?? []) as PodSpec['volumes'];
  const spec: PodSpec = {
    containers: podContainers,
    ...(initContainers.length === 0 ? {} : { initContainers }),
    ...(volumes === undefined || volumes.length === 0 ? {} : { volumes }),
  };
  return {
    pod: { apiVersion: 'v1', kind: 'Pod', metadata: { name: VALIDATION_POD_NAME, namespace: options.namespace }, spec },
    placeholder,
  };
}

/** Whether a dry-run cause is no error of the SidecarSet: a reference to the pod's own volumes, or the placeholder's. */
export function ignoredCause(cause: StatusCause, placeholder: boolean): boolean {
  const field = cause.field ?? '';
  if (cause.reason === 'FieldValueNotFound' && POD_VOLUME_REFERENCE.test(field)) {
    return true;
  }
  return placeholder && PLACEHOLDER_FIELD.test(field);
}

/** The pod's containers, init containers and volumes are the SidecarSet's, at the same paths; the rest is `spec`. */
export const sidecarSetFieldMapping = prefixMapping(
  [
    { from: 'spec.containers', to: 'spec.containers' },
    { from: 'spec.initContainers', to: 'spec.initContainers' },
    { from: 'spec.volumes', to: 'spec.volumes' },
  ],
  'spec',
);

/** The dry run of a SidecarSet: its pod, the mapping, and the causes that are not its errors. No claims. */
export function sidecarSetValidationTarget(
  set: DeepReadonly<SidecarSet>,
  options: SidecarSetValidationOptions,
): ValidationTarget {
  const { pod, placeholder } = sidecarSetValidationPod(set, options);
  return {
    pod,
    podMapping: sidecarSetFieldMapping,
    ignorePodCause: (cause) => ignoredCause(cause, placeholder),
    claims: [],
    warnOnRefusal: false,
  };
}
