/** The messages between the main thread and the admission thread (structured-cloned, never from outside the process). */
import type { AdmissionRequest, AdmissionResponse } from '../admission-review.ts';
import type { ConversionRequest, ConversionReviewResponse } from '../conversion-review.ts';
import type { FailurePolicy } from '../invoke-handler.ts';

/**
 * The deepest object a request or an answer hands across: a structured clone about 1,600 levels
 * deep is written but cannot be read on the other side, which drops the message (a `messageerror`)
 * and leaves its request waiting for ever; a deeper object is answered where it is instead.
 */
export const MAX_MESSAGE_DEPTH = 1000;

/** A route as the admission thread serves it. */
export type ThreadRoute =
  | {
      readonly kind: 'threaded';
      readonly path: string;
      readonly module: string;
      readonly options: unknown;
      readonly stores: readonly string[];
      readonly failurePolicy: FailurePolicy;
      readonly timeoutMs?: number | undefined;
    }
  | {
      readonly kind: 'forwarded-admission';
      readonly path: string;
      readonly failurePolicy: FailurePolicy;
      readonly timeoutMs?: number | undefined;
    }
  | { readonly kind: 'forwarded-conversion'; readonly path: string };

/** What the admission thread starts with (its `workerData`). */
export interface AdmissionThreadData {
  readonly marker: 'kruise-ts-admission-thread';
  readonly routes: readonly ThreadRoute[];
  readonly host?: string | undefined;
  readonly port: number;
  readonly requestTimeoutMs: number;
  readonly maxRequestBytes: number;
  readonly logLevel: string;
  readonly logBindings: Readonly<Record<string, unknown>>;
}

export type ToThread =
  | { readonly type: 'certificate'; readonly certPem: string; readonly keyPem: string }
  | { readonly type: 'upsert'; readonly store: string; readonly object: unknown }
  | { readonly type: 'delete'; readonly store: string; readonly key: string }
  | { readonly type: 'synced'; readonly store: string }
  | { readonly type: 'admitted'; readonly id: number; readonly response: AdmissionResponse }
  /** `unavailable`: the handler threw a WebhookUnavailableError (the replica cannot answer yet). */
  | {
      readonly type: 'admit-failed';
      readonly id: number;
      readonly message: string;
      readonly unavailable?: boolean | undefined;
    }
  | { readonly type: 'converted'; readonly id: number; readonly response: ConversionReviewResponse }
  | { readonly type: 'stop' };

export type FromThread =
  | { readonly type: 'listening'; readonly port: number }
  | { readonly type: 'failed'; readonly message: string }
  | { readonly type: 'admit'; readonly id: number; readonly path: string; readonly request: AdmissionRequest }
  | { readonly type: 'convert'; readonly id: number; readonly path: string; readonly request: ConversionRequest }
  | { readonly type: 'started'; readonly path: string }
  | { readonly type: 'finished'; readonly path: string; readonly code: number; readonly seconds: number }
  | { readonly type: 'stopped' };
