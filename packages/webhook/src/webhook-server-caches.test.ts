/**
 * A handler that reads caches is called only once they have synced, within its budget; a replica whose
 * caches do not sync in time answers 503 (no AdmissionReview), so the API server applies the webhook
 * configuration's failurePolicy instead of the handler's own fail-open answer. Routes without caches
 * (and conversion) answer meanwhile. Issue 39: the chart's webhook Services publish not-ready
 * addresses, so a replica that has just started is called before its caches have synced.
 */
import https from 'node:https';

import { afterEach, describe, expect, it } from 'vitest';

import type { ResourceEventHandler } from '@kruise-ts/controller-runtime';
import { createLister } from '@kruise-ts/controller-runtime';
import { Store } from '@kruise-ts/controller-runtime';
import type { KubeObject } from '@kruise-ts/controller-runtime';
import { createLogger } from '@kruise-ts/controller-runtime';
import { allowedResponse } from './admission-review.ts';
import { SelfManagedCertificates } from './self-managed-certificates.ts';
import type { MirroredInformer } from './thread/thread-handler.ts';
import { WebhookServer } from './webhook-server.ts';

const logger = createLogger({ level: 'silent' });
/** Reads its cache without waiting for it: the server must. */
const HANDLER = new URL('../test/fixtures/cache-reading-handler.ts', import.meta.url);
const BUDGET_MS = 600;

class HandFedInformer implements MirroredInformer {
  readonly #store = new Store<KubeObject>();
  readonly #handlers: ResourceEventHandler<KubeObject>[] = [];
  readonly #synced = Promise.withResolvers<boolean>();

  addEventHandler(handler: ResourceEventHandler<KubeObject>): void {
    this.#handlers.push(handler);
  }
  lister(): ReturnType<MirroredInformer['lister']> {
    return createLister(this.#store);
  }
  waitForSync(): Promise<boolean> {
    return this.#synced.promise;
  }
  add(name: string): void {
    const object = { metadata: { name, namespace: 'ns' } };
    this.#store.upsert(object);
    for (const handler of this.#handlers) {
      handler.onAdd?.(object, false);
    }
  }
  sync(): void {
    this.#synced.resolve(true);
  }
}

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

async function serve(
  admissionThread: boolean,
): Promise<{ readonly port: number; readonly ca: string; readonly things: HandFedInformer }> {
  const certificates = new SelfManagedCertificates({ dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'], logger });
  const server = new WebhookServer({
    certificates,
    logger,
    host: '127.0.0.1',
    port: 0,
    requestTimeoutMs: BUDGET_MS,
    admissionThread,
  });
  const things = new HandFedInformer();
  server.registerThreaded('/cached', { module: HANDLER, options: {}, stores: { things } }, { failurePolicy: 'allow' });
  server.register('/uncached', () => Promise.resolve(allowedResponse()), { failurePolicy: 'allow' });
  server.registerConversion('/convert', (object) => ({ ok: true, object: { ...(object as object), converted: true } }));
  const stop = new AbortController();
  const done = server.start(stop.signal);
  stops.push(async () => {
    stop.abort();
    await done;
  });
  return { port: await server.listening(), ca: certificates.caBundle() ?? '', things };
}

function review(uid: string): object {
  return {
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid,
      kind: { group: '', version: 'v1', kind: 'Pod' },
      resource: { group: '', version: 'v1', resource: 'pods' },
      operation: 'CREATE',
      namespace: 'ns',
      userInfo: {},
      object: {},
    },
  };
}

interface Answer {
  readonly status: number;
  readonly body: {
    readonly response?: { readonly allowed: boolean; readonly warnings?: string[] };
    readonly message?: string;
    readonly code?: number;
  };
}

function post(target: { readonly port: number; readonly ca: string }, path: string, body: object): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = https.request(
      {
        host: '127.0.0.1',
        port: target.port,
        path,
        method: 'POST',
        ca: target.ca,
        headers: { 'content-type': 'application/json' },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          resolve({
            status: response.statusCode ?? 0,
            body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Answer['body'],
          });
        });
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify(body));
  });
}

describe.each([
  { mode: 'on the admission thread', admissionThread: true },
  { mode: 'on the main thread', admissionThread: false },
])('a handler that reads caches, $mode', ({ admissionThread }) => {
  it('answers 503 when its caches have not synced within its budget, while the other routes and conversion answer', async () => {
    const target = await serve(admissionThread);
    target.things.add('a');
    const cached = post(target, '/cached', review('1'));
    expect((await post(target, '/uncached', review('2'))).body.response?.allowed).toBe(true);
    const conversion = await post(target, '/convert', {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'ConversionReview',
      request: { uid: '3', desiredAPIVersion: 'v2', objects: [{ a: 1 }] },
    });
    expect(conversion.status).toBe(200);
    const answer = await cached;
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({
      code: 503,
      message: `the webhook /cached is not ready: its caches have not synced within ${String(BUDGET_MS)} ms`,
    });
  }, 30_000);

  it('is called only once its caches have synced, and then sees them', async () => {
    const target = await serve(admissionThread);
    const answer = post(target, '/cached', review('4'));
    await new Promise((resolve) => setTimeout(resolve, BUDGET_MS / 3));
    target.things.add('a');
    target.things.sync();
    expect(await answer).toEqual({
      status: 200,
      body: expect.objectContaining({
        response: expect.objectContaining({ allowed: true, warnings: ['things: a'] }) as unknown,
      }) as unknown,
    });
  }, 30_000);
});
