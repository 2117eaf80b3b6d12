/** JSON values: what a merge patch, a JSON patch and the API server's answers are made of. */

/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };
/** Any JSON value. */
export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;

/** Whether `value` is a JSON object (not null, not an array). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Whether `value` nests objects or arrays more than `maxDepth` levels deep (a scalar is 0, `{}` 1).
 * Walks with its own stack: a value too deep for the recursive walks of structured clone or
 * JSON.stringify is measured here, not thrown on.
 */
export function nestsDeeperThan(value: unknown, maxDepth: number): boolean {
  const pending: { readonly value: unknown; readonly depth: number }[] = [{ value, depth: 0 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (typeof next.value !== 'object' || next.value === null) {
      continue;
    }
    if (next.depth + 1 > maxDepth) {
      return true;
    }
    for (const child of Object.values(next.value)) {
      pending.push({ value: child, depth: next.depth + 1 });
    }
  }
  return false;
}
