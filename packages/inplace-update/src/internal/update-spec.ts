/**
 * What an in-place update changes in a pod (OpenKruise's `UpdateSpec`, pkg/util/inplaceupdate), and the
 * decision between updating in place and recreating.
 */

/** Labels and annotations a container's env reads through `valueFrom.fieldRef` and that change. */
export interface ContainerRefMetadata {
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

/** New cpu/memory amounts of a container (`{limits: {cpu: '2'}}`), applied with a pods/resize. */
export interface ContainerResources {
  limits?: Record<string, string>;
  requests?: Record<string, string>;
}

/**
 * The template's label and annotation changes as a strategic-merge patch of the pod's metadata:
 * `null` deletes a key.
 */
export interface MetadataPatch {
  labels?: Record<string, string | null>;
  annotations?: Record<string, string | null>;
}

/** What to change in a pod to move it from one revision to the next without recreating it. */
export interface UpdateSpec {
  /** The name of the revision the pod moves to. */
  readonly revision: string;
  /** New image per container name. */
  readonly containerImages: Readonly<Record<string, string>>;
  /** Per container name: changed labels/annotations its env reads (so the container must restart). */
  readonly containerRefMetadata: Readonly<Record<string, ContainerRefMetadata>>;
  /** Per container name: new cpu/memory requests/limits (InPlaceWorkloadVerticalScaling). */
  readonly containerResources: Readonly<Record<string, ContainerResources>>;
  /** The other label/annotation changes of the template; undefined when there are none. */
  readonly metadataPatch: MetadataPatch | undefined;
  /** Some container's env comes from a changed label/annotation (InPlaceUpdateEnvFromMetadata). */
  readonly updateEnvFromMetadata: boolean;
  /** Seconds between taking the pod out of service and changing it (inPlaceUpdateStrategy.gracePeriodSeconds). */
  readonly graceSeconds: number;
}

/** Update in place with `spec`, or recreate the pod, saying why. */
export type InPlaceDecision =
  { readonly kind: 'in-place'; readonly spec: UpdateSpec } | { readonly kind: 'recreate'; readonly reason: string };

/** True when the spec changes only resources, which may not need the pod to leave service (`VerticalUpdateOnly`). */
export function isVerticalUpdateOnly(spec: UpdateSpec): boolean {
  return (
    Object.keys(spec.containerResources).length > 0 &&
    Object.keys(spec.containerImages).length === 0 &&
    !spec.updateEnvFromMetadata
  );
}
