/**
 * Fuzzing of admission webhooks over HTTPS: bodies a broken or hostile client might send, built
 * around a valid AdmissionReview, and a POST that returns the answer whatever its status.
 */
import { randomBytes } from 'node:crypto';
import https from 'node:https';

import { pick } from '@kruise-ts/controller-runtime/testing';
import type { Random } from '@kruise-ts/controller-runtime/testing';

/** JSON values that decoders tend to mishandle: wrong types, extremes, empty and prototype-polluting shapes. */
const ODD_JSON_VALUES: readonly unknown[] = [
  null,
  true,
  0,
  -1,
  1e308,
  '',
  'x'.repeat(300),
  [],
  {},
  [null],
  { uid: 1 },
  '\u0000\uffff',
  { __proto__: { a: 1 } },
];

/** A copy of `value` with one member at a random depth replaced by an odd value or deleted. */
export function corruptJson(random: Random, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || random() < 0.2) {
    return pick(random, ODD_JSON_VALUES);
  }
  if (Array.isArray(value)) {
    return (value as unknown[]).map((item) => (random() < 0.5 ? corruptJson(random, item) : item));
  }
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  const key = pick(random, Object.keys(copy).concat(['extra']));
  if (random() < 0.3) {
    Reflect.deleteProperty(copy, key);
  } else {
    copy[key] = corruptJson(random, copy[key]);
  }
  return copy;
}

/**
 * A body around `validReview`: random bytes, a truncated or corrupted review, deep `[` nesting, odd
 * JSON, or one character replaced. The random bytes do not come from `random`: they need not
 * reproduce, since every answer is checked the same way whatever the bytes.
 */
export function fuzzAdmissionBody(random: Random, validReview: unknown): Buffer {
  const text = JSON.stringify(validReview);
  switch (Math.floor(random() * 6)) {
    case 0:
      return randomBytes(Math.floor(random() * 2000));
    case 1:
      return Buffer.from(text.slice(0, Math.floor(random() * text.length)));
    case 2:
      return Buffer.from(JSON.stringify(corruptJson(random, validReview)));
    case 3:
      return Buffer.from('['.repeat(Math.floor(random() * 20_000)));
    case 4:
      return Buffer.from(JSON.stringify(pick(random, ODD_JSON_VALUES)));
    default: {
      const at = Math.floor(random() * text.length);
      return Buffer.from(text.slice(0, at) + String.fromCharCode(Math.floor(random() * 128)) + text.slice(at + 1));
    }
  }
}

/** A webhook server on 127.0.0.1: its port, the CA that signed its certificate, and the agent to reuse connections with. */
export interface AdmissionTarget {
  readonly port: number;
  readonly ca: string;
  readonly agent: https.Agent;
}

/** An HTTP answer with its body read as JSON. */
export interface AdmissionAnswer {
  readonly status: number;
  readonly body: unknown;
}

/** POSTs `body` as `application/json` to `path`; rejects when the answer is not JSON or the connection fails. */
export function postAdmissionReview(target: AdmissionTarget, path: string, body: Buffer): Promise<AdmissionAnswer> {
  return new Promise((resolve, reject) => {
    const request = https.request(
      { host: '127.0.0.1', path, method: 'POST', ...target, headers: { 'Content-Type': 'application/json' } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          try {
            resolve({
              status: response.statusCode ?? 0,
              body: JSON.parse(Buffer.concat(chunks).toString()) as unknown,
            });
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** An error answer of the webhook server: `status`, with a `{"code": status, "message": ...}` body. */
export function isJsonError(answer: AdmissionAnswer, status: number): boolean {
  const body = answer.body as { code?: unknown; message?: unknown } | null;
  return answer.status === status && body?.code === status && typeof body.message === 'string';
}
