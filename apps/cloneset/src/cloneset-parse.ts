import { cloneSetSchema } from '@kruise-ts/api';
import type { CloneSet } from '@kruise-ts/api';
import { cachedParser } from '@kruise-ts/workload';

/** The schema's reading of a cached CloneSet, once per object (the webhook reads requests with it too). */
export const parseCloneSetObject = cachedParser<CloneSet>(cloneSetSchema, 'CloneSet');
