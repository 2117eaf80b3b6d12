import { cloneSetSchema } from '@kruise-ts/api';
import type { CloneSet } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

/** A cached CloneSet as this controller reads it: defaulted, or what makes it unreadable. */
export type ParsedCloneSet = { readonly kind: 'valid'; readonly cloneSet: DeepReadonly<CloneSet> } | { readonly kind: 'invalid'; readonly message: string };

/** Parsed (defaulted) CloneSets per cached object: a cached object never changes, and a rollout reconciles it thousands of times. */
const parsedCloneSets = new WeakMap<DeepReadonly<CloneSet>, ParsedCloneSet>();

/**
 * Validates a cached CloneSet with the API schema (applying its defaults). The API server enforced
 * the CRD already, so a failure means an object this version of the controller cannot handle (a CRD
 * from another version, a rule CEL could not express): reported with the fields zod names, never
 * retried until the object changes.
 */
export function parseCloneSet(cached: DeepReadonly<CloneSet>): ParsedCloneSet {
  const known = parsedCloneSets.get(cached);
  if (known !== undefined) {
    return known;
  }
  const parsed = cloneSetSchema.safeParse(cached);
  const result: ParsedCloneSet = parsed.success
    ? { kind: 'valid', cloneSet: parsed.data }
    : {
        kind: 'invalid',
        message: `${parsed.error.issues.map((issue) => `${issue.path.map(String).join('.')}: ${issue.message}`).join('; ')}: this CloneSet cannot be read by the controller; no pod is created, deleted or updated until it is fixed`,
      };
  parsedCloneSets.set(cached, result);
  return result;
}
