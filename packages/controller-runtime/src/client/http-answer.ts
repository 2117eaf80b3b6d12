import { STATUS_CODES } from 'node:http';

import type { Dispatcher } from 'undici';

import { apiErrorFromAnswer } from './api-error.ts';
import type { ApiError } from './api-error.ts';

/** An answer as undici's `request` gives it: status code, headers with lower-case names, a Node.js readable body. */
export type HttpAnswer = Pick<Dispatcher.ResponseData, 'statusCode' | 'headers' | 'body'>;

/** A watch's open answer: what it is encoded in, and its body to read chunk by chunk. */
export interface StreamAnswer {
  readonly contentType: string | undefined;
  readonly body: AsyncIterable<Uint8Array>;
}

/** A header's value; a header sent more than once counts by its first value. */
export function headerOf(answer: HttpAnswer, name: string): string | undefined {
  const value = answer.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export function contentTypeOf(answer: HttpAnswer): string | undefined {
  return headerOf(answer, 'content-type');
}

export function toApiError(answer: HttpAnswer, text: string): ApiError {
  return apiErrorFromAnswer({
    code: answer.statusCode,
    statusText: STATUS_CODES[answer.statusCode] ?? '',
    text,
    retryAfter: headerOf(answer, 'retry-after'),
  });
}
