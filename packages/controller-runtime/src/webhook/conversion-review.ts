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

/** How one object is converted: the converted object, or why it cannot be. Must not change its input. */
export type ObjectConverter = (object: unknown, desiredAPIVersion: string) => { readonly ok: true; readonly object: unknown } | { readonly ok: false; readonly message: string };

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

function describe(object: unknown): string {
  if (typeof object !== 'object' || object === null) return 'an object';
  const { kind, metadata } = object as { kind?: unknown; metadata?: { name?: unknown; namespace?: unknown } };
  const name = [metadata?.namespace, metadata?.name].filter((part) => typeof part === 'string' && part !== '').join('/');
  return `${typeof kind === 'string' ? kind : 'object'} ${name === '' ? '(unnamed)' : JSON.stringify(name)}`;
}

/** Converts every object of the request; the first failure fails the whole review, as the API server wants. */
export function answerConversionReview(request: ConversionRequest, convert: ObjectConverter): ConversionReviewResponse {
  const convertedObjects: unknown[] = [];
  for (const object of request.objects) {
    const result = convert(object, request.desiredAPIVersion);
    if (!result.ok) {
      return { apiVersion: CONVERSION_REVIEW_API_VERSION, kind: 'ConversionReview', response: { uid: request.uid, convertedObjects: [], result: { status: 'Failure', message: `${describe(object)}: ${result.message}` } } };
    }
    convertedObjects.push(result.object);
  }
  return { apiVersion: CONVERSION_REVIEW_API_VERSION, kind: 'ConversionReview', response: { uid: request.uid, convertedObjects, result: { status: 'Success' } } };
}
