/**
 * The object of an admission request, read with the app's own parser (the API schema with its
 * defaults, as the controller reads it). The request's object is anything a client sent: what is not
 * even an object is refused before the parser sees it.
 *
 * A kind served in several versions is validated in every one of them (the webhook is registered for
 * each, so that the API server never needs the conversion webhook, served by the same app, to call it:
 * a write while the app is down is then admitted by the webhook's failurePolicy instead of failing on
 * the conversion). The object is converted here, by the same conversion the CRD's webhook applies, into
 * the version the app reads, so a request is judged alike in either version.
 */
import { convertObject } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import type { ParsedObject } from '@kruise-ts/workload';

import type { ParsedWorkload } from './validation-handler.ts';

/** `object` in `apiVersion`: as it is when it is in it already, converted otherwise. */
function inVersion(
  object: object,
  apiVersion: string,
): { readonly ok: true; readonly object: object } | { readonly ok: false; readonly message: string } {
  if ((object as { readonly apiVersion?: unknown }).apiVersion === apiVersion) {
    return { ok: true, object };
  }
  const converted = convertObject(object, apiVersion);
  return converted.ok
    ? { ok: true, object: converted.object }
    : { ok: false, message: `it cannot be converted to ${apiVersion}: ${converted.message}` };
}

/**
 * The parser of a kind's admission requests; `readAs` (e.g. `apps.kruise.io/v1beta1`) for a kind served
 * in several versions: the version the app reads, into which an object in another version is converted.
 */
export function admissionParser<T>(
  kind: string,
  parse: (object: DeepReadonly<T>) => ParsedObject<T>,
  readAs?: string,
): (object: unknown) => ParsedWorkload<DeepReadonly<T>> {
  return (object) => {
    if (typeof object !== 'object' || object === null || Array.isArray(object)) {
      return { ok: false, message: `the request carries no ${kind} object` };
    }
    const read = readAs === undefined ? { ok: true as const, object } : inVersion(object, readAs);
    if (!read.ok) {
      return read;
    }
    const parsed = parse(read.object as DeepReadonly<T>);
    return parsed.kind === 'valid' ? { ok: true, value: parsed.object } : { ok: false, message: parsed.message };
  };
}
