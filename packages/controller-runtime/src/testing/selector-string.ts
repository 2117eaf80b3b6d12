/**
 * Label selectors in their string form (`app=web,tier!=db,canary,!legacy`), for the fake's list
 * calls. Equality-based requirements only; set-based ones (`env in (a,b)`) are not supported.
 */

/** Whether `labels` satisfy the selector string (the empty string matches everything). */
export function matchesSelectorString(selector: string, labels: Readonly<Record<string, string>> | undefined): boolean {
  return selector
    .split(',')
    .map((requirement) => requirement.trim())
    .filter((requirement) => requirement !== '')
    .every((requirement) => matchesRequirement(requirement, labels ?? {}));
}

function matchesRequirement(requirement: string, labels: Readonly<Record<string, string>>): boolean {
  const notEqual = /^([^!=]+)!=(.*)$/.exec(requirement);
  if (notEqual !== null) {
    return labels[notEqual[1] ?? ''] !== notEqual[2];
  }
  const equal = /^([^!=]+)==?(.*)$/.exec(requirement);
  if (equal !== null) {
    return labels[equal[1] ?? ''] === equal[2];
  }
  if (requirement.startsWith('!')) {
    return !Object.hasOwn(labels, requirement.slice(1));
  }
  if (/\s(not)?in\s/.test(requirement)) {
    throw new Error(`the fake client does not support set-based selectors: ${requirement}`);
  }
  return Object.hasOwn(labels, requirement);
}
