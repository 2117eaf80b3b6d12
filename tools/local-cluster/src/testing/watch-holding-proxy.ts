/**
 * A proxy between one client and the API server that can hold watch streams: while held, the bytes
 * of every watch answer (open or opened later) are kept back without closing the connection, as a
 * TCP path that stalls does (keepalive notices nothing for minutes); everything else (lists, gets,
 * writes) passes. Released, the kept bytes are delivered in order, as the stalled path would once it
 * recovers. The client speaks plain HTTP to it on loopback; it adds the kubeconfig's credentials on
 * its way to the API server. For tests of what a stalled watch does to a controller.
 */
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { writeFile } from 'node:fs/promises';

import { KubeConfig } from '@kubernetes/client-node';

export interface WatchHoldingProxy {
  /** A kubeconfig file that reaches the API server through the proxy. */
  readonly kubeconfigPath: string;
  /** Keeps every watch answer's bytes back from now on. */
  hold(): void;
  /** Delivers what was kept back, and passes watch bytes again. */
  release(): void;
  /** Watch answers whose bytes are being kept back now. */
  heldStreams(): number;
  close(): Promise<void>;
}

interface HeldStream {
  readonly response: http.ServerResponse;
  readonly kept: Buffer[];
  /** The API server ended it while held: ended here once released. */
  ended: boolean;
}

function isHeaderMap(headers: https.RequestOptions['headers']): headers is http.OutgoingHttpHeaders {
  return headers !== undefined && !Array.isArray(headers);
}

function isWatch(url: string): boolean {
  const query = new URL(url, 'http://proxy').searchParams;
  return query.get('watch') === 'true' || query.get('watch') === '1';
}

/** Starts a proxy to the API server of `kubeconfigPath`, writing the proxy's own kubeconfig to `proxyKubeconfigPath`. */
export async function startWatchHoldingProxy(input: {
  readonly kubeconfigPath: string;
  readonly proxyKubeconfigPath: string;
}): Promise<WatchHoldingProxy> {
  const upstream = new KubeConfig();
  upstream.loadFromFile(input.kubeconfigPath);
  const server = new URL(upstream.getCurrentCluster()?.server ?? '');
  const tls: https.RequestOptions = {};
  await upstream.applyToHTTPSOptions(tls);
  const agent = new https.Agent({
    keepAlive: true,
    ...(tls.ca === undefined ? {} : { ca: tls.ca }),
    ...(tls.cert === undefined ? {} : { cert: tls.cert }),
    ...(tls.key === undefined ? {} : { key: tls.key }),
    ...(tls.rejectUnauthorized === undefined ? {} : { rejectUnauthorized: tls.rejectUnauthorized }),
    ...(tls.servername === undefined ? {} : { servername: tls.servername }),
  });
  // A token user's Authorization header (a client certificate goes in the agent).
  const credentials: http.OutgoingHttpHeaders = isHeaderMap(tls.headers) ? tls.headers : {};
  let held = false;
  const streams = new Set<HeldStream>();

  const proxy = http.createServer((request, response) => {
    const watch = isWatch(request.url ?? '/');
    const forward = https.request(
      {
        agent,
        host: server.hostname,
        port: server.port,
        method: request.method,
        path: request.url,
        headers: { ...request.headers, ...credentials, host: server.host },
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        response.flushHeaders();
        if (!watch) {
          answer.pipe(response);
          return;
        }
        const stream: HeldStream = { response, kept: [], ended: false };
        streams.add(stream);
        answer.on('data', (chunk: Buffer) => {
          if (held) {
            stream.kept.push(chunk);
          } else {
            response.write(chunk);
          }
        });
        answer.on('end', () => {
          stream.ended = true;
          if (!held) {
            streams.delete(stream);
            response.end();
          }
        });
      },
    );
    forward.on('error', () => {
      response.destroy();
    });
    request.pipe(forward);
    response.on('close', () => {
      forward.destroy();
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const port = (proxy.address() as AddressInfo).port;
  await writeFile(input.proxyKubeconfigPath, proxyKubeconfig(port));
  return {
    kubeconfigPath: input.proxyKubeconfigPath,
    hold: () => {
      held = true;
    },
    release: () => {
      held = false;
      for (const stream of streams) {
        for (const chunk of stream.kept.splice(0)) {
          stream.response.write(chunk);
        }
        if (stream.ended) {
          streams.delete(stream);
          stream.response.end();
        }
      }
    },
    heldStreams: () => (held ? streams.size : 0),
    close: async () => {
      proxy.closeAllConnections();
      agent.destroy();
      await new Promise((resolve) => proxy.close(resolve));
    },
  };
}

function proxyKubeconfig(port: number): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    'current-context': 'proxy',
    clusters: [{ name: 'proxy', cluster: { server: `http://127.0.0.1:${String(port)}` } }],
    users: [{ name: 'proxy', user: {} }],
    contexts: [{ name: 'proxy', context: { cluster: 'proxy', user: 'proxy' } }],
  });
}
