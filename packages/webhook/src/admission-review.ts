/**
 * AdmissionReview v1 (admission.k8s.io/v1) as the API server sends and expects it, and the answers a
 * handler builds. The request's objects stay `unknown`: each handler parses them with its own schema,
 * so that one shape (a Pod, a ConfigMap, ...) is not forced on every webhook of the process.
 */
import { z } from 'zod';

import type { JsonPatchOperation } from '@kruise-ts/controller-runtime';
import { createJsonPatch } from './json-patch.ts';

export const ADMISSION_API_VERSION = 'admission.k8s.io/v1';

const groupVersionKind = z.object({ group: z.string(), version: z.string(), kind: z.string() });
const groupVersionResource = z.object({ group: z.string(), version: z.string(), resource: z.string() });

const admissionRequestSchema = z.object({
  uid: z.string().min(1),
  kind: groupVersionKind,
  resource: groupVersionResource,
  subResource: z.string().optional(),
  requestKind: groupVersionKind.optional(),
  requestResource: groupVersionResource.optional(),
  requestSubResource: z.string().optional(),
  name: z.string().optional(),
  namespace: z.string().optional(),
  operation: z.enum(['CREATE', 'UPDATE', 'DELETE', 'CONNECT']),
  userInfo: z.object({
    username: z.string().optional(),
    uid: z.string().optional(),
    groups: z.array(z.string()).optional(),
    extra: z.record(z.string(), z.array(z.string())).optional(),
  }),
  object: z.unknown().optional(),
  oldObject: z.unknown().optional(),
  dryRun: z.boolean().optional(),
  options: z.unknown().optional(),
});

/** The schema of an AdmissionReview v1 request body; unknown members are dropped. */
export const admissionReviewSchema = z.object({
  apiVersion: z.literal(ADMISSION_API_VERSION),
  kind: z.literal('AdmissionReview'),
  request: admissionRequestSchema,
});

/** One admission request: what is being done to which object, by whom. */
export type AdmissionRequest = z.infer<typeof admissionRequestSchema>;
/** The operations an admission request is about. */
export type AdmissionOperation = AdmissionRequest['operation'];

/** `metav1.Status` of a denial: the API server shows `message` to the user with `code`. */
export interface AdmissionStatus {
  readonly code: number;
  readonly message: string;
  readonly reason?: string;
}

/** A handler's answer; the server adds the request's uid. */
export interface AdmissionResponse {
  readonly allowed: boolean;
  readonly status?: AdmissionStatus;
  /** Base64 of a JSON Patch (RFC 6902) array. */
  readonly patch?: string;
  readonly patchType?: 'JSONPatch';
  /** Shown to the client (kubectl prints them); keep each under 120 characters. */
  readonly warnings?: readonly string[];
}

/** The body the server answers an AdmissionReview with. */
export interface AdmissionReviewResponse {
  readonly apiVersion: typeof ADMISSION_API_VERSION;
  readonly kind: 'AdmissionReview';
  readonly response: AdmissionResponse & { readonly uid: string };
}

/**
 * Decides one admission request. The signal aborts when the server's time budget is spent, the API
 * server hangs up or the server stops; the answer is then decided by the webhook's failure policy.
 */
export type AdmissionHandler = (request: AdmissionRequest, signal: AbortSignal) => Promise<AdmissionResponse>;

export interface ResponseOptions {
  readonly warnings?: readonly string[] | undefined;
}

export interface DenialOptions extends ResponseOptions {
  /** HTTP-like code shown to the client; 403 by default. */
  readonly code?: number | undefined;
  /** A `metav1.StatusReason`; `Forbidden` by default. */
  readonly reason?: string | undefined;
}

function withWarnings(response: AdmissionResponse, options: ResponseOptions): AdmissionResponse {
  return options.warnings === undefined || options.warnings.length === 0
    ? response
    : { ...response, warnings: [...options.warnings] };
}

/** Lets the request through unchanged. */
export function allowedResponse(options: ResponseOptions = {}): AdmissionResponse {
  return withWarnings({ allowed: true }, options);
}

/** Refuses the request; the API server returns `message` to the client. */
export function deniedResponse(message: string, options: DenialOptions = {}): AdmissionResponse {
  const status: AdmissionStatus = { code: options.code ?? 403, message, reason: options.reason ?? 'Forbidden' };
  return withWarnings({ allowed: false, status }, options);
}

/** Lets the request through with the object changed by `operations` (no patch when there are none). */
export function patchResponse(
  operations: readonly JsonPatchOperation[],
  options: ResponseOptions = {},
): AdmissionResponse {
  if (operations.length === 0) {
    return allowedResponse(options);
  }
  const patch = Buffer.from(JSON.stringify(operations)).toString('base64');
  return withWarnings({ allowed: true, patch, patchType: 'JSONPatch' }, options);
}

/** Lets the request through with the object changed from `original` to `mutated` (controller-runtime's `PatchResponseFromRaw`). */
export function patchResponseFromObjects(
  original: unknown,
  mutated: unknown,
  options: ResponseOptions = {},
): AdmissionResponse {
  return patchResponse(createJsonPatch(original, mutated), options);
}

/** The AdmissionReview answering the request `uid`. */
export function admissionReviewResponse(uid: string, response: AdmissionResponse): AdmissionReviewResponse {
  return { apiVersion: ADMISSION_API_VERSION, kind: 'AdmissionReview', response: { uid, ...response } };
}

/** The request of an AdmissionReview body, or why the body is not one (for a 400 answer). */
export function parseAdmissionReview(
  body: unknown,
): { readonly ok: true; readonly request: AdmissionRequest } | { readonly ok: false; readonly message: string } {
  const parsed = admissionReviewSchema.safeParse(body);
  if (parsed.success) {
    return { ok: true, request: parsed.data.request };
  }
  const issues = parsed.error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length === 0 ? '(root)' : issue.path.join('.')}: ${issue.message}`);
  return {
    ok: false,
    message: `the body is not an ${ADMISSION_API_VERSION} AdmissionReview request: ${issues.join('; ')}`,
  };
}
