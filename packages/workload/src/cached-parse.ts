/**
 * Reading a cached workload object with its API schema (defaults applied), once per cached object: a
 * cached object never changes, and a rollout reconciles it thousands of times.
 */
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

/** The part of a zod schema this needs. */
export interface ObjectSchema<T> {
  safeParse(value: unknown):
    | { readonly success: true; readonly data: T }
    | {
        readonly success: false;
        readonly error: {
          readonly issues: readonly { readonly path: readonly PropertyKey[]; readonly message: string }[];
        };
      };
}

/** A cached object as the controller reads it: defaulted, or what makes it unreadable. */
export type ParsedObject<T> =
  { readonly kind: 'valid'; readonly object: DeepReadonly<T> } | { readonly kind: 'invalid'; readonly message: string };

/**
 * A parser of cached objects of one kind, remembering each object's result. The API server enforced
 * the CRD already, so a failure means an object this version of the controller cannot handle (a CRD
 * from another version, a rule CEL could not express): the message names the fields and says that
 * nothing is done until the object is fixed.
 */
export function cachedParser<T extends object>(
  schema: ObjectSchema<T>,
  kind: string,
): (cached: DeepReadonly<T>) => ParsedObject<T> {
  const parsed = new WeakMap<DeepReadonly<T>, ParsedObject<T>>();
  return (cached) => {
    const known = parsed.get(cached);
    if (known !== undefined) {
      return known;
    }
    const result = schema.safeParse(cached);
    const outcome: ParsedObject<T> = result.success
      ? { kind: 'valid', object: result.data as DeepReadonly<T> }
      : {
          kind: 'invalid',
          message: `${result.error.issues.map((issue) => `${issue.path.map(String).join('.')}: ${issue.message}`).join('; ')}: this ${kind} cannot be read by the controller; no pod is created, deleted or updated until it is fixed`,
        };
    parsed.set(cached, outcome);
    return outcome;
  };
}
