/**
 * Selective scale-in in one patch. A CloneSet lists the pods in `spec.scaleStrategy.podsToDelete`
 * (what `kubectl kruise scale --specified-delete` writes); an Advanced StatefulSet, whose pods are
 * ordinals, reserves their ordinals in `spec.reserveOrdinals`, OpenKruise's way to take out a pod in
 * the middle. A merge patch replaces a list whole, so the lists are merged here and the patch carries
 * the resourceVersion they were read at: a change in between fails with a conflict instead of being lost.
 */
import { PreconditionError, UsageError } from '../cli/cli-errors.ts';
import type { Kind } from '../resources/kinds.ts';
import type { WorkloadObject } from '../resources/workload-object.ts';

/** The names of `--delete a,b`; an empty one is a usage error. */
export function parsePodList(value: string): string[] {
  const names = value.split(',').map((name) => name.trim());
  if (names.some((name) => name === '')) {
    throw new UsageError(`--delete takes pod names separated by commas: got ${JSON.stringify(value)}`);
  }
  return [...new Set(names)];
}

/** `existing` with the names of `added` it lacks appended, in order. */
export function mergePodsToDelete(existing: readonly string[], added: readonly string[]): string[] {
  return [...new Set([...existing, ...added])];
}

/** The ordinal of an Advanced StatefulSet's pod (`<set>-<ordinal>`), undefined when the name is not one. */
export function podOrdinal(setName: string, podName: string): number | undefined {
  const prefix = `${setName}-`;
  const rest = podName.startsWith(prefix) ? podName.slice(prefix.length) : '';
  return /^(0|[1-9]\d*)$/.test(rest) ? Number(rest) : undefined;
}

/** `existing` with the ordinals it does not already reserve (itself or within a range "a-b") appended. */
export function mergeReserveOrdinals(
  existing: readonly (number | string)[],
  ordinals: readonly number[],
): (number | string)[] {
  const reserved = existing.map(reservedRange);
  const added = [...new Set(ordinals)].filter(
    (ordinal) => !reserved.some(([low, high]) => ordinal >= low && ordinal <= high),
  );
  return [...existing, ...added];
}

function reservedRange(entry: number | string): readonly [number, number] {
  if (typeof entry === 'number') {
    return [entry, entry];
  }
  const match = /^(\d+)(?:-(\d+))?$/.exec(entry);
  // The API server validated the form; an unknown one reserves nothing we could match.
  return match === null ? [-1, -1] : [Number(match[1]), Number(match[2] ?? match[1])];
}

/** What `scale --replicas N [--delete ...]` asks for. */
export interface ScaleRequest {
  readonly replicas: number;
  readonly pods: readonly string[];
}

/** The merge patch of a scale request. */
export function scalePatch(kind: Kind, object: WorkloadObject, { replicas, pods }: ScaleRequest): object {
  if (pods.length === 0) {
    return { spec: { replicas } };
  }
  const metadata = { resourceVersion: object.metadata.resourceVersion };
  if (kind.id !== 'advanced-statefulset') {
    const podsToDelete = mergePodsToDelete(object.spec.scaleStrategy?.podsToDelete ?? [], pods);
    return { metadata, spec: { replicas, scaleStrategy: { podsToDelete } } };
  }
  const ordinals = pods.map((pod) => {
    const ordinal = podOrdinal(object.metadata.name, pod);
    if (ordinal === undefined) {
      throw new PreconditionError(
        `pod ${JSON.stringify(pod)} is not named like a pod of ${object.metadata.name} (${object.metadata.name}-<ordinal>)`,
      );
    }
    return ordinal;
  });
  return {
    metadata,
    spec: { replicas, reserveOrdinals: mergeReserveOrdinals(object.spec.reserveOrdinals ?? [], ordinals) },
  };
}
