import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterEach, describe, expect, it } from 'vitest';

import { readinessTarget, waitUntilReady } from './readiness.ts';

const servers: http.Server[] = [];

/** A server on a free loopback port that answers `status(n)` to its n-th request (from 1); its URL and how many requests came. */
async function startServer(
  status: (request: number) => number,
  port = 0,
): Promise<{ url: string; requests: () => number }> {
  let requests = 0;
  const server = http.createServer((_request, response) => {
    requests += 1;
    response.writeHead(status(requests)).end('ok');
  });
  servers.push(server);
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}/readyz`, requests: () => requests };
}

/** A loopback port nothing listens on (for now). */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

const FAST = { timeoutMs: 5_000, intervalMs: 20 };

describe('readinessTarget', () => {
  const context = { kubeconfigPath: '/k', metricsPorts: [9100, 9101], qps: 0, burst: 0 };

  it('takes the declared ready URL with the ports filled in, which must answer 2xx', () => {
    expect(
      readinessTarget(
        { readyUrl: 'https://127.0.0.1:{metricsPort2}/readyz' },
        { metricsUrls: ['http://127.0.0.1:9100/metrics'] },
        context,
      ),
    ).toEqual({ urls: ['https://127.0.0.1:9101/readyz'], want: '2xx' });
  });

  it("else the ready URL the started contender knows (ports it picked itself: kruise-manager's health probes), which must answer 2xx", () => {
    const running = { metricsUrls: ['http://127.0.0.1:9100/metrics'], readyUrl: 'http://127.0.0.1:18081/readyz' };
    expect(readinessTarget({}, running, context)).toEqual({ urls: ['http://127.0.0.1:18081/readyz'], want: '2xx' });
    expect(readinessTarget({ readyUrl: 'http://127.0.0.1:{metricsPort}/readyz' }, running, context)).toEqual({
      urls: ['http://127.0.0.1:9100/readyz'],
      want: '2xx',
    });
  });

  it('else every /metrics endpoint, which must answer at all', () => {
    const metricsUrls = ['http://127.0.0.1:9100/metrics', 'http://127.0.0.1:9101/metrics'];
    expect(readinessTarget({}, { metricsUrls }, context)).toEqual({ urls: metricsUrls, want: 'answer' });
  });

  it('has nothing to wait for without either (the native baseline, a command without {metricsPort})', () => {
    expect(readinessTarget({}, { metricsUrls: [] }, context)).toBeUndefined();
  });
});

describe('waitUntilReady', () => {
  it("polls a ready URL until it answers 2xx, and counts from the contender's start", async () => {
    const server = await startServer((request) => (request <= 3 ? 503 : 204));
    const seconds = await waitUntilReady(
      'ext',
      { urls: [server.url], want: '2xx' },
      { ...FAST, startedAt: performance.now() - 1_000 },
    );
    expect(server.requests()).toBe(4);
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThan(5);
  });

  it('takes any HTTP answer of a /metrics endpoint, once it listens', async () => {
    const port = await closedPort();
    const later = new Promise<{ url: string; requests: () => number }>((resolve) => {
      setTimeout(() => {
        resolve(startServer(() => 404, port));
      }, 150);
    });
    const seconds = await waitUntilReady(
      'kruise-ts',
      { urls: [`http://127.0.0.1:${String(port)}/metrics`], want: 'answer' },
      FAST,
    );
    expect((await later).requests()).toBe(1);
    expect(seconds).toBeGreaterThan(0.1);
  });

  it('waits for every URL, and asks one that passed no more', async () => {
    const first = await startServer(() => 200);
    const second = await startServer((request) => (request <= 2 ? 500 : 200));
    await waitUntilReady('kruise-ts-per-app', { urls: [first.url, second.url], want: 'answer' }, FAST);
    expect([first.requests(), second.requests()]).toEqual([1, 1]);
    await waitUntilReady('ext', { urls: [first.url, second.url], want: '2xx' }, FAST);
    expect(first.requests()).toBe(2);
    expect(second.requests()).toBeGreaterThanOrEqual(2);
  });

  it('fails after the timeout, naming the contender, the URL and its last answer', async () => {
    const server = await startServer(() => 503);
    const started = performance.now();
    const waiting = waitUntilReady('ext', { urls: [server.url], want: '2xx' }, { timeoutMs: 300, intervalMs: 20 });
    await expect(waiting).rejects.toThrow(
      `contender ext not ready within 0.3 s: waited for a 2xx answer from ${server.url} (last: HTTP 503)`,
    );
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(server.requests()).toBeGreaterThan(2);
  });

  it('names the connection error when nothing listens', async () => {
    const url = `http://127.0.0.1:${String(await closedPort())}/metrics`;
    await expect(
      waitUntilReady('ext', { urls: [url], want: 'answer' }, { timeoutMs: 200, intervalMs: 20 }),
    ).rejects.toThrow(
      new RegExp(
        `contender ext not ready within 0.2 s: waited for an HTTP answer from ${url} \\(last: connect ECONNREFUSED`,
      ),
    );
  });

  it("gives up at once when the contender's process is gone", async () => {
    const url = `http://127.0.0.1:${String(await closedPort())}/metrics`;
    const started = performance.now();
    await expect(
      waitUntilReady('ext', { urls: [url], want: 'answer' }, { timeoutMs: 60_000, intervalMs: 20, alive: () => false }),
    ).rejects.toThrow(`contender ext exited before it was ready: waited for an HTTP answer from ${url}`);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
