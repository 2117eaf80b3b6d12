import https from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TLSSocket } from 'node:tls';

import { Registry } from 'prom-client';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { createLogger } from '@kruise-ts/controller-runtime';
import { FakeClock } from '@kruise-ts/controller-runtime/testing';
import { allowedResponse, deniedResponse, patchResponseFromObjects } from './admission-review.ts';
import type { AdmissionHandler } from './admission-review.ts';
import { certificateValidity, renewalTime } from './certificates.ts';
import { SelfManagedCertificates } from './self-managed-certificates.ts';
import { WebhookServer } from './webhook-server.ts';
import type { WebhookOptions, WebhookServerOptions } from './webhook-server.ts';

const logger = createLogger({ level: 'silent' });

interface Running {
  readonly server: WebhookServer;
  readonly port: number;
  readonly ca: string;
  readonly registry: Registry;
  readonly certificates: SelfManagedCertificates;
  readonly clock: FakeClock;
  readonly stop: () => Promise<void>;
}

const running: Running[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.stop()));
});

type Routes = Readonly<Record<string, readonly [AdmissionHandler, WebhookOptions]>>;

/**
 * A server on a free loopback port with self-managed certificates on a fake clock. The certificates
 * live an hour (and are renewed every 20 minutes of fake time) from half an hour ago, so that three
 * renewals still give certificates that are valid on the real clock the TLS client checks.
 */
async function serve(routes: Routes, options: Partial<WebhookServerOptions> = {}): Promise<Running> {
  const clock = new FakeClock(Date.now() - 30 * 60_000);
  const certificates = new SelfManagedCertificates({
    dnsNames: ['localhost'],
    ipAddresses: ['127.0.0.1'],
    logger,
    clock,
    servingValidityMs: 60 * 60_000,
  });
  const registry = new Registry();
  const server = new WebhookServer({ certificates, logger, host: '127.0.0.1', port: 0, registry, ...options });
  for (const [path, [handler, webhookOptions]] of Object.entries(routes)) {
    server.register(path, handler, webhookOptions);
  }
  const controller = new AbortController();
  const done = server.start(controller.signal);
  const port = await server.listening();
  const stop = async (): Promise<void> => {
    controller.abort();
    await done;
  };
  const result = { server, port, ca: certificates.caBundle() ?? '', registry, certificates, clock, stop };
  running.push(result);
  return result;
}

interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Record<string, unknown>;
  readonly serial: string;
}

interface Call {
  readonly path: string;
  readonly body?: string | Buffer | undefined;
  readonly method?: string | undefined;
  readonly headers?: Readonly<Record<string, string>> | undefined;
  readonly agent?: https.Agent | false | undefined;
}

/** One HTTPS request trusting only the server's CA (and checking 127.0.0.1 against the certificate). */
function call(target: Pick<Running, 'port' | 'ca'>, input: Call): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = https.request(
      {
        host: '127.0.0.1',
        port: target.port,
        path: input.path,
        method: input.method ?? 'POST',
        ca: target.ca,
        agent: input.agent ?? false,
        headers: { 'Content-Type': 'application/json', ...input.headers },
      },
      (response) => {
        const serial = (response.socket as TLSSocket).getPeerCertificate().serialNumber;
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>),
            serial,
          });
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(input.body);
  });
}

function review(uid: string, object: unknown = { metadata: { name: 'a', namespace: 'ns' } }): string {
  return JSON.stringify({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid,
      kind: { group: '', version: 'v1', kind: 'ConfigMap' },
      resource: { group: '', version: 'v1', resource: 'configmaps' },
      operation: 'CREATE',
      userInfo: { username: 'u' },
      object,
    },
  });
}

const allow: WebhookOptions = { failurePolicy: 'allow' };
const deny: WebhookOptions = { failurePolicy: 'deny' };
const untilAborted = (signal: AbortSignal): Promise<never> =>
  new Promise((_resolve, reject) => {
    signal.addEventListener('abort', () => {
      reject(new Error('aborted'));
    });
  });

describe('WebhookServer', () => {
  it('answers allowed, patched and denied reviews, echoing the uid', async () => {
    const target = await serve({
      '/allow': [() => Promise.resolve(allowedResponse({ warnings: ['careful'] })), allow],
      '/label': [
        (request) =>
          Promise.resolve(
            patchResponseFromObjects(request.object, {
              ...(request.object as object),
              metadata: { name: 'a', namespace: 'ns', labels: { 'kruise.io/x': 'y' } },
            }),
          ),
        allow,
      ],
      '/deny': [() => Promise.resolve(deniedResponse('not here', { code: 422, reason: 'Invalid' })), deny],
    });
    expect(await call(target, { path: '/allow', body: review('u-1') })).toMatchObject({
      status: 200,
      body: {
        apiVersion: 'admission.k8s.io/v1',
        kind: 'AdmissionReview',
        response: { uid: 'u-1', allowed: true, warnings: ['careful'] },
      },
    });
    const patched = await call(target, { path: '/label?timeout=10s', body: review('u-2') });
    expect(patched.body['response']).toMatchObject({ uid: 'u-2', allowed: true, patchType: 'JSONPatch' });
    const patch = (patched.body['response'] as { patch: string }).patch;
    expect(JSON.parse(Buffer.from(patch, 'base64').toString())).toEqual([
      { op: 'add', path: '/metadata/labels', value: { 'kruise.io/x': 'y' } },
    ]);
    expect((await call(target, { path: '/deny', body: review('u-3') })).body['response']).toEqual({
      uid: 'u-3',
      allowed: false,
      status: { code: 422, message: 'not here', reason: 'Invalid' },
    });

    const metrics = await target.registry.metrics();
    expect(metrics).toContain('controller_runtime_webhook_requests_total{webhook="/allow",code="200"} 1');
    expect(metrics).toContain('controller_runtime_webhook_latency_seconds_count{webhook="/label",code="200"} 1');
    expect(metrics).toContain('controller_runtime_webhook_requests_in_flight{webhook="/deny"} 0');
  });

  it.each([
    {
      policy: allow,
      expected: { allowed: true, warnings: ['webhook /fail failed: boom; allowed by its failure policy'] },
    },
    {
      policy: deny,
      expected: {
        allowed: false,
        status: { code: 500, reason: 'InternalError', message: 'webhook /fail failed: boom' },
      },
    },
  ])('a handler that throws gets its failure policy: $policy.failurePolicy', async ({ policy, expected }) => {
    const target = await serve({ '/fail': [() => Promise.reject(new Error('boom')), policy] });
    expect((await call(target, { path: '/fail', body: review('u') })).body['response']).toEqual({
      uid: 'u',
      ...expected,
    });
  });

  it('a synchronous throw is a failure too', async () => {
    const target = await serve({
      '/fail': [
        () => {
          throw new Error('sync');
        },
        deny,
      ],
    });
    expect((await call(target, { path: '/fail', body: review('u') })).body['response']).toMatchObject({
      allowed: false,
      status: { message: 'webhook /fail failed: sync' },
    });
  });

  it.each([
    {
      policy: allow,
      expected: {
        allowed: true,
        warnings: ['webhook /slow did not answer within 150 ms; allowed by its failure policy'],
      },
    },
    {
      policy: deny,
      expected: {
        allowed: false,
        status: { code: 504, reason: 'Timeout', message: 'webhook /slow did not answer within 150 ms (timeout)' },
      },
    },
  ])(
    'a handler past its budget is cancelled and gets its failure policy: $policy.failurePolicy',
    async ({ policy, expected }) => {
      let cancelled = false;
      const slow: AdmissionHandler = async (_request, signal) => {
        await untilAborted(signal).catch(() => {
          cancelled = true;
        });
        return allowedResponse();
      };
      const target = await serve({ '/slow': [slow, { ...policy, timeoutMs: 150 }] }, { requestTimeoutMs: 10_000 });
      const started = performance.now();
      const answer = await call(target, { path: '/slow', body: review('u') });
      expect(answer.body['response']).toEqual({ uid: 'u', ...expected });
      expect(performance.now() - started).toBeLessThan(2000);
      expect(cancelled).toBe(true);
    },
  );

  it.each([
    { name: 'GET', call: { method: 'GET' }, status: 405, message: 'method GET is not allowed' },
    {
      name: 'another content type',
      call: { headers: { 'Content-Type': 'text/plain' }, body: review('u') },
      status: 415,
      message: 'expected application/json',
    },
    { name: 'malformed JSON', call: { body: '{"apiVersion": ' }, status: 400, message: 'not valid JSON' },
    { name: 'an empty body', call: { body: '' }, status: 400, message: 'not valid JSON' },
    {
      name: 'another kind',
      call: { body: review('u').replace('"AdmissionReview"', '"TokenReview"') },
      status: 400,
      message: 'kind',
    },
    {
      name: 'a body over the limit',
      call: { body: review('u', { data: 'x'.repeat(5000) }) },
      status: 413,
      message: 'larger than the limit of 4096 bytes',
    },
    {
      name: 'a chunked body over the limit',
      call: { body: review('u', { data: 'x'.repeat(5000) }), headers: { 'Transfer-Encoding': 'chunked' } },
      status: 413,
      message: 'limit of 4096 bytes',
    },
    {
      name: 'an unknown path',
      call: { path: '/nope', body: review('u') },
      status: 404,
      message: 'no webhook is registered at /nope',
    },
  ])('refuses $name with $status and a JSON message', async ({ call: input, status, message }) => {
    const target = await serve(
      { '/allow': [() => Promise.resolve(allowedResponse()), allow] },
      { maxRequestBytes: 4096 },
    );
    const answer = await call(target, { path: '/allow', ...input });
    expect(answer.status).toBe(status);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.body).toMatchObject({ code: status, message: expect.stringContaining(message) as unknown });
    expect((await call(target, { path: '/allow', body: review('after') })).body['response']).toEqual({
      uid: 'after',
      allowed: true,
    });
  });

  it('rotates the serving certificate under traffic without a failed request', async () => {
    const target = await serve({ '/allow': [() => Promise.resolve(allowedResponse()), allow] });
    const rotations = 3;
    const serials = new Set<string>();
    let requests = 0;
    let rotating = true;
    const traffic = Array.from({ length: 4 }, async () => {
      while (rotating || requests < 40) {
        const answer = await call(target, { path: '/allow', body: review(`u-${String(requests)}`) });
        expect(answer.body['response']).toMatchObject({ allowed: true });
        serials.add(answer.serial);
        requests++;
      }
    });
    for (let rotation = 0; rotation < rotations; rotation++) {
      const before = target.certificates.current()?.certPem;
      const renewAt = renewalTime(certificateValidity(before ?? ''));
      await vi.waitFor(() => {
        expect(target.clock.pendingTimers()).toBe(1);
      });
      target.clock.advance(renewAt - target.clock.now() + 1);
      await vi.waitFor(() => {
        expect(target.certificates.current()?.certPem).not.toBe(before);
      });
      await sleep(50);
    }
    rotating = false;
    await Promise.all(traffic);
    expect(serials.size).toBe(rotations + 1);
  });

  // The API server keeps idle webhook connections for 90 s; Node's 5 s default made it pay a TLS handshake after every pause.
  it('keeps an idle connection open longer than Node.js does by default, so a client reuses it after a pause', async () => {
    const target = await serve({ '/ok': [() => Promise.resolve(allowedResponse()), allow] });
    const agent = new https.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const sockets = new Set<unknown>();
      agent.on('free', (socket) => sockets.add(socket));
      expect((await call(target, { path: '/ok', body: review('1'), agent })).status).toBe(200);
      await sleep(7_000);
      expect((await call(target, { path: '/ok', body: review('2'), agent })).status).toBe(200);
      expect(sockets.size).toBe(1);
    } finally {
      agent.destroy();
    }
  }, 20_000);

  it('lets a request in flight finish when stopped', async () => {
    const target = await serve({
      '/slow': [
        async () => {
          await sleep(200);
          return allowedResponse();
        },
        allow,
      ],
    });
    const answer = call(target, { path: '/slow', body: review('u') });
    await sleep(50);
    await target.stop();
    expect((await answer).body['response']).toEqual({ uid: 'u', allowed: true });
    expect(target.server.port()).toBeUndefined();
  });

  it('refuses registrations after start, twice at one path, and paths that are not absolute', async () => {
    const server = new WebhookServer({
      certificates: new SelfManagedCertificates({ dnsNames: ['localhost'], logger }),
      logger,
    });
    const handler: AdmissionHandler = () => Promise.resolve(allowedResponse());
    server.register('/a', handler, allow);
    expect(() => {
      server.register('/a', handler, allow);
    }).toThrow('already registered at /a');
    expect(() => {
      server.register('mutate', handler, allow);
    }).toThrow('invalid webhook path');
    const target = await serve({ '/a': [handler, allow] });
    expect(() => {
      target.server.register('/b', handler, allow);
    }).toThrow('has started');
    expect(target.server.needLeaderElection).toBe(false);
    expect(target.server.startedChecker()()).toBe(true);
  });
});
