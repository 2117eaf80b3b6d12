/**
 * ConversionReview v1 (apiextensions.k8s.io/v1), as the API server sends it to a CRD's conversion
 * webhook and expects it back: every object of the request in the desired version, in the same order,
 * or a Failure naming the object that could not be converted (the API server then fails the request
 * that needed the conversion; it never stores a half-converted list).
 */
import { z } from 'zod';

export const CONVERSION_REVIEW_API_VERSION = 'apiextensions.k8s.io/v1';

/** The schema of a ConversionReview request body; unknown members are dropped. */
export const conversionReviewSchema = z.object({
  apiVersion: z.literal(CONVERSION_REVIEW_API_VERSION),
  kind: z.literal('ConversionReview'),
  request: z.object({
    uid: z.string().min(1),
    desiredAPIVersion: z.string().min(1),
    objects: z.array(z.unknown()),
  }),
});

/** One conversion request. */
export type ConversionRequest = z.infer<typeof conversionReviewSchema>['request'];

/**
 * How one object is converted: the converted object, or why it cannot be. Must not change its input.
 * `ignoredRecordEntries`: what of the object's own conversion record the converter ignored (counted by
 * the webhook). A converter that throws fails that review, never the process.
 */
export type ObjectConverter = (
  object: unknown,
  desiredAPIVersion: string,
) =>
  | { readonly ok: true; readonly object: unknown; readonly ignoredRecordEntries?: number }
  | { readonly ok: false; readonly message: string };

/** Told what each conversion of a review ignored (the webhook's metric). */
export type ConversionObserver = (kind: string, ignoredRecordEntries: number) => void;

/** The body a conversion webhook answers with. */
export interface ConversionReviewResponse {
  readonly apiVersion: typeof CONVERSION_REVIEW_API_VERSION;
  readonly kind: 'ConversionReview';
  readonly response: {
    readonly uid: string;
    readonly convertedObjects: readonly unknown[];
    readonly result: { readonly status: 'Success' } | { readonly status: 'Failure'; readonly message: string };
  };
}

/** Longer parts of a name are cut in a message: the object is the client's, the message goes to logs and the API server. */
const MAX_NAME_PART = 253;

function part(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value.slice(0, MAX_NAME_PART) : undefined;
}

function kindOf(object: unknown): string {
  return (
    (typeof object === 'object' && object !== null ? part((object as { kind?: unknown }).kind) : undefined) ?? 'object'
  );
}

/** The object as a message names it: its kind and namespace/name, as far as it has them. */
export function describeObject(object: unknown): string {
  if (typeof object !== 'object' || object === null) {
    return 'an object';
  }
  const { metadata } = object as { metadata?: unknown };
  const { name, namespace } = (typeof metadata === 'object' && metadata !== null ? metadata : {}) as {
    name?: unknown;
    namespace?: unknown;
  };
  const named = [part(namespace), part(name)].filter((piece) => piece !== undefined).join('/');
  return `${kindOf(object)} ${named === '' ? '(unnamed)' : JSON.stringify(named)}`;
}

/** A Failure review: the API server fails the request that needed the conversion, with this message. */
export function conversionFailure(uid: string, message: string): ConversionReviewResponse {
  return {
    apiVersion: CONVERSION_REVIEW_API_VERSION,
    kind: 'ConversionReview',
    response: { uid, convertedObjects: [], result: { status: 'Failure', message } },
  };
}

/** One object's conversion; a throw (a bug, or an input deeper than the converter can take) is a failure of that object. */
function convertOne(
  object: unknown,
  request: ConversionRequest,
  convert: ObjectConverter,
): ReturnType<ObjectConverter> {
  try {
    return convert(object, request.desiredAPIVersion);
  } catch (error) {
    return { ok: false, message: `the conversion failed: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** Converts every object of the request; the first failure fails the whole review, as the API server wants. */
export function answerConversionReview(
  request: ConversionRequest,
  convert: ObjectConverter,
  observe?: ConversionObserver,
): ConversionReviewResponse {
  const convertedObjects: unknown[] = [];
  for (const object of request.objects) {
    const result = convertOne(object, request, convert);
    if (!result.ok) {
      return conversionFailure(request.uid, `${describeObject(object)}: ${result.message}`);
    }
    const ignored = result.ignoredRecordEntries ?? 0;
    if (ignored > 0) {
      observe?.(kindOf(object), ignored);
    }
    convertedObjects.push(result.object);
  }
  return {
    apiVersion: CONVERSION_REVIEW_API_VERSION,
    kind: 'ConversionReview',
    response: { uid: request.uid, convertedObjects, result: { status: 'Success' } },
  };
}
