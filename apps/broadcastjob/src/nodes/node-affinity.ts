/**
 * A pod's required node placement as the scheduler reads it (k8s.io/component-helpers
 * `nodeaffinity.GetRequiredNodeAffinity(pod).Match(node)`): `spec.nodeSelector` and the required
 * node affinity must both match. Terms are ORed, the requirements of a term ANDed. A term the
 * scheduler cannot parse (an unknown operator, a wrong number of values, a label value that is not
 * one) matches nothing, as the lazy-error selector drops it; the API server does not check every one
 * of those rules on a pod (label values of In/NotIn, integers of Gt/Lt), so they are checked here.
 */
import { labelKeySchema, labelValueSchema } from '@kruise-ts/api';
import type { Node, Pod } from '@kruise-ts/api';
import { matchesLabelRequirement } from '@kruise-ts/controller-runtime';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

type PodSpec = NonNullable<Pod['spec']>;
type NodeSelector = NonNullable<
  NonNullable<NonNullable<PodSpec['affinity']>['nodeAffinity']>['requiredDuringSchedulingIgnoredDuringExecution']
>;
type NodeSelectorTerm = DeepReadonly<NodeSelector['nodeSelectorTerms'][number]>;
type NodeSelectorRequirement = DeepReadonly<
  NonNullable<NodeSelector['nodeSelectorTerms'][number]['matchExpressions']>[number]
>;
type Labels = Readonly<Record<string, string>>;

/** The field a node selector term may match on: the only one the scheduler extracts from a node. */
export const NODE_NAME_FIELD = 'metadata.name';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Go's strconv.ParseInt(text, 10, 64), undefined where it fails. */
function parseInt64(text: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(text)) {
    return undefined;
  }
  const value = BigInt(text);
  return value < INT64_MIN || value > INT64_MAX ? undefined : value;
}

const nonEmpty = (values: readonly string[]): boolean => values.length > 0;
const empty = (values: readonly string[]): boolean => values.length === 0;
const oneInteger = (values: readonly string[]): boolean =>
  values.length === 1 && parseInt64(values[0] ?? '') !== undefined;

/** labels.NewRequirement's value rules per node selector operator; other operators are refused. */
const VALUE_RULES = new Map<string, (values: readonly string[]) => boolean>([
  ['In', nonEmpty],
  ['NotIn', nonEmpty],
  ['Exists', empty],
  ['DoesNotExist', empty],
  ['Gt', oneInteger],
  ['Lt', oneInteger],
]);

function validLabelRequirement(requirement: NodeSelectorRequirement): boolean {
  const values = requirement.values ?? [];
  const rule = VALUE_RULES.get(requirement.operator);
  return (
    rule !== undefined &&
    rule(values) &&
    labelKeySchema.safeParse(requirement.key).success &&
    values.every((value) => labelValueSchema.safeParse(value).success)
  );
}

/** Gt/Lt: the label must exist and be an integer; a label that is not one fails the requirement. */
function comparesInteger(requirement: NodeSelectorRequirement, label: string | undefined): boolean {
  const actual = label === undefined ? undefined : parseInt64(label);
  const bound = parseInt64(requirement.values?.[0] ?? '');
  if (actual === undefined || bound === undefined) {
    return false;
  }
  return requirement.operator === 'Gt' ? actual > bound : actual < bound;
}

/** A node selector requirement: the label selector's set operators, plus Gt and Lt. */
function matchesNodeLabelRequirement(requirement: NodeSelectorRequirement, labels: Labels): boolean {
  if (requirement.operator !== 'Gt' && requirement.operator !== 'Lt') {
    return matchesLabelRequirement(requirement, labels);
  }
  return comparesInteger(requirement, Object.hasOwn(labels, requirement.key) ? labels[requirement.key] : undefined);
}

/** Field requirements: In or NotIn with exactly one value (any other key reads as the empty string). */
function validFieldRequirement(requirement: NodeSelectorRequirement): boolean {
  return (requirement.operator === 'In' || requirement.operator === 'NotIn') && requirement.values?.length === 1;
}

function matchesFieldRequirement(requirement: NodeSelectorRequirement, nodeName: string): boolean {
  const actual = requirement.key === NODE_NAME_FIELD ? nodeName : '';
  return (actual === requirement.values?.[0]) === (requirement.operator === 'In');
}

/** Whether the scheduler can parse the term: it has requirements (else upstream skips it) and each is well formed. */
function parsableTerm(term: NodeSelectorTerm): boolean {
  const expressions = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  return (
    (expressions.length > 0 || fields.length > 0) &&
    expressions.every(validLabelRequirement) &&
    fields.every(validFieldRequirement)
  );
}

/** One term: all its requirements; a term without requirements selects nothing. */
export function matchesNodeSelectorTerm(term: NodeSelectorTerm, node: DeepReadonly<Node>): boolean {
  if (!parsableTerm(term)) {
    return false;
  }
  const labels = node.metadata?.labels ?? {};
  if (!(term.matchExpressions ?? []).every((requirement) => matchesNodeLabelRequirement(requirement, labels))) {
    return false;
  }
  // Upstream extracts no fields from a node without a name, and then does not apply the field selector.
  const name = node.metadata?.name ?? '';
  return name === '' || (term.matchFields ?? []).every((requirement) => matchesFieldRequirement(requirement, name));
}

/** `spec.nodeSelector`: every entry names a label the node has, with that value. */
function matchesNodeSelector(pod: DeepReadonly<Pod>, node: DeepReadonly<Node>): boolean {
  const labels = node.metadata?.labels ?? {};
  return Object.entries(pod.spec?.nodeSelector ?? {}).every(
    ([key, value]) => Object.hasOwn(labels, key) && labels[key] === value,
  );
}

/** `spec.nodeSelector` and the required node affinity (any of its terms; no terms: nothing). */
export function matchesRequiredNodeAffinity(pod: DeepReadonly<Pod>, node: DeepReadonly<Node>): boolean {
  if (!matchesNodeSelector(pod, node)) {
    return false;
  }
  const required = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (required === undefined) {
    return true;
  }
  // Typed as required, but a template stored without it must not throw.
  const terms = required.nodeSelectorTerms as readonly NodeSelectorTerm[] | undefined;
  return (terms ?? []).some((term) => matchesNodeSelectorTerm(term, node));
}
