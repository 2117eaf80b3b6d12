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
 * equal. It carries every field of the new status, not only the changed ones: the cache may not show
 * our previous write yet, and a field that write changed but that equals the cached value now would
 * otherwise be left at the written value (a status of 4 replicas and 5 ready, seen in a test). Fields
 * the new status lacks are set to null; lists (conditions) are replaced whole.
 */
export function statusPatch<S extends object>(current: DeepReadonly<S> | undefined, next: S): Record<string, unknown> | undefined {
  const before = (current ?? {}) as Record<string, unknown>;
  const after = next as Record<string, unknown>;
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  if ([...keys].every((key) => deepEqual(before[key], after[key]))) {
    return undefined;
  }
  const patch: Record<string, unknown> = {};
  for (const key of keys) {
    patch[key] = after[key] ?? null;
  }
  return patch;
}

/** What writes a status. */
export interface StatusWriter {
  patchStatus(key: ObjectKeyRef, patch: Patch): Promise<unknown>;
}

/** Writes the status when it changed; returns whether it wrote. */
export async function updateStatus<S extends object>(
  writer: StatusWriter,
  object: { readonly metadata: { readonly namespace?: string | undefined; readonly name?: string | undefined }; readonly status?: DeepReadonly<S> | undefined },
  next: S,
): Promise<boolean> {
  const patch = statusPatch(object.status, next);
  if (patch === undefined) {
    return false;
  }
  await writer.patchStatus({ namespace: object.metadata.namespace, name: object.metadata.name ?? '' }, { type: 'merge', body: { status: patch } });
  return true;
}
