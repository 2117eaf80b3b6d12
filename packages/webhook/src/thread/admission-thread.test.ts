import { spawnSync } from 'node:child_process';
import https from 'node:https';

import { Registry } from 'prom-client';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { ResourceEventHandler } from '@kruise-ts/controller-runtime';
import { createLister } from '@kruise-ts/controller-runtime';
import { Store } from '@kruise-ts/controller-runtime';
import type { KubeObject } from '@kruise-ts/controller-runtime';
import { createLogger } from '@kruise-ts/controller-runtime';
import { allowedResponse } from '../admission-review.ts';
import { SelfManagedCertificates } from '../self-managed-certificates.ts';
import { WebhookServer } from '../webhook-server.ts';
import type { MirroredInformer } from './thread-handler.ts';

const logger = createLogger({ level: 'silent' });
const FIXTURE = new URL('../../test/fixtures/threaded-handler.ts', import.meta.url);

/** An informer the test feeds by hand. */
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
  remove(name: string): void {
    const object = this.#store.delete(`ns/${name}`);
    for (const handler of this.#handlers) {
      if (object !== undefined) {
        handler.onDelete?.(object);
      }
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

async function serve(admissionThread: boolean): Promise<{
  readonly port: number;
  readonly ca: string;
  readonly things: HandFedInformer;
  readonly registry: Registry;
}> {
  const certificates = new SelfManagedCertificates({ dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'], logger });
  const registry = new Registry();
  const server = new WebhookServer({ certificates, logger, host: '127.0.0.1', port: 0, registry, admissionThread });
  const things = new HandFedInformer();
  server.registerThreaded(
    '/threaded',
    { module: FIXTURE, options: { prefix: 'seen on' }, stores: { things } },
    { failurePolicy: 'allow' },
  );
  server.register('/main', () => Promise.resolve(allowedResponse({ warnings: ['answered by the main thread'] })), {
    failurePolicy: 'allow',
  });
  server.registerConversion('/convert', (object) => ({ ok: true, object: { ...(object as object), converted: true } }));
  const stop = new AbortController();
  const done = server.start(stop.signal);
  stops.push(async () => {
    stop.abort();
    await done;
  });
  return { port: await server.listening(), ca: certificates.caBundle() ?? '', things, registry };
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

async function post(
  target: { readonly port: number; readonly ca: string },
  path: string,
  body: object,
): Promise<{ response?: { uid: string; allowed: boolean; warnings?: string[] }; convertedObjects?: unknown[] }> {
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
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as never);
        });
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify(body));
  });
}

describe('the admission thread', () => {
  it('runs a threaded handler on its own thread with mirrors of the caches it names, and hands the other routes to the main thread', async () => {
    const target = await serve(true);
    target.things.add('a');
    target.things.add('b');
    target.things.sync();
    expect((await post(target, '/threaded', review('1'))).response).toMatchObject({
      uid: '1',
      allowed: true,
      warnings: ['seen on admission: a,b'],
    });
    target.things.remove('a');
    target.things.add('c');
    // The mirror follows by message, the request comes by socket: on a busy machine the thread may
    // answer one request before it has read the changes, as a cache lags its watch.
    await vi.waitFor(async () => {
      expect((await post(target, '/threaded', review('2'))).response?.warnings).toEqual(['seen on admission: b,c']);
    });
    expect((await post(target, '/main', review('3'))).response).toMatchObject({
      uid: '3',
      allowed: true,
      warnings: ['answered by the main thread'],
    });
    const conversion = await post(target, '/convert', {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'ConversionReview',
      request: { uid: '4', desiredAPIVersion: 'v2', objects: [{ a: 1 }] },
    });
    expect(conversion).toMatchObject({
      response: { uid: '4', convertedObjects: [{ a: 1, converted: true }], result: { status: 'Success' } },
    });
    // The thread reports a request after answering it, so its count may arrive a moment after the answer.
    await vi.waitFor(async () => {
      const metrics = await target.registry.getSingleMetricAsString('controller_runtime_webhook_requests_total');
      expect(metrics).toMatch(/controller_runtime_webhook_requests_total\{webhook="\/threaded",code="200"\} [2-9]/);
      expect(metrics).toContain('controller_runtime_webhook_requests_total{webhook="/convert",code="200"} 1');
    });
  }, 30_000);

  it('answers a threaded handler while the main thread is blocked, which the main thread alone cannot', async () => {
    const threaded = await serve(true);
    const alone = await serve(false);
    for (const target of [threaded, alone]) {
      target.things.sync();
      // Answered once the thread has heard that its caches synced (the main thread posts that in a moment).
      expect((await post(target, '/threaded', review('0'))).response?.warnings).toHaveLength(1);
    }
    // spawnSync blocks this (the main) thread until the child has its answer or gives up after 3 s.
    const ask = (target: { readonly port: number; readonly ca: string }): string => {
      const script = `const r=require('node:https').request({host:'127.0.0.1',port:${String(target.port)},path:'/threaded',method:'POST',ca:process.env.CA,headers:{'content-type':'application/json'},timeout:3000},(s)=>{let b='';s.on('data',(c)=>b+=c);s.on('end',()=>{process.stdout.write(JSON.parse(b).response.warnings[0])})});r.on('timeout',()=>{process.stdout.write('no answer');process.exit(0)});r.end(process.env.BODY)`;
      return spawnSync(process.execPath, ['-e', script], {
        encoding: 'utf8',
        env: { ...process.env, CA: target.ca, BODY: JSON.stringify(review('5')) },
      }).stdout;
    };
    expect(ask(threaded)).toBe('seen on admission: ');
    expect(ask(alone)).toBe('no answer');
  }, 30_000);

  it('waits for the mirrored caches to sync before the handler answers', async () => {
    const target = await serve(true);
    target.things.add('x');
    const answer = post(target, '/threaded', review('6'));
    const early = await Promise.race([
      answer.then(() => 'answered'),
      new Promise((resolve) => setTimeout(resolve, 300, 'waiting')),
    ]);
    target.things.sync();
    expect([early, (await answer).response?.warnings]).toEqual(['waiting', ['seen on admission: x']]);
  }, 30_000);
});
