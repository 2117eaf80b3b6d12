import { randomBytes } from 'node:crypto';
import https from 'node:https';

import { describe, expect, it } from 'vitest';

import { pick, seededRandom } from '../testing/seeded-random.ts';
import type { Random } from '../testing/seeded-random.ts';

import { createLogger } from '../log/logger.ts';
import { patchResponseFromObjects } from './admission-review.ts';
import { SelfManagedCertificates } from './self-managed-certificates.ts';
import { WebhookServer } from './webhook-server.ts';

const logger = createLogger({ level: 'silent' });

const valid = {
  apiVersion: 'admission.k8s.io/v1',
  kind: 'AdmissionReview',
  request: {
    uid: 'fuzz',
    kind: { group: '', version: 'v1', kind: 'Pod' },
    resource: { group: '', version: 'v1', resource: 'pods' },
    operation: 'CREATE',
    userInfo: { username: 'u', groups: ['g'] },
    namespace: 'ns',
    object: { metadata: { name: 'p', labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
  },
};

const ODD_VALUES: readonly unknown[] = [null, true, 0, -1, 1e308, '', 'x'.repeat(300), [], {}, [null], { uid: 1 }, '\u0000\uffff', { __proto__: { a: 1 } }];

/** A copy of `value` with one member at a random depth replaced by an odd value or deleted. */
function corrupt(random: Random, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || random() < 0.2) {
    return pick(random, ODD_VALUES);
  }
  if (Array.isArray(value)) {
    return (value as unknown[]).map((item) => (random() < 0.5 ? corrupt(random, item) : item));
  }
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  const key = pick(random, Object.keys(copy).concat(['extra']));
  if (random() < 0.3) {
    Reflect.deleteProperty(copy, key);
  } else {
    copy[key] = corrupt(random, copy[key]);
  }
  return copy;
}

/** Random bytes, truncated or corrupted reviews, deep nesting, odd JSON: what a broken client might send. */
function fuzzBody(random: Random): Buffer {
  const text = JSON.stringify(valid);
  switch (Math.floor(random() * 6)) {
    case 0:
      return randomBytes(Math.floor(random() * 2000));
    case 1:
      return Buffer.from(text.slice(0, Math.floor(random() * text.length)));
    case 2:
      return Buffer.from(JSON.stringify(corrupt(random, valid)));
    case 3:
      return Buffer.from('['.repeat(Math.floor(random() * 20_000)));
    case 4:
      return Buffer.from(JSON.stringify(pick(random, ODD_VALUES)));
    default: {
      const at = Math.floor(random() * text.length);
      return Buffer.from(text.slice(0, at) + String.fromCharCode(Math.floor(random() * 128)) + text.slice(at + 1));
    }
  }
}

interface Target {
  readonly port: number;
  readonly ca: string;
  readonly agent: https.Agent;
}

function post(target: Target, body: Buffer): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const request = https.request({ host: '127.0.0.1', path: '/mutate', method: 'POST', ...target, headers: { 'Content-Type': 'application/json' } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) as unknown });
      });
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** A 400 with a JSON message, or a 200 with an AdmissionReview answering a uid. */
function isReviewOr400(answer: { status: number; body: unknown }): boolean {
  const body = answer.body as { kind?: unknown; message?: unknown; code?: unknown; response?: { uid?: unknown; allowed?: unknown } };
  if (answer.status === 200) {
    return body.kind === 'AdmissionReview' && typeof body.response?.uid === 'string' && body.response.allowed === true;
  }
  return answer.status === 400 && body.code === 400 && typeof body.message === 'string';
}

describe('WebhookServer under malformed input', () => {
  it('answers 500 random and malformed bodies with 400 or an AdmissionReview, and keeps serving', async () => {
    const certificates = new SelfManagedCertificates({ dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'], logger });
    const server = new WebhookServer({ certificates, logger, host: '127.0.0.1', port: 0 });
    server.register('/mutate', (request) => Promise.resolve(patchResponseFromObjects(request.object, { ...(request.object as object), fuzzed: true })), { failurePolicy: 'allow' });
    const stop = new AbortController();
    const done = server.start(stop.signal);
    const port = await server.listening();
    const ca = certificates.caBundle() ?? '';
    const agent = new https.Agent({ keepAlive: true, maxSockets: 8 });
    const target = { port, ca, agent };
    const random = seededRandom(42);
    const statuses = new Map<number, number>();
    try {
      for (let batch = 0; batch < 50; batch++) {
        const answers = await Promise.all(Array.from({ length: 10 }, () => post(target, fuzzBody(random))));
        for (const answer of answers) {
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          expect(answer).toSatisfy(isReviewOr400);
        }
      }
      expect([...statuses.values()].reduce((a, b) => a + b, 0)).toBe(500);
      expect(statuses.get(400)).toBeGreaterThan(100);
      expect(statuses.get(200)).toBeGreaterThan(10);
      expect((await post(target, Buffer.from(JSON.stringify(valid)))).body).toMatchObject({ response: { uid: 'fuzz', allowed: true, patchType: 'JSONPatch' } });
    } finally {
      agent.destroy();
      stop.abort();
      await done;
    }
  });
});
