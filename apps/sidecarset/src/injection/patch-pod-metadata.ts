/**
 * patchPodMetadata (§B.6.3): annotations a SidecarSet sets on the pods it injects. Retain sets a key
 * only when absent, Overwrite always, MergePatchJson merge-patches (RFC 7386) the JSON value onto the
 * existing one (or sets it when absent or empty).
 */
import type { PatchPodMetadata } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isObject(value: Json): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** RFC 7386: objects merge key by key, null removes, anything else replaces. */
export function jsonMergePatch(target: Json, patch: Json): Json {
  if (!isObject(patch)) return patch;
  const base: { [key: string]: Json } = isObject(target) ? target : {};
  const removed = new Set(Object.entries(patch).filter(([, value]) => value === null).map(([key]) => key));
  const kept = Object.entries(base).filter(([key]) => !removed.has(key));
  const patched = Object.entries(patch).filter(([, value]) => value !== null).map(([key, value]): [string, Json] => [key, jsonMergePatch(base[key] ?? null, value)]);
  return Object.fromEntries([...kept.filter(([key]) => !(key in patch)), ...patched]);
}

/** Thrown when a MergePatchJson value or the pod's annotation is not JSON. */
export class PatchPodMetadataError extends Error {}

function mergedValue(existing: string, patch: string, key: string): string {
  try {
    return JSON.stringify(jsonMergePatch(JSON.parse(existing) as Json, JSON.parse(patch) as Json));
  } catch (error) {
    throw new PatchPodMetadataError(`patchPodMetadata: annotation ${key}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The pod's annotations after the SidecarSet's entries. */
export function patchPodAnnotations(annotations: Readonly<Record<string, string>>, entries: readonly DeepReadonly<PatchPodMetadata>[]): Record<string, string> {
  const result = { ...annotations };
  for (const entry of entries) {
    for (const [key, value] of Object.entries(entry.annotations ?? {})) {
      const existing = result[key];
      if (entry.patchPolicy === 'Overwrite' || existing === undefined) {
        result[key] = value;
      } else if (entry.patchPolicy === 'MergePatchJson') {
        result[key] = existing === '' ? value : mergedValue(existing, value, key);
      }
    }
  }
  return result;
}
