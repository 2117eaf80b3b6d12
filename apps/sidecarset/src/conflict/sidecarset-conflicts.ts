/**
 * Conflicts between SidecarSets that may select the same pods (§B.5): a container or init container
 * name both inject, a volume of one name that differs, an annotation key both patch where one of them
 * overwrites. OpenKruise rejects the second SidecarSet in its validating webhook; kruise-ts has no
 * webhook on SidecarSets (their validation is CEL), so a conflict is settled where it matters: the pod
 * webhook injects the older SidecarSet and skips the newer one with a warning naming both and the
 * field, and the controller puts a Conflict condition on the newer one.
 *
 * "May select the same pods" follows OpenKruise's static rules: the namespace scopes meet (either is
 * cluster-wide, a namespaceSelector meets anything, or the namespaces are equal) and the selectors can
 * both match one label set (no key required with different values, or required by one and excluded
 * by the other).
 */
import type { LabelSelector, SidecarSet } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { scopedNamespace } from '../injection/scoped-namespace.ts';

type ReadonlySidecarSet = DeepReadonly<SidecarSet>;

/** One conflict of a SidecarSet with another. */
export interface SidecarSetConflict {
  /** The other SidecarSet. */
  readonly with: string;
  /** The field of this SidecarSet, e.g. `spec.containers[name=proxy]`. */
  readonly field: string;
  readonly reason: string;
}

/** The values a selector allows for each key it constrains (undefined: any value, but the key must exist). */
function requiredValues(selector: DeepReadonly<LabelSelector>): Map<string, ReadonlySet<string> | undefined> {
  const required = new Map<string, ReadonlySet<string> | undefined>();
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    required.set(key, new Set([value]));
  }
  for (const expression of selector.matchExpressions ?? []) {
    if (expression.operator === 'In') {
      const existing = required.get(expression.key);
      const values = new Set(expression.values ?? []);
      required.set(
        expression.key,
        existing === undefined ? values : new Set([...values].filter((value) => existing.has(value))),
      );
    } else if (expression.operator === 'Exists' && !required.has(expression.key)) {
      required.set(expression.key, undefined);
    }
  }
  return required;
}

/** Keys a selector excludes outright (DoesNotExist), and values it excludes (NotIn). */
function excludes(
  selector: DeepReadonly<LabelSelector>,
  key: string,
  values: ReadonlySet<string> | undefined,
): boolean {
  return (selector.matchExpressions ?? []).some((expression) => {
    if (expression.key !== key) {
      return false;
    }
    if (expression.operator === 'DoesNotExist') {
      return true;
    }
    return (
      expression.operator === 'NotIn' &&
      values !== undefined &&
      [...values].every((value) => (expression.values ?? []).includes(value))
    );
  });
}

/** Whether some label set could match both selectors. */
export function selectorsMayOverlap(a: DeepReadonly<LabelSelector>, b: DeepReadonly<LabelSelector>): boolean {
  const left = requiredValues(a);
  const right = requiredValues(b);
  for (const [key, values] of left) {
    const other = right.get(key);
    if (values !== undefined && values.size === 0) {
      return false;
    }
    if (values !== undefined && other !== undefined && ![...values].some((value) => other.has(value))) {
      return false;
    }
    if (excludes(b, key, values)) {
      return false;
    }
  }
  return [...right].every(([key, values]) => !(values !== undefined && values.size === 0) && !excludes(a, key, values));
}

function scopesMeet(a: ReadonlySidecarSet, b: ReadonlySidecarSet): boolean {
  const [left, right] = [scopedNamespace(a.spec), scopedNamespace(b.spec)];
  return left === '' || right === '' || left === right;
}

/** Whether the two SidecarSets may select a common pod. */
export function sidecarSetsMayOverlap(a: ReadonlySidecarSet, b: ReadonlySidecarSet): boolean {
  return scopesMeet(a, b) && selectorsMayOverlap(a.spec.selector, b.spec.selector);
}

function names(list: readonly { readonly name: string }[] | undefined): Set<string> {
  return new Set((list ?? []).map((item) => item.name));
}

/** Overwrite entries' keys, and every patched key (Retain ones never conflict). */
function patchedKeys(set: ReadonlySidecarSet): { readonly overwrite: Set<string>; readonly all: Set<string> } {
  const entries = (set.spec.patchPodMetadata ?? []).filter((entry) => entry.patchPolicy !== 'Retain');
  const keysOf = (list: typeof entries) => new Set(list.flatMap((entry) => Object.keys(entry.annotations ?? {})));
  return { overwrite: keysOf(entries.filter((entry) => entry.patchPolicy === 'Overwrite')), all: keysOf(entries) };
}

function nameConflicts(
  mine: readonly { readonly name: string }[] | undefined,
  theirs: readonly { readonly name: string }[] | undefined,
  kind: { readonly field: string; readonly reason: string; readonly with: string },
): SidecarSetConflict[] {
  const other = names(theirs);
  return [...names(mine)]
    .filter((name) => other.has(name))
    .map((name) => ({ with: kind.with, field: `${kind.field}[name=${name}]`, reason: kind.reason }));
}

function volumeConflicts(set: ReadonlySidecarSet, other: ReadonlySidecarSet): SidecarSetConflict[] {
  return (set.spec.volumes ?? []).flatMap((volume) => {
    const theirs = (other.spec.volumes ?? []).find((candidate) => candidate.name === volume.name);
    const differs = theirs !== undefined && JSON.stringify(sortedJson(theirs)) !== JSON.stringify(sortedJson(volume));
    return differs
      ? [
          {
            with: other.metadata.name ?? '',
            field: `spec.volumes[name=${volume.name}]`,
            reason: 'a volume of this name differs',
          },
        ]
      : [];
  });
}

function annotationConflicts(set: ReadonlySidecarSet, other: ReadonlySidecarSet): SidecarSetConflict[] {
  const [mine, theirs] = [patchedKeys(set), patchedKeys(other)];
  return [...mine.all]
    .filter((key) => theirs.all.has(key) && (mine.overwrite.has(key) || theirs.overwrite.has(key)))
    .map((key) => ({
      with: other.metadata.name ?? '',
      field: `spec.patchPodMetadata.annotations[${key}]`,
      reason: 'both patch this annotation and one overwrites it',
    }));
}

/** The conflicts of `set` with one other SidecarSet, whatever their scopes. */
export function conflictsBetween(set: ReadonlySidecarSet, other: ReadonlySidecarSet): SidecarSetConflict[] {
  const withName = other.metadata.name ?? '';
  return [
    ...nameConflicts(set.spec.containers, other.spec.containers, {
      with: withName,
      field: 'spec.containers',
      reason: 'both inject a container of this name',
    }),
    ...nameConflicts(set.spec.initContainers, other.spec.initContainers, {
      with: withName,
      field: 'spec.initContainers',
      reason: 'both inject an init container of this name',
    }),
    ...volumeConflicts(set, other),
    ...annotationConflicts(set, other),
  ];
}

function sortedJson(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(sortedJson);
  }
  if (typeof value !== 'object' || value === null) {
    return value;
  }
  return Object.fromEntries(
    Object.entries(value)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, item]) => [key, sortedJson(item)]),
  );
}

/** Older first (creationTimestamp, then name): the one that keeps injecting when two conflict. */
export function compareAge(a: ReadonlySidecarSet, b: ReadonlySidecarSet): number {
  const [left, right] = [a.metadata.creationTimestamp ?? '', b.metadata.creationTimestamp ?? ''];
  if (left !== right) {
    return left < right ? -1 : 1;
  }
  const [x, y] = [a.metadata.name ?? '', b.metadata.name ?? ''];
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The conflicts that make `set` yield: with older SidecarSets that may select the same pods. */
export function yieldingConflicts(set: ReadonlySidecarSet, all: readonly ReadonlySidecarSet[]): SidecarSetConflict[] {
  return all
    .filter(
      (other) =>
        other.metadata.name !== set.metadata.name && compareAge(other, set) < 0 && sidecarSetsMayOverlap(set, other),
    )
    .flatMap((other) => conflictsBetween(set, other));
}

/** A conflict as people read it. */
export function describeConflict(setName: string, conflict: SidecarSetConflict): string {
  return `SidecarSet ${setName} ${conflict.field} conflicts with SidecarSet ${conflict.with}: ${conflict.reason}`;
}

/**
 * The SidecarSets a pod gets when some of them conflict on it: in age order, a set that conflicts with
 * one already taken is skipped. Returns the kept sets (in the given order) and one warning per skip.
 */
export function resolveInjectionConflicts<T extends ReadonlySidecarSet>(
  sets: readonly T[],
): { readonly kept: T[]; readonly warnings: string[] } {
  const taken: T[] = [];
  const warnings: string[] = [];
  for (const set of [...sets].sort(compareAge)) {
    const conflict = taken.flatMap((other) => conflictsBetween(set, other))[0];
    if (conflict === undefined) {
      taken.push(set);
    } else {
      warnings.push(`${describeConflict(set.metadata.name ?? '', conflict)}; its sidecars were not injected`);
    }
  }
  return { kept: sets.filter((set) => taken.includes(set)), warnings };
}
