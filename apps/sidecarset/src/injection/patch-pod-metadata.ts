/**
 * patchPodMetadata (§B.6.3): annotations a SidecarSet sets on the pods it injects. Retain sets a key
 * only when absent, Overwrite always, MergePatchJson merge-patches (RFC 7386) the JSON value onto the
 * existing one (or sets it when absent or empty), with the runtime's one merge patch.
 */
import type { PatchPodMetadata } from '@kruise-ts/api';
import { applyMergePatch } from '@kruise-ts/controller-runtime';
import type { DeepReadonly, JsonValue } from '@kruise-ts/controller-runtime';

/** Thrown when a MergePatchJson value or the pod's annotation is not JSON. */
export class PatchPodMetadataError extends Error {}

function mergedValue(existing: string, patch: string, key: string): string {
  try {
    return JSON.stringify(applyMergePatch(JSON.parse(existing) as JsonValue, JSON.parse(patch) as JsonValue));
  } catch (error) {
    throw new PatchPodMetadataError(
      `patchPodMetadata: annotation ${key}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** The pod's annotations after the SidecarSet's entries. */
export function patchPodAnnotations(
  annotations: Readonly<Record<string, string>>,
  entries: readonly DeepReadonly<PatchPodMetadata>[],
): Record<string, string> {
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
