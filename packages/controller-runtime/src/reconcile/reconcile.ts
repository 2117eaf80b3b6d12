import type { Logger } from 'pino';

/** Names the object to reconcile: the key a work queue holds. */
export interface Request {
  readonly namespace: string;
  readonly name: string;
}

/** What a reconcile asks for after it succeeded. */
export interface Result {
  /** Reconcile this object again after this many ms even if nothing changes (e.g. minReadySeconds). */
  readonly requeueAfterMs?: number | undefined;
}

/** Per-reconcile context: cancellation, a logger with the object's fields and a unique id. */
export interface ReconcileContext {
  /** Aborts on shutdown or when the reconcile timeout passes. */
  readonly signal: AbortSignal;
  readonly logger: Logger;
  readonly reconcileId: string;
}

/**
 * Level-based reconciliation of one object (controller-runtime's contract): read the current state
 * from caches, act, and return. A thrown error is retried with backoff; a TerminalError is not.
 */
export interface Reconciler {
  reconcile(context: ReconcileContext, request: Request): Promise<Result | undefined>;
}

/**
 * An error that retrying cannot fix (for example an invalid spec): counted and logged, but the request
 * is not requeued; a later change of the object triggers the next attempt.
 */
export class TerminalError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'TerminalError';
  }
}

/** The queue key of a request: `namespace/name` (or `name` for cluster-scoped objects). */
export function requestKey(request: Request): string {
  return request.namespace === '' ? request.name : `${request.namespace}/${request.name}`;
}

/** The request a queue key stands for. */
export function requestFromKey(key: string): Request {
  const slash = key.indexOf('/');
  return slash < 0 ? { namespace: '', name: key } : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}
