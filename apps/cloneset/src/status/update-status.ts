import type { CloneSet, CloneSetStatus } from '@kruise-ts/api';
import { deepEqual } from '@kruise-ts/controller-runtime';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

import type { CloneSetControl } from '../sync/sync-context.ts';

/**
 * The JSON merge patch that turns the cached status into the new one, or undefined when they are
 * equal. Fields the new status lacks are set to null; lists (conditions) are replaced whole.
 */
export function statusPatch(current: DeepReadonly<CloneSetStatus> | undefined, next: CloneSetStatus): Record<string, unknown> | undefined {
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

/**
 * Writes the status when it changed: one merge patch of the status subresource carrying only the
 * changed fields. OpenKruise reads the object again and replaces the whole status with conflict
 * retries (two requests, more on conflicts); a field-wise patch cannot conflict and costs one.
 */
export async function updateStatus(writer: Pick<CloneSetControl, 'patchStatus'>, cs: DeepReadonly<CloneSet>, next: CloneSetStatus): Promise<boolean> {
  const patch = statusPatch(cs.status, next);
  if (patch === undefined) {
    return false;
  }
  await writer.patchStatus({ namespace: cs.metadata.namespace, name: cs.metadata.name ?? '' }, { type: 'merge', body: { status: patch } });
  return true;
}
