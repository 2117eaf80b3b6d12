import https from 'node:https';

import { describe, expect, it } from 'vitest';

import { fuzzAdmissionBody, isJsonError, postAdmissionReview } from './testing/admission-fuzz.ts';
import type { AdmissionAnswer } from './testing/admission-fuzz.ts';
import { seededRandom } from '@kruise-ts/controller-runtime/testing';

import { createLogger } from '@kruise-ts/controller-runtime';
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

/** A 400 with a JSON message, or a 200 with an AdmissionReview answering a uid. */
function isReviewOr400(answer: AdmissionAnswer): boolean {
  if (answer.status === 200) {
    const body = answer.body as { kind?: unknown; response?: { uid?: unknown; allowed?: unknown } };
    return body.kind === 'AdmissionReview' && typeof body.response?.uid === 'string' && body.response.allowed === true;
  }
  return isJsonError(answer, 400);
}

describe('WebhookServer under malformed input', () => {
  it('answers 500 random and malformed bodies with 400 or an AdmissionReview, and keeps serving', async () => {
    const certificates = new SelfManagedCertificates({ dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'], logger });
    const server = new WebhookServer({ certificates, logger, host: '127.0.0.1', port: 0 });
    server.register(
      '/mutate',
      (request) =>
        Promise.resolve(patchResponseFromObjects(request.object, { ...(request.object as object), fuzzed: true })),
      { failurePolicy: 'allow' },
    );
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
        const answers = await Promise.all(
          Array.from({ length: 10 }, () => postAdmissionReview(target, '/mutate', fuzzAdmissionBody(random, valid))),
        );
        for (const answer of answers) {
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          expect(answer).toSatisfy(isReviewOr400);
        }
      }
      expect([...statuses.values()].reduce((a, b) => a + b, 0)).toBe(500);
      expect(statuses.get(400)).toBeGreaterThan(100);
      expect(statuses.get(200)).toBeGreaterThan(10);
      expect((await postAdmissionReview(target, '/mutate', Buffer.from(JSON.stringify(valid)))).body).toMatchObject({
        response: { uid: 'fuzz', allowed: true, patchType: 'JSONPatch' },
      });
    } finally {
      agent.destroy();
      stop.abort();
      await done;
    }
  });
});
