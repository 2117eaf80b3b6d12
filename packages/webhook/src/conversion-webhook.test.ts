/**
 * The conversion webhook under objects that a conversion cannot take (issue 38), served from the main
 * thread and from the admission thread: every request gets a ConversionReview (a Failure naming the
 * object when it cannot be converted), the process goes on and answers the next request, and what
 * conversions ignore in the objects' conversion records is counted.
 */
import https from 'node:https';

import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { conversionAnnotation, convertObject } from '@kruise-ts/api';

import { createLister } from '@kruise-ts/controller-runtime';
import { Store } from '@kruise-ts/controller-runtime';
import type { KubeObject } from '@kruise-ts/controller-runtime';
import { createLogger } from '@kruise-ts/controller-runtime';
import { SelfManagedCertificates } from './self-managed-certificates.ts';
import type { MirroredInformer } from './thread/thread-handler.ts';
import { WebhookServer } from './webhook-server.ts';

const logger = createLogger({ level: 'silent' });
const FIXTURE = new URL('../test/fixtures/threaded-handler.ts', import.meta.url);
const A = 'apps.kruise.io/v1alpha1';
const B = 'apps.kruise.io/v1beta1';

/** An empty cache, synced: the admission thread runs only with a threaded route, which names one. */
const emptyInformer: MirroredInformer = {
  addEventHandler: () => undefined,
  lister: () => createLister(new Store<KubeObject>()),
  waitForSync: () => Promise.resolve(true),
};

/** Throws on the object named `bad`, as a converter with a bug would. */
function throwingConverter(object: unknown): { readonly ok: true; readonly object: unknown } {
  if ((object as { metadata?: { name?: unknown } }).metadata?.name === 'bad') {
    throw new RangeError('Maximum call stack size exceeded');
  }
  return { ok: true, object };
}

interface Target {
  readonly port: number;
  readonly ca: string;
  readonly registry: Registry;
}

interface Review {
  readonly status: number;
  readonly body: {
    readonly response?: {
      readonly uid: string;
      readonly convertedObjects: unknown[];
      readonly result: { readonly status: string; readonly message?: string };
    };
  };
}

function post(target: Target, path: string, body: string): Promise<Review> {
  return new Promise((resolve, reject) => {
    const request = https.request(
      {
        host: '127.0.0.1',
        port: target.port,
        path,
        method: 'POST',
        ca: target.ca,
        agent: false,
        headers: { 'content-type': 'application/json' },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          resolve({
            status: response.statusCode ?? 0,
            body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Review['body'],
          });
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** A ConversionReview body; objects given as JSON text, so that one too deep for JSON.stringify can be sent. */
function reviewBody(uid: string, desiredAPIVersion: string, objects: readonly string[]): string {
  return `{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":${JSON.stringify(uid)},"desiredAPIVersion":${JSON.stringify(desiredAPIVersion)},"objects":[${objects.join(',')}]}}`;
}

function statefulSet(name: string, annotations: Readonly<Record<string, string>> = {}): string {
  return JSON.stringify({
    apiVersion: A,
    kind: 'StatefulSet',
    metadata: { name, namespace: 'ns', uid: 'u-1', annotations },
    spec: { replicas: 1 },
  });
}

const GOOD = statefulSet('good');

describe.each([
  { where: 'the main thread', admissionThread: false },
  { where: 'the admission thread', admissionThread: true },
])('the conversion webhook served from $where (issue 38)', ({ admissionThread }) => {
  let target: Target;
  const stop = new AbortController();
  let done: Promise<void>;

  beforeAll(async () => {
    const certificates = new SelfManagedCertificates({ dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'], logger });
    const registry = new Registry();
    const server = new WebhookServer({ certificates, logger, host: '127.0.0.1', port: 0, registry, admissionThread });
    server.registerThreaded(
      '/threaded',
      { module: FIXTURE, options: { prefix: 'seen on' }, stores: { things: emptyInformer } },
      { failurePolicy: 'allow' },
    );
    server.registerConversion('/convert', convertObject);
    server.registerConversion('/convert-throwing', throwingConverter);
    done = server.start(stop.signal);
    target = { port: await server.listening(), ca: certificates.caBundle() ?? '', registry };
  }, 30_000);

  afterAll(async () => {
    stop.abort();
    await done;
  });

  it('a converter that throws: a Failure naming the object, and the next request is answered', async () => {
    const failed = await post(target, '/convert-throwing', reviewBody('1', B, [GOOD, statefulSet('bad')]));
    expect(failed.status).toBe(200);
    expect(failed.body.response).toMatchObject({ uid: '1', convertedObjects: [], result: { status: 'Failure' } });
    expect(failed.body.response?.result.message).toBe(
      'StatefulSet "ns/bad": the conversion failed: Maximum call stack size exceeded',
    );
    const next = await post(target, '/convert-throwing', reviewBody('2', B, [GOOD]));
    expect(next.body.response).toMatchObject({ uid: '2', result: { status: 'Success' } });
  }, 30_000);

  it('the deep path: an object whose record holds a 30,000-step path is converted, the server stays up and answers the next request', async () => {
    const record = JSON.stringify({ changes: [{ path: Array.from({ length: 30_000 }, () => 'a'), original: 1 }] });
    const answer = await post(
      target,
      '/convert',
      reviewBody('3', B, [statefulSet('deep', { [conversionAnnotation('v1beta1')]: record })]),
    );
    expect(answer.status).toBe(200);
    expect(answer.body.response).toMatchObject({
      uid: '3',
      result: { status: 'Success' },
      convertedObjects: [{ apiVersion: B, metadata: { name: 'deep' }, spec: { replicas: 1 } }],
    });
    const next = await post(target, '/convert', reviewBody('4', B, [GOOD]));
    expect(next.body.response).toMatchObject({ uid: '4', result: { status: 'Success' } });
  }, 30_000);

  it('the deep path: an object nested 5,000 levels deep gets a Failure naming it, and the next request is answered', async () => {
    const deep = `{"apiVersion":"${A}","kind":"StatefulSet","metadata":{"name":"nested","namespace":"ns"},"spec":${'{"a":'.repeat(5000)}{}${'}'.repeat(5000)}}`;
    const answer = await post(target, '/convert', reviewBody('5', B, [deep]));
    expect(answer.status).toBe(200);
    expect(answer.body.response?.result).toMatchObject({ status: 'Failure' });
    expect(answer.body.response?.result.message).toMatch(/^StatefulSet "ns\/nested": /);
    const next = await post(target, '/convert', reviewBody('6', B, [GOOD]));
    expect(next.body.response).toMatchObject({ uid: '6', result: { status: 'Success' } });
  }, 30_000);

  it('counts the record entries a conversion ignored in kruise_ts_conversion_ignored_record_entries_total{kind}', async () => {
    const record = JSON.stringify({
      changes: [
        { path: ['metadata', 'name'], original: 'renamed', produced: 'counted' },
        { path: ['__proto__', 'polluted'], original: 1 },
      ],
    });
    const sidecarSet = JSON.stringify({
      apiVersion: A,
      kind: 'SidecarSet',
      metadata: { name: 'counted', annotations: { [conversionAnnotation('v1beta1')]: record } },
      spec: {},
    });
    const answer = await post(target, '/convert', reviewBody('7', B, [sidecarSet]));
    expect(answer.body.response).toMatchObject({
      result: { status: 'Success' },
      convertedObjects: [{ metadata: { name: 'counted' } }],
    });
    await vi.waitFor(async () => {
      expect(
        await target.registry.getSingleMetricAsString('kruise_ts_conversion_ignored_record_entries_total'),
      ).toContain('kruise_ts_conversion_ignored_record_entries_total{kind="SidecarSet"} 2');
    });
  }, 30_000);
});
