/**
 * Which SidecarSets a new pod gets (§B.6 step 3): not paused, the namespace scope (`namespace` or
 * `namespaceSelector` against the namespace's labels), and the non-empty pod selector.
 */
import type { Pod, SidecarSet } from '@kruise-ts/api';
import { matchesLabelSelector } from '@kruise-ts/controller-runtime';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

type ReadonlySidecarSet = DeepReadonly<SidecarSet>;

/** Whether the selector has a requirement: an empty one never matches (OpenKruise's rule). */
function isEmptySelector(selector: ReadonlySidecarSet['spec']['selector']): boolean {
  return Object.keys(selector.matchLabels ?? {}).length === 0 && (selector.matchExpressions ?? []).length === 0;
}

/** Whether the pod's namespace is in the set's scope; `namespaceLabels` undefined: the namespace could not be read (no match, as OpenKruise). */
export function namespaceInScope(
  set: ReadonlySidecarSet,
  namespace: string,
  namespaceLabels: Readonly<Record<string, string>> | undefined,
): boolean {
  const { spec } = set;
  if (spec.namespace !== undefined && spec.namespace !== '' && spec.namespace !== namespace) {
    return false;
  }
  if (spec.namespaceSelector === undefined) {
    return true;
  }
  return namespaceLabels !== undefined && matchesLabelSelector(spec.namespaceSelector, namespaceLabels);
}

/** Whether a pod (in `namespace`, whose labels are `namespaceLabels`) matches the set's scope and selector. */
export function sidecarSetMatchesPod(
  set: ReadonlySidecarSet,
  pod: DeepReadonly<Pod>,
  namespace: { readonly name: string; readonly labels: Readonly<Record<string, string>> | undefined },
): boolean {
  if (isEmptySelector(set.spec.selector)) {
    return false;
  }
  return (
    namespaceInScope(set, namespace.name, namespace.labels) &&
    matchesLabelSelector(set.spec.selector, pod.metadata?.labels ?? {})
  );
}

/** The SidecarSets that inject into a new pod, sorted by name (the order their sidecars are merged in). */
export function injectingSidecarSets(
  sets: readonly ReadonlySidecarSet[],
  pod: DeepReadonly<Pod>,
  namespace: { readonly name: string; readonly labels: Readonly<Record<string, string>> | undefined },
): ReadonlySidecarSet[] {
  return sets
    .filter((set) => set.spec.injectionStrategy?.paused !== true && sidecarSetMatchesPod(set, pod, namespace))
    .sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
}
