/**
 * The write of `rollout undo`: one JSON merge patch that turns the workload's pod template into a
 * revision's, and carries the resourceVersion the decision was made at. A merge patch with a stale
 * resourceVersion is refused with 409 Conflict, so a template changed in between is never overwritten
 * unseen (a JSON patch `test` would fail with 422, which cannot be told apart from a bad patch).
 */

type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };
type JsonObject = { readonly [key: string]: Json };

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The value without the null members of its objects, at any depth. Revision data is Go's encoding
 * (`"creationTimestamp":null`), where null and absent mean the same; in a merge patch null means delete.
 */
export function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(withoutNulls);
  }
  if (!isObject(value)) {
    return value;
  }
  return Object.fromEntries(
    Object.entries(value).flatMap(([key, member]) => (member === null ? [] : [[key, withoutNulls(member)]])),
  );
}

/**
 * The merge patch (RFC 7386) that turns `current` into `target`, both without nulls: the target's
 * changed members, objects merged member by member, lists replaced whole, and null for each member
 * `current` has and `target` has not. Empty when they are equal.
 */
export function mergePatchBetween(current: unknown, target: unknown): Record<string, unknown> {
  const from = isObject(current) ? current : {};
  const to = isObject(target) ? target : {};
  const patch: Record<string, unknown> = {};
  for (const key of Object.keys(from)) {
    if (!Object.hasOwn(to, key)) {
      patch[key] = null;
    }
  }
  for (const [key, value] of Object.entries(to)) {
    const change = memberChange(from[key], value);
    if (change !== undefined) {
      patch[key] = change;
    }
  }
  return patch;
}

/** What the patch says of one member: undefined for no change. */
function memberChange(current: Json | undefined, target: Json): unknown {
  if (isObject(current) && isObject(target)) {
    const nested = mergePatchBetween(current, target);
    return Object.keys(nested).length === 0 ? undefined : nested;
  }
  return current !== undefined && JSON.stringify(current) === JSON.stringify(target) ? undefined : target;
}

/** The rollback's patch: the template's changes, checked against `resourceVersion`. */
export function rollbackPatch(input: {
  readonly resourceVersion: string;
  readonly current: unknown;
  readonly target: unknown;
}): object {
  const template = mergePatchBetween(withoutNulls(input.current), withoutNulls(input.target));
  return { metadata: { resourceVersion: input.resourceVersion }, spec: { template } };
}
