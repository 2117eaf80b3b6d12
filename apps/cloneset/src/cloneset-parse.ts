import { cloneSetSchema } from '@kruise-ts/api';
import type { CloneSet } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { cachedParser } from '@kruise-ts/workload';

/** A cached CloneSet as this controller reads it: defaulted, or what makes it unreadable. */
export type ParsedCloneSet =
  | { readonly kind: 'valid'; readonly cloneSet: DeepReadonly<CloneSet> }
  | { readonly kind: 'invalid'; readonly message: string };

/** The schema's reading of a cached CloneSet, once per object (the webhook reads requests with it too). */
export const parseCloneSetObject = cachedParser<CloneSet>(cloneSetSchema, 'CloneSet');

/** Validates a cached CloneSet with the API schema (applying its defaults), once per cached object. */
export function parseCloneSet(cached: DeepReadonly<CloneSet>): ParsedCloneSet {
  const parsed = parseCloneSetObject(cached);
  return parsed.kind === 'valid' ? { kind: 'valid', cloneSet: parsed.object } : parsed;
}
