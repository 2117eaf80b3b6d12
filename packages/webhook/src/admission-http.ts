/** The HTTP side of admission requests: bounded body reads and JSON answers. */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';

/** A request body, or why it was not read to the end. */
export type BodyResult =
  { readonly ok: true; readonly body: Buffer } | { readonly ok: false; readonly message: string };

/**
 * Reads the body up to `maxBytes`. A larger one is refused as soon as it is known to be larger (from
 * Content-Length, else while streaming) without buffering the rest; the caller answers 413 and closes
 * the connection. Rejects when the client goes away mid-body.
 */
export function readBody(request: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  const tooLarge: BodyResult = {
    ok: false,
    message: `the request body is larger than the limit of ${String(maxBytes)} bytes`,
  };
  if (Number(request.headers['content-length'] ?? 0) > maxBytes) {
    return Promise.resolve(tooLarge);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (settle: () => void): void => {
      request.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      settle();
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) {
        request.pause();
        finish(() => {
          resolve(tooLarge);
        });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      finish(() => {
        resolve({ ok: true, body: Buffer.concat(chunks) });
      });
    };
    const onError = (error: Error): void => {
      finish(() => {
        reject(error);
      });
    };
    const onClose = (): void => {
      onError(new Error('the client closed the connection before the request body ended'));
    };
    request.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

/** `application/json`, with or without parameters such as `charset=utf-8`. */
export function isJsonContentType(header: string | undefined): boolean {
  return header?.split(';')[0]?.trim().toLowerCase() === 'application/json';
}

/** The body as JSON, or why it is not JSON. */
export function parseJsonBody(
  body: Buffer,
): { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string } {
  try {
    return { ok: true, value: JSON.parse(body.toString('utf8')) as unknown };
  } catch (error) {
    return {
      ok: false,
      message: `the request body is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

/** An answer: status code, JSON body, extra headers. */
export interface JsonAnswer {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: OutgoingHttpHeaders | undefined;
}

/** Answers with a JSON body; returns the status code (for metrics). */
export function sendJson(response: ServerResponse, answer: JsonAnswer): number {
  const { status, body, headers } = answer;
  if (response.headersSent || response.destroyed) {
    response.end();
    return status;
  }
  const text = JSON.stringify(body);
  response.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
  });
  response.end(text);
  return status;
}

/** An error answer, `{"code": 400, "message": ...}`: the API server logs the body when a webhook call fails. */
export function sendError(
  response: ServerResponse,
  error: { readonly status: number; readonly message: string; readonly headers?: OutgoingHttpHeaders },
): number {
  return sendJson(response, {
    status: error.status,
    body: { code: error.status, message: error.message },
    headers: error.headers,
  });
}
