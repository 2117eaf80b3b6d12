/**
 * The one namespace a SidecarSet is limited to, in either version's spelling: v1alpha1's
 * `spec.namespace`, or v1beta1's `namespaceSelector` that selects exactly one namespace by its
 * `kubernetes.io/metadata.name` label (what OpenKruise's conversion turns `namespace` into).
 */
import type { SidecarSet } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';

/** The namespace, or '' when the set may match pods of more than one namespace. */
export function scopedNamespace(spec: DeepReadonly<SidecarSet['spec']>): string {
  if (spec.namespace !== undefined && spec.namespace !== '') {
    return spec.namespace;
  }
  return namespaceOfSelector(spec.namespaceSelector);
}

function namespaceOfSelector(selector: DeepReadonly<SidecarSet['spec']>['namespaceSelector']): string {
  const labels = Object.entries(selector?.matchLabels ?? {});
  const [only] = labels;
  if (only === undefined || labels.length !== 1 || (selector?.matchExpressions ?? []).length > 0) {
    return '';
  }
  return only[0] === NAMESPACE_NAME_LABEL ? only[1] : '';
}
