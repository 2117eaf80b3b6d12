/**
 * Names of the apps.kruise.io/v1beta1 API group version and of the Advanced StatefulSet resource in it.
 */
import { APPS_KRUISE_IO_GROUP } from '../v1alpha1/group-version.ts';

/** The storage version of Advanced StatefulSet, SidecarSet and BroadcastJob (as in OpenKruise 1.9). */
export const V1BETA1 = 'v1beta1';
/** `apiVersion` of v1beta1 objects. */
export const APPS_KRUISE_IO_V1BETA1 = `${APPS_KRUISE_IO_GROUP}/${V1BETA1}`;

/** Advanced StatefulSet kind (the same kind name as apps/v1's, in another group). */
export const STATEFULSET_KIND = 'StatefulSet';
/** Its list kind. */
export const STATEFULSET_LIST_KIND = 'StatefulSetList';
/** Its resource (plural) name, as in URLs and RBAC rules. */
export const STATEFULSET_PLURAL = 'statefulsets';
/** Its singular name. */
export const STATEFULSET_SINGULAR = 'statefulset';
/** Its short names (`kubectl get asts`), as OpenKruise's. */
export const STATEFULSET_SHORT_NAMES: readonly string[] = ['sts', 'asts'];
/** Name of the CustomResourceDefinition. */
export const STATEFULSET_CRD_NAME = `${STATEFULSET_PLURAL}.${APPS_KRUISE_IO_GROUP}`;
