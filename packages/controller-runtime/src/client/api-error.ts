/** One cause of a failed request, as the apiserver reports it (`Status.details.causes`). */
export interface StatusCause {
  readonly reason?: string;
  readonly message?: string;
  readonly field?: string;
}

/** The `Status` body the apiserver returns with an error. */
export interface StatusBody {
  readonly kind?: string;
  readonly status?: string;
  readonly message?: string;
  readonly reason?: string;
  readonly code?: number;
  readonly details?: {
    readonly name?: string;
    readonly group?: string;
    readonly kind?: string;
    readonly causes?: readonly StatusCause[];
    readonly retryAfterSeconds?: number;
  };
}

/** The apiserver's `Status.reason` values this runtime distinguishes. */
export type StatusReason =
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Invalid'
  | 'TooManyRequests'
  | 'Gone'
  | 'Expired'
  | 'Forbidden'
  | 'Unauthorized'
  | 'BadRequest'
  | 'MethodNotAllowed'
  | 'Timeout'
  | 'ServiceUnavailable'
  | 'InternalError'
  | 'Unknown';

const REASON_BY_CODE: Readonly<Record<number, StatusReason>> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  409: 'Conflict',
  410: 'Gone',
  422: 'Invalid',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
  504: 'Timeout',
};

const KNOWN_REASONS = new Set<string>(Object.values(REASON_BY_CODE).concat(['AlreadyExists', 'Expired', 'Unknown']));

/**
 * An error answer of the apiserver. Code paths branch on `reason` (or the predicates below), the way
 * client-go's `apierrors.IsNotFound` and friends are used, never on message text.
 */
export class ApiError extends Error {
  readonly code: number;
  readonly reason: StatusReason;
  readonly status: StatusBody | undefined;
  /** Field-level causes of an Invalid error, e.g. `spec.replicas`. */
  readonly causes: readonly StatusCause[];
  /** Seconds the server asked to wait before retrying (429, 503), when it said so. */
  readonly retryAfterSeconds: number | undefined;

  constructor(options: {
    code: number;
    status?: StatusBody | undefined;
    message?: string;
    retryAfterSeconds?: number | undefined;
  }) {
    const reason = reasonOf(options.code, options.status);
    super(options.status?.message ?? options.message ?? `request failed with HTTP ${String(options.code)} (${reason})`);
    this.name = 'ApiError';
    this.code = options.code;
    this.reason = reason;
    this.status = options.status;
    this.causes = options.status?.details?.causes ?? [];
    this.retryAfterSeconds = options.retryAfterSeconds ?? options.status?.details?.retryAfterSeconds;
  }
}

/** An answer's parts, whatever HTTP client received it. */
export interface ErrorAnswer {
  readonly code: number;
  readonly statusText: string;
  /** The body: a Status object when the API server sent one. */
  readonly text: string;
  /** The Retry-After header, when there was one. */
  readonly retryAfter: string | null | undefined;
}

/** The ApiError of a non-2xx answer of the API server. */
export function apiErrorFromAnswer(answer: ErrorAnswer): ApiError {
  let status: StatusBody | undefined;
  try {
    const parsed = JSON.parse(answer.text) as StatusBody;
    status = parsed.kind === 'Status' ? parsed : undefined;
  } catch {
    status = undefined;
  }
  const retryAfter = Number(answer.retryAfter ?? Number.NaN);
  return new ApiError({
    code: answer.code,
    status,
    message: answer.text.slice(0, 500) || answer.statusText,
    retryAfterSeconds: Number.isFinite(retryAfter) ? retryAfter : undefined,
  });
}

function reasonOf(code: number, status: StatusBody | undefined): StatusReason {
  const declared = status?.reason;
  if (declared !== undefined && KNOWN_REASONS.has(declared)) {
    return declared as StatusReason;
  }
  return REASON_BY_CODE[code] ?? 'Unknown';
}

function hasReason(error: unknown, ...reasons: StatusReason[]): boolean {
  return error instanceof ApiError && reasons.includes(error.reason);
}

/** The object does not exist. */
export const isNotFound = (error: unknown): boolean => hasReason(error, 'NotFound');
/** A create collided with an existing object. */
export const isAlreadyExists = (error: unknown): boolean => hasReason(error, 'AlreadyExists');
/** An update lost an optimistic-concurrency race (stale resourceVersion). */
export const isConflict = (error: unknown): boolean => hasReason(error, 'Conflict');
/** The object failed validation; `causes` name the fields. */
export const isInvalid = (error: unknown): boolean => hasReason(error, 'Invalid');
/** The server throttled the request (API Priority and Fairness, or max-inflight). */
export const isTooManyRequests = (error: unknown): boolean => hasReason(error, 'TooManyRequests');
/** A watch or list continuation refers to a resourceVersion the server has compacted away. */
export const isGone = (error: unknown): boolean => hasReason(error, 'Gone', 'Expired');
/** The identity may not do this (RBAC). */
export const isForbidden = (error: unknown): boolean => hasReason(error, 'Forbidden');
