/** Raw reads from the test control plane, so that the test sees the API server's bytes as they are. */
import type { IncomingMessage } from 'node:http';
import https from 'node:https';

import type { KubeConfig } from '@kubernetes/client-node';

export interface RawRequest {
  readonly path: string;
  readonly accept: string;
  readonly signal?: AbortSignal;
}

export interface RawAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly body: Buffer;
}

async function open(kubeConfig: KubeConfig, { path, accept, signal }: RawRequest): Promise<IncomingMessage> {
  const server = new URL(kubeConfig.getCurrentCluster()?.server ?? '');
  const options: https.RequestOptions = {
    host: server.hostname,
    port: server.port,
    path,
    method: 'GET',
    headers: { Accept: accept },
    ...(signal === undefined ? {} : { signal }),
  };
  await kubeConfig.applyToHTTPSOptions(options);
  return new Promise((resolve, reject) => {
    const request = https.request(options, resolve);
    request.on('error', reject);
    request.end();
  });
}

/** A GET and its whole answer. */
export async function rawGet(kubeConfig: KubeConfig, path: string, accept: string): Promise<RawAnswer> {
  const response = await open(kubeConfig, { path, accept });
  const chunks: Buffer[] = [];
  for await (const chunk of response) {
    chunks.push(chunk as Buffer);
  }
  const contentType = response.headers['content-type'] ?? '';
  return { status: response.statusCode ?? 0, contentType, body: Buffer.concat(chunks) };
}

/** A streaming GET (a watch): the response, whose body the caller reads as it comes. */
export async function rawStream(kubeConfig: KubeConfig, request: RawRequest): Promise<IncomingMessage> {
  return open(kubeConfig, request);
}
