/** A label selector requirement, as in metav1.LabelSelectorRequirement. */
export interface LabelSelectorRequirement {
  readonly key: string;
  /** `In`, `NotIn`, `Exists` or `DoesNotExist`; anything else matches nothing. */
  readonly operator: string;
  readonly values?: readonly string[] | undefined;
}

/** metav1.LabelSelector. */
export interface LabelSelector {
  readonly matchLabels?: Readonly<Record<string, string>> | undefined;
  readonly matchExpressions?: readonly LabelSelectorRequirement[] | undefined;
}

function requirements(selector: LabelSelector): LabelSelectorRequirement[] {
  const fromLabels = Object.entries(selector.matchLabels ?? {}).map(([key, value]) => ({
    key,
    operator: 'In',
    values: [value],
  }));
  return [...fromLabels, ...(selector.matchExpressions ?? [])];
}

/**
 * Whether labels match one requirement of the set operators (`In`, `NotIn`, `Exists`, `DoesNotExist`);
 * any other operator matches nothing (a node selector adds `Gt` and `Lt` on top of these).
 */
export function matchesLabelRequirement(
  requirement: LabelSelectorRequirement,
  labels: Readonly<Record<string, string>>,
): boolean {
  const value = Object.hasOwn(labels, requirement.key) ? labels[requirement.key] : undefined;
  const has = value !== undefined;
  const listed = has && (requirement.values ?? []).includes(value);
  switch (requirement.operator) {
    case 'In':
      return listed;
    case 'NotIn':
      return !listed;
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    default:
      return false;
  }
}

/**
 * Whether labels match a selector. An empty selector matches everything, as in
 * metav1.LabelSelectorAsSelector; callers that must treat "empty" as "nothing" (a workload's pod
 * selector) check for that themselves. An unknown operator matches nothing.
 */
export function matchesLabelSelector(
  selector: LabelSelector,
  labels: Readonly<Record<string, string>> | undefined,
): boolean {
  const actual = labels ?? {};
  return compiledRequirements(selector).every((requirement) => matchesLabelRequirement(requirement, actual));
}

/**
 * Requirements per selector object. Selectors come from cached (immutable) objects and are matched
 * against every pod of a workload on every reconcile, so they are turned into requirements once.
 */
const compiled = new WeakMap<LabelSelector, readonly LabelSelectorRequirement[]>();

function compiledRequirements(selector: LabelSelector): readonly LabelSelectorRequirement[] {
  let found = compiled.get(selector);
  if (found === undefined) {
    found = requirements(selector);
    compiled.set(selector, found);
  }
  return found;
}

function formatRequirement(requirement: LabelSelectorRequirement): string {
  const values = [...(requirement.values ?? [])].sort();
  switch (requirement.operator) {
    case 'In':
      return values.length === 1
        ? `${requirement.key}=${values[0] ?? ''}`
        : `${requirement.key} in (${values.join(',')})`;
    case 'NotIn':
      return values.length === 1
        ? `${requirement.key}!=${values[0] ?? ''}`
        : `${requirement.key} notin (${values.join(',')})`;
    case 'Exists':
      return requirement.key;
    case 'DoesNotExist':
      return `!${requirement.key}`;
    default:
      throw new Error(
        `unknown label selector operator ${JSON.stringify(requirement.operator)} for key ${requirement.key}`,
      );
  }
}

/**
 * The selector in the API's string syntax (`app=web,tier in (a,b)`), requirements sorted by key: the
 * form of `status.labelSelector` that the scale subresource and HPA read, and of `labelSelector`
 * query parameters.
 */
export function labelSelectorToString(selector: LabelSelector): string {
  return requirements(selector)
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map(formatRequirement)
    .join(',');
}

/** True when the selector selects nothing in particular (no labels, no expressions). */
export function isEmptyLabelSelector(selector: LabelSelector | undefined): boolean {
  return Object.keys(selector?.matchLabels ?? {}).length === 0 && (selector?.matchExpressions ?? []).length === 0;
}
