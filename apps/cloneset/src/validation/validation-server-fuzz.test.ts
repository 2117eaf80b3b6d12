/**
 * The CloneSet validation webhook behind a real webhook server, under what a broken or hostile client
 * might send: the process must answer every request (400, 413, or an AdmissionReview that allows or
 * denies with a code and a message) and keep serving. The dry runs accept everything, so that every
 * denial here comes from reading the request, not from the API server.
 */
import https from 'node:https';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createLogger } from '@kruise-ts/controller-runtime';
import { SelfManagedCertificates, WebhookServer } from '@kruise-ts/webhook';
import { fuzzAdmissionBody, isJsonError, postAdmissionReview } from '@kruise-ts/webhook/testing';
import { seededRandom } from '@kruise-ts/controller-runtime/testing';
import type { AdmissionAnswer, AdmissionTarget } from '@kruise-ts/webhook/testing';
import { TemplateValidator, validationHandler } from '@kruise-ts/template-validation';

import { cloneSetValidation } from './cloneset-validation.ts';
import { CLONESET_VALIDATION_WEBHOOK } from './setup-webhook.ts';

const logger = createLogger({ level: 'silent' });
const PATH = CLONESET_VALIDATION_WEBHOOK.path;

const container = { name: 'main', image: 'nginx:1.25' };

function cloneSet(podSpec: object, annotations: Record<string, string> = {}): object {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name: 'web', namespace: 'ns', annotations },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: podSpec },
    },
  };
}

function review(uid: string, object: object): object {
  return {
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid,
      kind: { group: 'apps.kruise.io', version: 'v1alpha1', kind: 'CloneSet' },
      resource: { group: 'apps.kruise.io', version: 'v1alpha1', resource: 'clonesets' },
      name: 'web',
      namespace: 'ns',
      operation: 'CREATE',
      userInfo: { username: 'u', groups: ['g'] },
      object,
    },
  };
}

const valid = review('fuzz', cloneSet({ containers: [container] }));

interface ReviewBody {
  readonly kind?: unknown;
  readonly response?: {
    readonly uid?: unknown;
    readonly allowed?: unknown;
    readonly status?: { readonly code?: unknown; readonly message?: unknown };
  };
}

/** A 200 AdmissionReview answering `uid` that allows, or denies with 400 or 422 and a message. */
function isVerdictFor(uid: unknown, answer: AdmissionAnswer): boolean {
  const body = answer.body as ReviewBody;
  const response = body.response;
  if (answer.status !== 200 || body.kind !== 'AdmissionReview' || typeof uid !== 'string' || response?.uid !== uid) {
    return false;
  }
  if (response.allowed === true) {
    return response.status === undefined;
  }
  const status = response.status;
  return (
    response.allowed === false &&
    (status?.code === 400 || status?.code === 422) &&
    typeof status.message === 'string' &&
    status.message.length > 0
  );
}

/** The uid a body carries, when it is JSON; a 200 must answer with it. */
function uidOf(body: Buffer): unknown {
  try {
    return (JSON.parse(body.toString('utf8')) as { request?: { uid?: unknown } } | null)?.request?.uid;
  } catch {
    return undefined;
  }
}

const DEEP = 20_000;
const DEEP_MARKER = 'deep nesting goes here';

/** `object`'s review as JSON, with 20,000 nested arrays in place of the marker: built as text, since JSON.stringify would itself run out of stack. */
function deepBody(uid: string, podSpec: object): Buffer {
  const text = JSON.stringify(review(uid, cloneSet(podSpec)));
  return Buffer.from(text.replace(JSON.stringify(DEEP_MARKER), `${'['.repeat(DEEP)}${']'.repeat(DEEP)}`));
}

describe('CloneSet validation webhook server under malformed input', () => {
  const stop = new AbortController();
  const agent = new https.Agent({ keepAlive: true, maxSockets: 8 });
  let done: Promise<void> = Promise.resolve();
  let target: AdmissionTarget;

  beforeAll(async () => {
    const certificates = new SelfManagedCertificates({ dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'], logger });
    const server = new WebhookServer({ certificates, logger, host: '127.0.0.1', port: 0 });
    const validator = new TemplateValidator({
      dryRun: { createPod: () => Promise.resolve(), createClaim: () => Promise.resolve() },
    });
    server.register(
      PATH,
      validationHandler(cloneSetValidation({ shortHash: false, reCreateWithoutReadinessGates: false }), validator),
      { failurePolicy: 'allow' },
    );
    done = server.start(stop.signal);
    const port = await server.listening();
    target = { port, ca: certificates.caBundle() ?? '', agent };
  });

  afterAll(async () => {
    agent.destroy();
    stop.abort();
    await done;
  });

  it('answers 500 random and malformed bodies around a valid review with 400 or a verdict on their uid', async () => {
    const random = seededRandom(7);
    const tally = { 400: 0, allowed: 0, denied: 0 };
    for (let batch = 0; batch < 50; batch++) {
      const bodies = Array.from({ length: 10 }, () => fuzzAdmissionBody(random, valid));
      const answers = await Promise.all(bodies.map((body) => postAdmissionReview(target, PATH, body)));
      answers.forEach((answer, i) => {
        const uid = uidOf(bodies[i] ?? Buffer.alloc(0));
        expect(answer).toSatisfy((value: AdmissionAnswer) => isJsonError(value, 400) || isVerdictFor(uid, value));
        const allowed = (answer.body as ReviewBody).response?.allowed;
        tally[answer.status === 400 ? 400 : allowed === true ? 'allowed' : 'denied'] += 1;
      });
    }
    expect(tally[400] + tally.allowed + tally.denied).toBe(500);
    expect(tally[400]).toBeGreaterThan(100);
    expect(tally.allowed).toBeGreaterThan(10);
    expect(tally.denied).toBeGreaterThan(10);
  }, 60_000);

  it('refuses a review over the 3 MiB limit with 413 and a JSON message', async () => {
    const body = Buffer.from(
      JSON.stringify(review('big', cloneSet({ containers: [container] }, { big: 'x'.repeat(4 * 1024 * 1024) }))),
    );
    const answer = await postAdmissionReview(target, PATH, body);
    expect(answer).toSatisfy((value: AdmissionAnswer) => isJsonError(value, 413));
    expect(answer.body).toMatchObject({ message: expect.stringContaining('larger than the limit') as unknown });
  });

  it.each([
    ['an unknown field of the pod spec', { containers: [container], x: DEEP_MARKER }],
    ['the args of a container', { containers: [{ ...container, args: DEEP_MARKER }] }],
    ['a volume', { containers: [container], volumes: [{ name: 'data', emptyDir: DEEP_MARKER }] }],
  ])('answers a template with 20,000-deep nested arrays in %s with a verdict', async (_name, podSpec) => {
    const answer = await postAdmissionReview(target, PATH, deepBody('deep', podSpec));
    expect(answer).toSatisfy((value: AdmissionAnswer) => isVerdictFor('deep', value));
  });

  it('still allows the valid review afterwards', async () => {
    const answer = await postAdmissionReview(target, PATH, Buffer.from(JSON.stringify(valid)));
    expect(answer).toMatchObject({
      status: 200,
      body: { kind: 'AdmissionReview', response: { uid: 'fuzz', allowed: true } },
    });
  });
});
