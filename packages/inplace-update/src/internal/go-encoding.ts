/**
 * encoding/json output of the Go types inside the in-place update annotations, field by field in Go's
 * struct order (OpenKruise marshals typed structs, so keys are not sorted except inside maps).
 */
import { canonicalQuantity, canonicalTime, compareGoStrings, goQuote, marshalGoJson } from '@kruise-ts/revision';

import type { ContainerRefMetadata, ContainerResources } from './update-spec.ts';

/** `"key":value` members of an object, in the given order, skipping undefined values. */
export function members(entries: readonly (readonly [string, string | undefined])[]): string {
  return `{${entries.flatMap(([key, value]) => (value === undefined ? [] : [`${goQuote(key)}:${value}`])).join(',')}}`;
}

/** A Go map: keys sorted by bytes, values encoded by `encode`; `null` for a nil map. */
export function goMap<T>(map: Readonly<Record<string, T>> | null | undefined, encode: (value: T) => string): string {
  if (map === null || map === undefined) {
    return 'null';
  }
  const keys = Object.keys(map).sort(compareGoStrings);
  return `{${keys.map((key) => `${goQuote(key)}:${encode(map[key] as T)}`).join(',')}}`;
}

/** True when omitempty keeps a map: non-nil and non-empty. */
export function hasEntries(
  map: Readonly<Record<string, unknown>> | null | undefined,
): map is Readonly<Record<string, unknown>> {
  return map !== null && map !== undefined && Object.keys(map).length > 0;
}

/** meta/v1 Time: RFC 3339 in UTC with second precision, `null` for the zero time. */
export function goTime(value: string | null): string {
  if (value === null) {
    return 'null';
  }
  const canonical = canonicalTime(value);
  return canonical === null ? 'null' : goQuote(canonical);
}

/** The RFC 3339 UTC second-precision text of an instant in ms (`2026-01-02T03:04:05Z`). */
export function timestampOf(ms: number): string {
  return `${new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19)}Z`;
}

function quantity(text: string): string {
  try {
    return goQuote(canonicalQuantity(text));
  } catch {
    return goQuote(text);
  }
}

/** core/v1 ResourceRequirements with only limits and requests: `{"limits":{...},"requests":{...}}`. */
export function resourceRequirementsJson(resources: ContainerResources): string {
  return members([
    ['limits', hasEntries(resources.limits) ? goMap(resources.limits, quantity) : undefined],
    ['requests', hasEntries(resources.requests) ? goMap(resources.requests, quantity) : undefined],
  ]);
}

/** meta/v1 ObjectMeta with only labels and annotations (creationTimestamp, a struct, is always written). */
export function objectMetaJson(meta: ContainerRefMetadata): string {
  return members([
    ['creationTimestamp', 'null'],
    ['labels', hasEntries(meta.labels) ? marshalGoJson(meta.labels) : undefined],
    ['annotations', hasEntries(meta.annotations) ? marshalGoJson(meta.annotations) : undefined],
  ]);
}
