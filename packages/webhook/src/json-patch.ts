/**
 * JSON Patch (RFC 6902) between two JSON values, for mutating webhooks: a handler changes a copy of
 * the object and answers with the difference. Only add, remove and replace are produced. Arrays are
 * compared by index (common prefix changed in place, extra items added or removed at the end), which
 * is always correct though not minimal when items are inserted in the middle; admission patches are
 * small and the API server applies them in one go, so correctness is worth more than minimality.
 */
import type { JsonPatchOperation } from '@kruise-ts/controller-runtime';
import { deepEqual } from '@kruise-ts/controller-runtime';

type JsonObject = { [key: string]: unknown };

/** RFC 6901: `~` becomes `~0` and `/` becomes `~1` (in that order, so that `~1` in a key survives). */
export function escapeJsonPointerToken(token: string): string {
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

/**
 * The operations that turn `original` into `mutated`; empty when they are equal. Both are first
 * taken through a JSON round trip, so `undefined` members count as absent, as they would on the wire.
 */
export function createJsonPatch(original: unknown, mutated: unknown): JsonPatchOperation[] {
  const operations: JsonPatchOperation[] = [];
  diff({ from: toJson(original), to: toJson(mutated), path: '' }, operations);
  return operations;
}

function toJson(value: unknown): unknown {
  const text = JSON.stringify(value) as string | undefined;
  return text === undefined ? null : (JSON.parse(text) as unknown);
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

interface Step {
  readonly from: unknown;
  readonly to: unknown;
  readonly path: string;
}

function diff(step: Step, out: JsonPatchOperation[]): void {
  const { from, to, path } = step;
  if (isObject(from) && isObject(to)) {
    diffObjects({ from, to, path }, out);
  } else if (Array.isArray(from) && Array.isArray(to)) {
    diffArrays({ from, to, path }, out);
  } else if (!deepEqual(from, to)) {
    out.push({ op: 'replace', path, value: to });
  }
}

function diffObjects(
  step: { readonly from: JsonObject; readonly to: JsonObject; readonly path: string },
  out: JsonPatchOperation[],
): void {
  const { from, to, path } = step;
  for (const key of Object.keys(from)) {
    const child = `${path}/${escapeJsonPointerToken(key)}`;
    if (Object.hasOwn(to, key)) {
      diff({ from: from[key], to: to[key], path: child }, out);
    } else {
      out.push({ op: 'remove', path: child });
    }
  }
  for (const key of Object.keys(to)) {
    if (!Object.hasOwn(from, key)) {
      out.push({ op: 'add', path: `${path}/${escapeJsonPointerToken(key)}`, value: to[key] });
    }
  }
}

function diffArrays(
  step: { readonly from: readonly unknown[]; readonly to: readonly unknown[]; readonly path: string },
  out: JsonPatchOperation[],
): void {
  const { from, to, path } = step;
  const common = Math.min(from.length, to.length);
  for (let index = 0; index < common; index++) {
    diff({ from: from[index], to: to[index], path: `${path}/${String(index)}` }, out);
  }
  for (let index = common; index < to.length; index++) {
    out.push({ op: 'add', path: `${path}/${String(index)}`, value: to[index] });
  }
  // From the end, so that each removal leaves the indexes of the ones still to come unchanged.
  for (let index = from.length - 1; index >= common; index--) {
    out.push({ op: 'remove', path: `${path}/${String(index)}` });
  }
}
