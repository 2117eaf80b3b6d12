/**
 * Names of the apps.kruise.io/v1alpha1 API group version and of the CloneSet resource in it.
 */

/** The API group of all OpenKruise workloads. */
export const APPS_KRUISE_IO_GROUP = 'apps.kruise.io';
/** The first version of OpenKruise's kinds (CloneSet's only one; Advanced StatefulSet, SidecarSet and BroadcastJob also serve v1beta1). */
export const V1ALPHA1 = 'v1alpha1';
/** `apiVersion` of v1alpha1 objects. */
export const APPS_KRUISE_IO_V1ALPHA1 = `${APPS_KRUISE_IO_GROUP}/${V1ALPHA1}`;

/** CloneSet kind. */
export const CLONESET_KIND = 'CloneSet';
/** CloneSet list kind. */
export const CLONESET_LIST_KIND = 'CloneSetList';
/** CloneSet resource (plural) name, as in URLs and RBAC rules. */
export const CLONESET_PLURAL = 'clonesets';
/** CloneSet singular name. */
export const CLONESET_SINGULAR = 'cloneset';
/** CloneSet short name (`kubectl get clone`). */
export const CLONESET_SHORT_NAME = 'clone';
/** Name of the CloneSet CustomResourceDefinition. */
export const CLONESET_CRD_NAME = `${CLONESET_PLURAL}.${APPS_KRUISE_IO_GROUP}`;
