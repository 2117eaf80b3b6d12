/**
 * RFC 7386 JSON merge patch: objects merge recursively, `null` removes a member, anything else
 * (arrays included) replaces the target.
 */
import { isJsonObject } from './json-value.ts';
import type { JsonObject, JsonValue } from './json-value.ts';

/** `target` with `patch` merged in; neither argument is modified. */
export function applyMergePatch(target: JsonValue | undefined, patch: JsonValue): JsonValue {
  if (!isJsonObject(patch)) {
    return patch;
  }
  const result: JsonObject = isJsonObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) {
      Reflect.deleteProperty(result, key);
    } else {
      result[key] = applyMergePatch(result[key], value);
    }
  }
  return result;
}
