/** Errors of the fake API server, shaped as the transport shapes the real server's answers. */
import { ApiError } from '../client/api-error.ts';
import type { StatusCause, StatusReason } from '../client/api-error.ts';

/** What an error answer says. */
export interface FakeApiErrorOptions {
  readonly code: number;
  readonly reason?: StatusReason | undefined;
  readonly message?: string | undefined;
  /** `Status.details.name` and `.kind`: the object the answer is about. */
  readonly name?: string | undefined;
  readonly kind?: string | undefined;
  readonly causes?: readonly StatusCause[] | undefined;
}

/**
 * An `ApiError` with the `Status` body the API server sends, so that `isNotFound`, `isConflict`,
 * `isInvalid`... and `error.causes` behave as with the real server.
 *
 * @example
 * fakeApiError({ code: 403, message: 'pods "web-" is forbidden: exceeded quota: q' })
 */
export function fakeApiError(options: FakeApiErrorOptions): ApiError {
  const details = {
    ...(options.name === undefined ? {} : { name: options.name }),
    ...(options.kind === undefined ? {} : { kind: options.kind }),
    ...(options.causes === undefined ? {} : { causes: options.causes }),
  };
  return new ApiError({
    code: options.code,
    status: {
      kind: 'Status',
      status: 'Failure',
      code: options.code,
      ...(options.reason === undefined ? {} : { reason: options.reason }),
      ...(options.message === undefined ? {} : { message: options.message }),
      ...(Object.keys(details).length === 0 ? {} : { details }),
    },
  });
}

/** 404 for a missing object. */
export function notFound(kind: string, name: string): ApiError {
  return fakeApiError({
    code: 404,
    reason: 'NotFound',
    message: `${kind.toLowerCase()}s "${name}" not found`,
    name,
    kind,
  });
}

/** 409 AlreadyExists for a create of an existing name. */
export function alreadyExists(kind: string, name: string): ApiError {
  return fakeApiError({
    code: 409,
    reason: 'AlreadyExists',
    message: `${kind.toLowerCase()}s "${name}" already exists`,
    name,
    kind,
  });
}

/** 409 Conflict for a stale resourceVersion or a failed precondition. */
export function conflict(kind: string, name: string, why: string): ApiError {
  return fakeApiError({
    code: 409,
    reason: 'Conflict',
    message: `Operation cannot be fulfilled on ${kind.toLowerCase()}s "${name}": ${why}`,
    name,
    kind,
  });
}

/** 422 Invalid for a patch that cannot be applied. */
export function invalid(kind: string, name: string, why: string): ApiError {
  return fakeApiError({ code: 422, reason: 'Invalid', message: `${kind} "${name}" is invalid: ${why}`, name, kind });
}

/** The API server's refusal of a pod creation by a ResourceQuota of no pods (403 Forbidden, "exceeded quota"). */
export function podQuotaExceeded(name: string): ApiError {
  return fakeApiError({
    code: 403,
    reason: 'Forbidden',
    message: `pods "${name}" is forbidden: exceeded quota: pods`,
    name,
    kind: 'pods',
  });
}
