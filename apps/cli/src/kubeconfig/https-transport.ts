/**
 * The CLI's HTTP client: Node's own `https` (part of Node's start-up snapshot) instead of the runtime's
 * undici Transport, whose 1.2 MB of JavaScript and WebAssembly parser took a third of a command's
 * start-up. A command sends a handful of requests, so it needs none of the Transport's rate limiting,
 * metrics or watch streams. Proxies still go through the Transport (see connect.ts).
 */
import type https from 'node:https';

import {
  acceptHeader,
  apiErrorFromAnswer,
  credentialHeaders,
  currentServer,
  decodeProtobufAnswer,
  isProtobuf,
  protobufStatusText,
  requestUrl,
} from '@kruise-ts/controller-runtime';
import type { HttpRequest, KubeConfigLike, RequestSender } from '@kruise-ts/controller-runtime';

// Through getBuiltinModule, not `import`: the ESM view of node:http reads every export once, and one
// of them loads Node's bundled undici (another 15 ms of start-up) that this client never uses.
const httpModule = process.getBuiltinModule('node:http');
const httpsModule = process.getBuiltinModule('node:https');

export interface HttpsTransportOptions {
  readonly kubeConfig: KubeConfigLike;
  readonly userAgent: string;
  readonly requestTimeoutMs: number;
}

interface Answer {
  readonly code: number;
  readonly statusText: string;
  readonly body: Buffer;
  readonly contentType: string | undefined;
  readonly retryAfter: string | undefined;
}

export class HttpsTransport implements RequestSender {
  readonly #options: HttpsTransportOptions;
  readonly #server: URL;
  // One connection for the command's few requests, instead of a TLS handshake each.
  readonly #agents = {
    https: new httpsModule.Agent({ keepAlive: true }),
    http: new httpModule.Agent({ keepAlive: true }),
  };

  constructor(options: HttpsTransportOptions) {
    this.#options = options;
    this.#server = currentServer(options.kubeConfig);
  }

  async request(request: HttpRequest): Promise<unknown> {
    const tls: https.RequestOptions = {};
    await this.#options.kubeConfig.applyToHTTPSOptions(tls);
    const body = request.body === undefined ? undefined : JSON.stringify(request.body);
    const headers: Record<string, string> = {
      ...credentialHeaders(tls),
      // Built-in kinds in protobuf, as the controllers read them (kube-protobuf is loaded with the runtime's client).
      Accept: acceptHeader('protobuf', request),
      'User-Agent': this.#options.userAgent,
    };
    if (body !== undefined) {
      headers['Content-Type'] = request.contentType ?? 'application/json';
      // Node frames a body by chunked encoding only for methods that usually have one: a DELETE's
      // DeleteOptions went out unframed, and the API server read them as the start of the next request
      // on the kept-alive connection (400 Bad Request).
      headers['Content-Length'] = String(Buffer.byteLength(body));
    }
    const timeout = AbortSignal.timeout(this.#options.requestTimeoutMs);
    const signal = request.signal === undefined ? timeout : AbortSignal.any([request.signal, timeout]);
    const answer = await this.#send(
      requestUrl(this.#server, request),
      { ...tlsOnly(tls), method: request.method, headers, signal },
      body,
    );
    if (answer.code >= 200 && answer.code < 300) {
      return answerBody(answer, request);
    }
    throw apiErrorFromAnswer({ ...answer, text: errorText(answer, request) });
  }

  close(): void {
    this.#agents.https.destroy();
    this.#agents.http.destroy();
  }

  #send(url: URL, options: https.RequestOptions, body: string | undefined): Promise<Answer> {
    const secure = url.protocol === 'https:';
    const client = secure ? httpsModule : httpModule;
    return new Promise((resolve, reject) => {
      const outgoing = client.request(
        url,
        { ...options, agent: secure ? this.#agents.https : this.#agents.http },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', reject);
          response.on('end', () => {
            const retryAfter = response.headers['retry-after'];
            resolve({
              code: response.statusCode ?? 0,
              statusText: response.statusMessage ?? '',
              body: Buffer.concat(chunks),
              contentType: response.headers['content-type'],
              retryAfter,
            });
          });
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  }
}

/** A successful answer's body: protobuf decoded by its Content-Type (the server may answer JSON all the same), or JSON parsed. */
function answerBody(answer: Answer, request: HttpRequest): unknown {
  if (answer.body.length === 0 || request.discardBody === true) {
    return undefined;
  }
  if (isProtobuf(answer.contentType ?? null)) {
    return decodeProtobufAnswer(answer.body, request);
  }
  return JSON.parse(answer.body.toString('utf8')) as unknown;
}

/** An error answer's body as JSON text (a Status comes in protobuf when protobuf was asked for). */
function errorText(answer: Answer, request: HttpRequest): string {
  return isProtobuf(answer.contentType ?? null)
    ? protobufStatusText(answer.body, request)
    : answer.body.toString('utf8');
}

/** The TLS material of the kubeconfig's options (its credentials travel as headers). */
function tlsOnly(options: https.RequestOptions): https.RequestOptions {
  const { ca, cert, key, pfx, passphrase, rejectUnauthorized, servername } = options;
  return Object.fromEntries(
    Object.entries({ ca, cert, key, pfx, passphrase, rejectUnauthorized, servername }).filter(
      ([, value]) => value !== undefined,
    ),
  );
}
