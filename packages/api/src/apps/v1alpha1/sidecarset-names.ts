/**
 * Names of the SidecarSet resource (apps.kruise.io/v1alpha1, cluster-scoped) and the pod annotation
 * keys OpenKruise's injection and upgrade write, kept identical so that pods injected by OpenKruise are
 * upgraded by kruise-ts without a restart (siblings spec §B.7).
 */
import { APPS_KRUISE_IO_GROUP } from './group-version.ts';

/** SidecarSet kind. */
export const SIDECARSET_KIND = 'SidecarSet';
/** SidecarSet list kind. */
export const SIDECARSET_LIST_KIND = 'SidecarSetList';
/** SidecarSet resource (plural) name. */
export const SIDECARSET_PLURAL = 'sidecarsets';
/** SidecarSet singular name. */
export const SIDECARSET_SINGULAR = 'sidecarset';
/** Name of the SidecarSet CustomResourceDefinition. */
export const SIDECARSET_CRD_NAME = `${SIDECARSET_PLURAL}.${APPS_KRUISE_IO_GROUP}`;

/** SidecarSet annotation and pod annotation: the hash of the sidecar containers, by SidecarSet on a pod. */
export const SIDECARSET_HASH_ANNOTATION = 'kruise.io/sidecarset-hash';
/** The same hash with every image left out (an image-only change is an in-place upgrade). */
export const SIDECARSET_HASH_WITHOUT_IMAGE_ANNOTATION = 'kruise.io/sidecarset-hash-without-image';
/** Pod annotation: the sorted, comma-joined names of the SidecarSets injected into the pod. */
export const SIDECARSET_INJECTED_LIST_ANNOTATION = 'kruise.io/sidecarset-injected-list';
/** Pod annotation: in-place update state by SidecarSet name. */
export const SIDECARSET_INPLACE_UPDATE_STATE_ANNOTATION = 'kruise.io/sidecarset-inplace-update-state';
/** Pod annotation: the working container of each hot-upgrade sidecar. */
export const SIDECARSET_WORKING_HOT_UPGRADE_CONTAINER_ANNOTATION = 'kruise.io/sidecarset-working-hotupgrade-container';
/** ControllerRevision label: the SidecarSet a revision belongs to. */
export const SIDECARSET_NAME_LABEL = 'kruise.io/sidecarset-name';
/** SidecarSet label (v1alpha1) and ControllerRevision label: a custom version tag. */
export const SIDECARSET_CUSTOM_VERSION_LABEL = 'apps.kruise.io/sidecarset-custom-version';
/** Env var every injected container carries, so that shareVolumePolicy skips injected containers. */
export const SIDECAR_INJECTED_ENV = 'IS_INJECTED';
/** Pod annotation prefixes of a hot-upgrade pair's version env vars. */
export const SIDECARSET_VERSION_ANNOTATION_PREFIX = 'version.sidecarset.kruise.io/';
export const SIDECARSET_VERSION_ALT_ANNOTATION_PREFIX = 'versionalt.sidecarset.kruise.io/';
