import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import type { TLSSocket } from 'node:tls';

import { dump } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createCertificateAuthority, createServingCertificate } from '@kruise-ts/local-cluster/testing';

import { readCurrentContext, StaticKubeConfig } from './kubeconfig-loader.ts';
import { credentialHeaders } from './credential-headers.ts';
import { Transport } from './transport.ts';

describe('credentialHeaders', () => {
  const basic = (credentials: string): string => `Basic ${Buffer.from(credentials).toString('base64')}`;
  it.each<[string, https.RequestOptions, Record<string, string>]>([
    ['nothing', {}, {}],
    ['a bearer token', { headers: { Authorization: 'Bearer t' } }, { Authorization: 'Bearer t' }],
    [
      'every string header',
      { headers: { Authorization: 'Bearer t', 'X-Remote-User': 'me' } },
      { Authorization: 'Bearer t', 'X-Remote-User': 'me' },
    ],
    [
      'headers that are not strings dropped',
      { headers: { 'X-Count': 3, 'X-List': ['a', 'b'], 'X-Kept': 'yes' } },
      { 'X-Kept': 'yes' },
    ],
    ['auth as basic credentials', { auth: 'admin:s3cret' }, { Authorization: basic('admin:s3cret') }],
    ['auth with a colon in the password', { auth: 'admin:pa:ss' }, { Authorization: basic('admin:pa:ss') }],
    [
      'auth with non-ASCII characters, as UTF-8',
      { auth: 'jürgen:päss' },
      { Authorization: `Basic ${Buffer.from('jürgen:päss', 'utf8').toString('base64')}` },
    ],
    [
      'auth over an Authorization header',
      { headers: { Authorization: 'Bearer t', 'X-Kept': 'yes' }, auth: 'u:p' },
      { Authorization: basic('u:p'), 'X-Kept': 'yes' },
    ],
    ['TLS material ignored', { ca: 'CA', cert: 'C', key: 'K', rejectUnauthorized: false, servername: 's' }, {}],
  ])('%s', (_name, options, expected) => {
    expect(credentialHeaders(options)).toEqual(expected);
  });
});

/** A certificate and its key, read from the files openssl wrote. */
interface PemPair {
  readonly certPem: string;
  readonly keyPem: string;
}

function pemPair(files: { readonly certFile: string; readonly keyFile: string }): PemPair {
  return { certPem: readFileSync(files.certFile, 'utf8'), keyPem: readFileSync(files.keyFile, 'utf8') };
}

/** What the test server saw of a request. */
interface Seen {
  readonly authorization: string | undefined;
  readonly clientCertificateSubject: string | undefined;
}

/**
 * A local HTTPS server with a certificate for `kube.test` only (no IP address), signed by a CA made
 * here: requests to https://127.0.0.1 verify only with `tls-server-name: kube.test`. It asks for a
 * client certificate without verifying it, and records what each request carried.
 */
describe('Transport over TLS, with a StaticKubeConfig', () => {
  let dir = '';
  let ca: PemPair;
  let client: PemPair;
  let serving: PemPair;
  let server: https.Server;
  let port = 0;
  const seen: Seen[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'transport-tls-'));
    // openssl, as the local control plane's own PKI: the runtime does not make certificates itself.
    const caFiles = await createCertificateAuthority(dir, 'test-ca');
    ca = pemPair(caFiles);
    serving = pemPair(
      await createServingCertificate({ ca: caFiles, dir, name: 'kube', commonName: 'kube.test', hosts: ['kube.test'] }),
    );
    client = pemPair(
      await createServingCertificate({
        ca: caFiles,
        dir,
        name: 'client',
        commonName: 'client.test',
        hosts: ['client.test'],
      }),
    );
    server = https.createServer(
      { cert: serving.certPem, key: serving.keyPem, requestCert: true, rejectUnauthorized: false },
      (request, response) => {
        const peer = (request.socket as TLSSocket).getPeerCertificate();
        seen.push({
          authorization: request.headers.authorization,
          clientCertificateSubject: Object.keys(peer).length === 0 ? undefined : String(peer.subject.CN),
        });
        response.setHeader('Content-Type', 'application/json');
        response.end(JSON.stringify({ path: request.url }));
      },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  const b64 = (pem: string): string => Buffer.from(pem).toString('base64');

  function kubeConfigFor(
    cluster: Record<string, unknown>,
    user: Record<string, unknown>,
    serverPort = port,
  ): StaticKubeConfig {
    const file = path.join(dir, `config-${String(seen.length)}-${String(Math.random()).slice(2)}`);
    writeFileSync(
      file,
      dump({
        'current-context': 'ctx',
        clusters: [{ name: 'c', cluster: { server: `https://127.0.0.1:${serverPort}`, ...cluster } }],
        users: [{ name: 'u', user }],
        contexts: [{ name: 'ctx', context: { cluster: 'c', user: 'u' } }],
      }),
    );
    return new StaticKubeConfig(readCurrentContext(file));
  }

  function transportFor(cluster: Record<string, unknown>, user: Record<string, unknown>, serverPort = port): Transport {
    return new Transport({
      kubeConfig: kubeConfigFor(cluster, user, serverPort),
      qps: 0,
      burst: 0,
      userAgent: 'transport-test',
      requestTimeoutMs: 5_000,
    });
  }

  async function get(
    cluster: Record<string, unknown>,
    user: Record<string, unknown>,
  ): Promise<{ readonly body: unknown; readonly seen: Seen | undefined }> {
    const transport = transportFor(cluster, user);
    const before = seen.length;
    try {
      const body = await transport.request({ verb: 'get', method: 'GET', path: '/api' });
      return { body, seen: seen[before] };
    } finally {
      transport.close();
    }
  }

  it.each<{ readonly name: string; readonly user: () => Record<string, unknown>; readonly expected: Seen }>([
    {
      name: 'a token',
      user: () => ({ token: 't0k3n' }),
      expected: { authorization: 'Bearer t0k3n', clientCertificateSubject: undefined },
    },
    {
      name: 'basic credentials',
      user: () => ({ username: 'admin', password: 'pw' }),
      expected: { authorization: `Basic ${b64('admin:pw')}`, clientCertificateSubject: undefined },
    },
    {
      name: 'a client certificate',
      user: () => ({ 'client-certificate-data': b64(client.certPem), 'client-key-data': b64(client.keyPem) }),
      expected: { authorization: undefined, clientCertificateSubject: 'client.test' },
    },
  ])('verifies the server by the kubeconfig CA and tls-server-name, and sends $name', async ({ user, expected }) => {
    const result = await get({ 'certificate-authority-data': b64(ca.certPem), 'tls-server-name': 'kube.test' }, user());
    expect(result).toEqual({ body: { path: '/api' }, seen: expected });
  });

  // undici's default (4 s) closed the pool between a controller's bursts; every burst paid its TLS handshakes again.
  it('keeps its connections through a pause of several seconds, as long as the server does', async () => {
    // As kube-apiserver (Go): idle connections kept 90 s, and no Keep-Alive header that would tell the client so.
    let connections = 0;
    const goLike = tls.createServer({ cert: serving.certPem, key: serving.keyPem }, (socket) => {
      connections++;
      let received = '';
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString('latin1');
        for (let end = received.indexOf('\r\n\r\n'); end >= 0; end = received.indexOf('\r\n\r\n')) {
          received = received.slice(end + 4);
          socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}');
        }
      });
    });
    await new Promise<void>((resolve) => goLike.listen(0, '127.0.0.1', resolve));
    const transport = transportFor(
      { 'certificate-authority-data': b64(ca.certPem), 'tls-server-name': 'kube.test' },
      { token: 't' },
      (goLike.address() as AddressInfo).port,
    );
    try {
      await Promise.all(
        Array.from({ length: 4 }, () => transport.request({ verb: 'get', method: 'GET', path: '/api' })),
      );
      const opened = connections;
      await new Promise((resolve) => setTimeout(resolve, 5_500));
      await Promise.all(
        Array.from({ length: 4 }, () => transport.request({ verb: 'get', method: 'GET', path: '/api' })),
      );
      expect([opened > 0, connections]).toEqual([true, opened]);
    } finally {
      transport.close();
      await new Promise((resolve) => goLike.close(resolve));
    }
  }, 20_000);

  // undici closes a connection after a body on a method that usually has none: every pod delete (DeleteOptions) was a new TLS handshake.
  it('keeps its connection after a DELETE with a body (DeleteOptions), as after any other request', async () => {
    let connections = 0;
    const reading = https.createServer({ cert: serving.certPem, key: serving.keyPem }, (request, response) => {
      // As kube-apiserver: the body is read before the answer.
      request.resume();
      request.on('end', () => {
        response.setHeader('Content-Type', 'application/json');
        response.end('{}');
      });
    });
    reading.on('secureConnection', () => {
      connections++;
    });
    await new Promise<void>((resolve) => reading.listen(0, '127.0.0.1', resolve));
    const transport = transportFor(
      { 'certificate-authority-data': b64(ca.certPem), 'tls-server-name': 'kube.test' },
      { token: 't' },
      (reading.address() as AddressInfo).port,
    );
    try {
      const deleteThenGet = async (): Promise<void> => {
        await transport.request({
          verb: 'delete',
          method: 'DELETE',
          path: '/api/v1/namespaces/a/pods/p',
          body: { preconditions: { uid: 'u' } },
        });
        await transport.request({ verb: 'get', method: 'GET', path: '/api' });
      };
      // The pool opens a second connection for a request sent before the first connection is free again.
      await deleteThenGet();
      const opened = connections;
      for (let round = 0; round < 3; round++) {
        await deleteThenGet();
      }
      // Closed after each DELETE, the count grew by one a round.
      expect(connections).toBe(opened);
    } finally {
      transport.close();
      reading.closeAllConnections();
      await new Promise((resolve) => reading.close(resolve));
    }
  });

  // AbortSignal.timeout's timers ran their full 30 s after every request: at 5,000 pods, 28 s of CPU
  // after each burst of writes, firing timeouts for requests long done (docs/benchmarks.md, "Issue 41").
  it('leaves no timer behind once a request is done', async () => {
    const transport = transportFor(
      { 'certificate-authority-data': b64(ca.certPem), 'tls-server-name': 'kube.test' },
      { token: 't' },
    );
    const timers = (): number => process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length;
    try {
      await transport.request({ verb: 'get', method: 'GET', path: '/api' });
      const before = timers();
      await Promise.all(
        Array.from({ length: 50 }, () => transport.request({ verb: 'get', method: 'GET', path: '/api' })),
      );
      expect(timers()).toBeLessThanOrEqual(before);
    } finally {
      transport.close();
    }
  });

  it("gives a sharded replica's renewals their own rate limit: never queued behind the process's other requests", async () => {
    const slow = new Transport({
      kubeConfig: kubeConfigFor({ 'insecure-skip-tls-verify': true }, { token: 't' }),
      qps: 1,
      burst: 1,
      userAgent: 'busy',
      requestTimeoutMs: 5000,
    });
    const ring = slow.withOwnRateLimit({ qps: 20, burst: 20 });
    try {
      const order: string[] = [];
      const queued = Array.from({ length: 3 }, (_, i) =>
        slow
          .request({ verb: 'get', method: 'GET', path: `/busy/${String(i)}` })
          .then(() => order.push(`busy-${String(i)}`)),
      );
      await ring.request({ verb: 'update', method: 'PUT', path: '/renew', body: {} }).then(() => order.push('renewal'));
      await Promise.all(queued);
      expect(order.indexOf('renewal')).toBeLessThan(2);
    } finally {
      slow.close();
    }
  });

  it("refuses every write a write guard refuses, right before sending it, and lets reads and the ring's own transport through", async () => {
    const transport = transportFor({ 'insecure-skip-tls-verify': true }, { token: 't' });
    const ring = transport.withOwnRateLimit({ qps: 0, burst: 0 });
    transport.guardWrites(() => {
      throw new Error('fenced');
    });
    const before = seen.length;
    try {
      await expect(
        transport.request({ verb: 'patch', method: 'PATCH', path: '/api/v1/namespaces/n/pods/p', body: {} }),
      ).rejects.toThrow('fenced');
      expect(seen.length).toBe(before);
      await expect(transport.request({ verb: 'get', method: 'GET', path: '/api' })).resolves.toEqual({ path: '/api' });
      await expect(ring.request({ verb: 'update', method: 'PUT', path: '/renew', body: {} })).resolves.toEqual({
        path: '/renew',
      });
    } finally {
      transport.close();
    }
  });

  it('skips verification with insecure-skip-tls-verify', async () => {
    const result = await get({ 'insecure-skip-tls-verify': true }, { token: 'x' });
    expect(result.seen?.authorization).toBe('Bearer x');
  });

  it.each<[string, () => Record<string, unknown>]>([
    ['without the CA', () => ({ 'tls-server-name': 'kube.test' })],
    [
      'without tls-server-name (its certificate does not name 127.0.0.1)',
      () => ({ 'certificate-authority-data': b64(ca.certPem) }),
    ],
    [
      'with another tls-server-name',
      () => ({ 'certificate-authority-data': b64(ca.certPem), 'tls-server-name': 'other.test' }),
    ],
  ])('refuses the server %s, before sending anything', async (_name, cluster) => {
    const before = seen.length;
    await expect(get(cluster(), { token: 'never-sent' })).rejects.toThrow();
    expect(seen.length).toBe(before);
  });
});
