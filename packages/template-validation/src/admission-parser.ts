/**
 * The object of an admission request, read with the app's own parser (the API schema with its
 * defaults, as the controller reads it). The request's object is anything a client sent: what is not
 * even an object is refused before the parser sees it.
 */
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import type { ParsedObject } from '@kruise-ts/workload';

import type { ParsedWorkload } from './validation-handler.ts';

export function admissionParser<T>(kind: string, parse: (object: DeepReadonly<T>) => ParsedObject<T>): (object: unknown) => ParsedWorkload<DeepReadonly<T>> {
  return (object) => {
    if (typeof object !== 'object' || object === null || Array.isArray(object)) {
      return { ok: false, message: `the request carries no ${kind} object` };
    }
    const parsed = parse(object as DeepReadonly<T>);
    return parsed.kind === 'valid' ? { ok: true, value: parsed.object } : { ok: false, message: parsed.message };
  };
}
