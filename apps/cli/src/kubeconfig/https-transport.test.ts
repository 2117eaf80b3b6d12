import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ApiError, StaticKubeConfig } from '@kruise-ts/controller-runtime';

import { HttpsTransport } from './https-transport.ts';

interface Seen {
  readonly method: string | undefined;
  readonly url: string | undefined;
  readonly authorization: string | undefined;
  readonly contentType: string | undefined;
  readonly body: string;
}

/** A local HTTP server that answers by path, and records what each request carried. */
describe('HttpsTransport', () => {
  let server: http.Server;
  let transport: HttpsTransport;
  const seen: Seen[] = [];

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        seen.push({
          method: request.method,
          url: request.url,
          authorization: request.headers.authorization,
          contentType: request.headers['content-type'],
          body: Buffer.concat(chunks).toString(),
        });
        answer(request.url ?? '', response);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const kubeConfig = new StaticKubeConfig({
      cluster: { server: `http://127.0.0.1:${String(port)}/prefix/` },
      user: { token: 'secret' },
    });
    transport = new HttpsTransport({ kubeConfig, userAgent: 'test', requestTimeoutMs: 1_000 });
  });

  afterAll(async () => {
    transport.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('sends the path under the server URL, the query, the token and a JSON body, and parses the answer', async () => {
    const answered = await transport.request({
      verb: 'patch',
      method: 'PATCH',
      path: '/api/v1/namespaces/a/pods/p',
      query: { fieldManager: 'me', dryRun: undefined },
      body: { a: 1 },
      contentType: 'application/merge-patch+json',
    });
    expect(answered).toEqual({ kind: 'Pod' });
    expect(seen.at(-1)).toEqual({
      method: 'PATCH',
      url: '/prefix/api/v1/namespaces/a/pods/p?fieldManager=me',
      authorization: 'Bearer secret',
      contentType: 'application/merge-patch+json',
      body: '{"a":1}',
    });
  });

  it('frames a DELETE body (DeleteOptions), which Node sends unframed by default, so the next request on the connection is read whole', async () => {
    const deleteOptions = { apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid: 'u-1' } };
    await transport.request({
      verb: 'delete',
      method: 'DELETE',
      path: '/api/v1/namespaces/a/pods/p',
      body: deleteOptions,
    });
    expect(seen.at(-1)).toMatchObject({
      method: 'DELETE',
      url: '/prefix/api/v1/namespaces/a/pods/p',
      body: JSON.stringify(deleteOptions),
    });
    await expect(
      transport.request({ verb: 'get', method: 'GET', path: '/api/v1/namespaces/a/pods/q' }),
    ).resolves.toEqual({ kind: 'Pod' });
    expect(seen.at(-1)).toMatchObject({ method: 'GET', url: '/prefix/api/v1/namespaces/a/pods/q' });
  });

  it('returns undefined for an empty 2xx body', async () => {
    await expect(transport.request({ verb: 'delete', method: 'DELETE', path: '/empty' })).resolves.toBeUndefined();
  });

  it("throws the API server's Status as an ApiError with its reason and Retry-After", async () => {
    const error = await transport
      .request({ verb: 'get', method: 'GET', path: '/missing' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 404, reason: 'NotFound', retryAfterSeconds: 3 });
  });

  it('throws an ApiError with the body when the answer is not a Status', async () => {
    const error = await transport
      .request({ verb: 'get', method: 'GET', path: '/broken' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 502 });
    expect((error as ApiError).message).toContain('bad gateway');
  });

  it('aborts a request that outlives the timeout', async () => {
    await expect(transport.request({ verb: 'get', method: 'GET', path: '/slow' })).rejects.toThrow(/abort/i);
  });
});

function answer(url: string, response: http.ServerResponse): void {
  if (url.startsWith('/prefix/api/')) {
    response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"kind":"Pod"}');
  } else if (url === '/prefix/missing') {
    response
      .writeHead(404, { 'Content-Type': 'application/json', 'Retry-After': '3' })
      .end(JSON.stringify({ kind: 'Status', reason: 'NotFound', message: 'pods "p" not found', code: 404 }));
  } else if (url === '/prefix/broken') {
    response.writeHead(502).end('bad gateway');
  } else if (url === '/prefix/slow') {
    setTimeout(() => response.end('{}'), 3_000);
  } else {
    response.writeHead(200).end();
  }
}
