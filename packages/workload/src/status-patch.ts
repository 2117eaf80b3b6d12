/**
 * Writing a workload's status: one merge patch of the status subresource carrying only the changed
 * fields, nothing when nothing changed. OpenKruise reads the object again and replaces the whole
 * status with conflict retries (two requests, more on conflicts); a field-wise patch cannot conflict
 * and costs one.
 */
import { deepEqual } from '@kruise-ts/controller-runtime';
import type { DeepReadonly, ObjectKeyRef, Patch } from '@kruise-ts/controller-runtime';

/**
 * The JSON merge patch that turns the cached status into the new one, or undefined when they are
 * equal. Fields the new status lacks are set to null; lists (conditions) are replaced whole.
 */
export function statusPatch<S extends object>(
  current: DeepReadonly<S> | undefined,
  next: S,
): Record<string, unknown> | undefined {
  const patch: Record<string, unknown> = {};
  const keys = new Set([...Object.keys(current ?? {}), ...Object.keys(next)]);
  for (const key of keys) {
    const before = (current as Record<string, unknown> | undefined)?.[key];
    const after = (next as Record<string, unknown>)[key];
    if (!deepEqual(before, after)) {
      patch[key] = after ?? null;
    }
  }
  return Object.keys(patch).length === 0 ? undefined : patch;
}

/** What writes a status. */
export interface StatusWriter {
  patchStatus(key: ObjectKeyRef, patch: Patch): Promise<unknown>;
}

/** Writes the status when it changed; returns whether it wrote. */
export async function updateStatus<S extends object>(
  writer: StatusWriter,
  object: {
    readonly metadata: { readonly namespace?: string | undefined; readonly name?: string | undefined };
    readonly status?: DeepReadonly<S> | undefined;
  },
  next: S,
): Promise<boolean> {
  const patch = statusPatch(object.status, next);
  if (patch === undefined) {
    return false;
  }
  await writer.patchStatus(
    { namespace: object.metadata.namespace, name: object.metadata.name ?? '' },
    { type: 'merge', body: { status: patch } },
  );
  return true;
}
