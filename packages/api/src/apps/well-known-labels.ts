/**
 * Labels and annotations that CloneSet (and the other apps.kruise.io workloads) read or write on pods,
 * PVCs, ControllerRevisions and on the CloneSet itself. The lifecycle keys live in pub/lifecycle.ts.
 */

/** Pod and PVC label: the instance id shared by a pod and its PVCs; the pod is named `<cloneset>-<id>`. */
export const CLONESET_INSTANCE_ID_LABEL = 'apps.kruise.io/cloneset-instance-id';
/** Pod label: the revision the pod was created from (unprefixed, as Kubernetes defines it). */
export const CONTROLLER_REVISION_HASH_LABEL = 'controller-revision-hash';
/** Pod label: always the short revision hash (the text after the last `-` of the revision name). */
export const POD_TEMPLATE_HASH_LABEL = 'pod-template-hash';
/** Pod label: present (any value) means the pod must be deleted, protected by maxUnavailable and hooks. */
export const SPECIFIED_DELETE_LABEL = 'apps.kruise.io/specified-delete';
/** Pod annotation: JSON state of the in-place update in progress. */
export const IN_PLACE_UPDATE_STATE_ANNOTATION = 'apps.kruise.io/inplace-update-state';
/** Legacy key of {@link IN_PLACE_UPDATE_STATE_ANNOTATION}, still read and deleted when rewritten. */
export const IN_PLACE_UPDATE_STATE_ANNOTATION_LEGACY = 'inplace-update-state';
/** Pod annotation: JSON update spec waiting for the in-place grace period to end. */
export const IN_PLACE_UPDATE_GRACE_ANNOTATION = 'apps.kruise.io/inplace-update-grace';
/** Legacy key of {@link IN_PLACE_UPDATE_GRACE_ANNOTATION}. */
export const IN_PLACE_UPDATE_GRACE_ANNOTATION_LEGACY = 'inplace-update-grace';
/** Pod annotation written by kruise-daemon: runtime container ids, restart counts and hashes. */
export const RUNTIME_CONTAINERS_META_ANNOTATION = 'apps.kruise.io/runtime-containers-meta';
/** Pod annotation (Kubernetes): int32 cost of deleting the pod; lower is deleted first on scale-in. */
export const POD_DELETION_COST_ANNOTATION = 'controller.kubernetes.io/pod-deletion-cost';
/** Pod annotation: container launch priority used to batch in-place updates of containers. */
export const CONTAINER_LAUNCH_PRIORITY_ANNOTATION = 'apps.kruise.io/container-launch-priority';
/** Container env var carrying the launch priority. */
export const CONTAINER_PRIORITY_ENV = 'KRUISE_CONTAINER_PRIORITY';
/** Container env var (injected) that makes a container wait for its launch barrier. */
export const CONTAINER_BARRIER_ENV = 'KRUISE_CONTAINER_BARRIER';
/** Pod label prefix used by PodUnavailableBudget only; CloneSet availability does not consult it. */
export const UNAVAILABLE_POD_LABEL_PREFIX = 'unavailable-pod.kruise.io/';

/** ControllerRevision label (Kubernetes): the revision hash, the same text as the name suffix. */
export const CONTROLLER_REVISION_HASH_KEY = 'controller.kubernetes.io/hash';
/** ControllerRevision annotation: decimal FNV hash of the volumeClaimTemplates, "" when there are none. */
export const VOLUME_CLAIM_TEMPLATES_HASH_ANNOTATION = 'kruise.io/cloneset-volumeclaimtemplate-hash';
/** ControllerRevision label `"true"`: ImagePullJobs were created for this revision (the key's "pre-predownload" is upstream's spelling). */
export const IMAGE_PRE_DOWNLOAD_CREATED_LABEL = 'apps.kruise.io/pre-predownload-created';
/** ControllerRevision label `"true"`: image pre-download was decided not to apply to this revision. */
export const IMAGE_PRE_DOWNLOAD_IGNORED_LABEL = 'apps.kruise.io/image-predownload-ignored';
/** The Kruise-prefixed revision label; used by UnitedDeployment, not by CloneSet pods. */
export const KRUISE_CONTROLLER_REVISION_HASH_LABEL = 'apps.kruise.io/controller-revision-hash';

/** CloneSet label `"true"`: pods in PreparingDelete do not count towards replicas when scaling. */
export const CLONESET_SCALING_EXCLUDE_PREPARING_DELETE_LABEL =
  'apps.kruise.io/cloneset-scaling-exclude-preparing-delete';
/** CloneSet annotation: IntOrString parallelism of image pre-download (default 1). */
export const IMAGE_PRE_DOWNLOAD_PARALLELISM_ANNOTATION = 'apps.kruise.io/image-predownload-parallelism';
/** CloneSet annotation: integer timeout in seconds of each image pull. */
export const IMAGE_PRE_DOWNLOAD_TIMEOUT_SECONDS_ANNOTATION = 'apps.kruise.io/image-predownload-timeout-seconds';
/** CloneSet annotation: integer number of updated ready pods required before pre-download starts. */
export const IMAGE_PRE_DOWNLOAD_MIN_UPDATED_READY_PODS_ANNOTATION =
  'apps.kruise.io/image-predownload-min-updated-ready-pods';
/** Workload label protecting it from deletion (values in {@link DeleteProtection}). */
export const DELETE_PROTECTION_LABEL = 'policy.kruise.io/delete-protection';

/** Values of {@link DELETE_PROTECTION_LABEL}. */
export const DeleteProtection = {
  /** Deletion is always forbidden. */
  Always: 'Always',
  /** Deletion is forbidden while replicas > 0. */
  Cascading: 'Cascading',
} as const;
/** A delete-protection value. */
export type DeleteProtection = (typeof DeleteProtection)[keyof typeof DeleteProtection];

/** Pod label of an Advanced StatefulSet pod: its own name (upstream apps/v1's StatefulSetPodNameLabel). */
export const STATEFULSET_POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name';
/** Pod label of an Advanced StatefulSet pod: its ordinal (upstream's PodIndexLabel, gate PodIndexLabel). */
export const POD_INDEX_LABEL = 'apps.kubernetes.io/pod-index';
