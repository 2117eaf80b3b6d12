/**
 * The node a BroadcastJob pod belongs to, and how a pod is pinned to its node (OpenKruise's
 * getAssignedNode and `--assign-bcj-pods-by-scheduler=true`): one required node-affinity term
 * `matchFields: metadata.name In [node]`, which the scheduler honours before the pod has a nodeName.
 */
import type { Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

type PodSpec = NonNullable<Pod['spec']>;

function requiredTerms(
  spec: DeepReadonly<PodSpec> | undefined,
): DeepReadonly<
  NonNullable<
    NonNullable<NonNullable<PodSpec['affinity']>['nodeAffinity']>['requiredDuringSchedulingIgnoredDuringExecution']
  >['nodeSelectorTerms']
> {
  return spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
}

/** `spec.nodeName`, else the single value of a required `metadata.name In [x]` field selector. */
export function assignedNode(pod: DeepReadonly<Pod>): string | undefined {
  const nodeName = pod.spec?.nodeName ?? '';
  if (nodeName !== '') {
    return nodeName;
  }
  const fields = requiredTerms(pod.spec).flatMap((term) => term.matchFields ?? []);
  return fields.find(isNameSelector)?.values?.[0];
}

function isNameSelector(field: {
  readonly key: string;
  readonly operator: string;
  readonly values?: readonly string[] | undefined;
}): boolean {
  return field.key === 'metadata.name' && field.operator === 'In' && field.values?.length === 1;
}

/** The spec with its required node affinity replaced by the node's name (preferred affinity and pod (anti-)affinity kept). */
export function pinnedToNode(spec: DeepReadonly<PodSpec>, node: string): PodSpec {
  const copy = structuredClone(spec) as PodSpec;
  const required = { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] }] };
  const nodeAffinity = { ...copy.affinity?.nodeAffinity, requiredDuringSchedulingIgnoredDuringExecution: required };
  return { ...copy, affinity: { ...copy.affinity, nodeAffinity } };
}
