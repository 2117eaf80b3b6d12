import http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Registry } from 'prom-client';

/** A named check; a rejection or `false` fails the probe. */
export type HealthCheck = () => boolean | Promise<boolean>;

export interface ProbeServerOptions {
  /** `host:port`, `:port` (all interfaces) or `0` to pick a free port on 127.0.0.1. */
  readonly address: string;
  readonly registry?: Registry | undefined;
  readonly healthz?: ReadonlyMap<string, HealthCheck> | undefined;
  readonly readyz?: ReadonlyMap<string, HealthCheck> | undefined;
}

/**
 * Serves `/metrics` (Prometheus text), `/healthz` and `/readyz` with controller-runtime's paths and
 * behaviour: 200 `ok` when every check passes, 500 with the failed checks named otherwise.
 */
export class ProbeServer {
  readonly #options: ProbeServerOptions;
  readonly #server: http.Server;

  constructor(options: ProbeServerOptions) {
    this.#options = options;
    this.#server = http.createServer((request, response) => {
      void this.#handle(request.url ?? '/', response);
    });
  }

  /** Starts listening; resolves with the bound port. */
  async listen(): Promise<number> {
    const { host, port } = parseAddress(this.#options.address);
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(port, host, () => {
        this.#server.off('error', reject);
        resolve();
      });
    });
    return (this.#server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => {
      this.#server.close(() => {
        resolve();
      });
    });
  }

  async #handle(url: string, response: http.ServerResponse): Promise<void> {
    const path = url.split('?')[0];
    if (path === '/metrics' && this.#options.registry !== undefined) {
      response.setHeader('Content-Type', this.#options.registry.contentType);
      response.end(await this.#options.registry.metrics());
      return;
    }
    const checks = path === '/healthz' ? this.#options.healthz : path === '/readyz' ? this.#options.readyz : undefined;
    if (checks === undefined) {
      response.statusCode = 404;
      response.end('not found\n');
      return;
    }
    const failed = await failedChecks(checks);
    response.statusCode = failed.length === 0 ? 200 : 500;
    response.setHeader('Content-Type', 'text/plain; charset=utf-8');
    response.end(failed.length === 0 ? 'ok' : `${failed.map((name) => `[-]${name} failed`).join('\n')}\n`);
  }
}

async function failedChecks(checks: ReadonlyMap<string, HealthCheck>): Promise<string[]> {
  const results = await Promise.all(
    [...checks].map(async ([name, check]) => ({ name, ok: await Promise.resolve(check()).catch(() => false) })),
  );
  return results.filter((result) => !result.ok).map((result) => result.name);
}

/** `:8080` → all interfaces; `127.0.0.1:8080`; `0` → a free port on loopback. */
export function parseAddress(address: string): { host: string | undefined; port: number } {
  if (address === '0') {
    return { host: '127.0.0.1', port: 0 };
  }
  const colon = address.lastIndexOf(':');
  const portText = address.slice(colon + 1);
  const port = Number(portText);
  if (colon < 0 || !/^\d+$/.test(portText) || port > 65535) {
    throw new Error(`invalid bind address ${JSON.stringify(address)}: expected host:port, :port or 0`);
  }
  const host = address.slice(0, colon).replace(/^\[(.*)\]$/, '$1');
  return { host: host === '' ? undefined : host, port };
}
