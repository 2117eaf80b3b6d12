import type https from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';
import { createSecureContext } from 'node:tls';
import type { SecureContext } from 'node:tls';

import { Agent, ProxyAgent } from 'undici';
import type { Dispatcher } from 'undici';

import { DecodeError } from '@kruise-ts/kube-protobuf';

import { TokenBucket } from '../flowcontrol/token-bucket.ts';
import { ApiError } from './api-error.ts';
import { currentServer } from './cluster-config.ts';
import type { KubeConfigLike } from './cluster-config.ts';
import { acceptHeader, decodeProtobufAnswer, isProtobuf, protobufStatusText } from './content-type.ts';
import type { ApiContentType, ProtobufRead } from './content-type.ts';
import { credentialHeaders } from './credential-headers.ts';
import { contentTypeOf, toApiError } from './http-answer.ts';
import type { HttpAnswer, StreamAnswer } from './http-answer.ts';
import { requestSignal } from './request-signal.ts';
import { requestUrl } from './request-url.ts';

/** What one finished request looked like, for metrics. */
export interface RequestRecord {
  /** client-go verb: get, list, watch, create, update, patch, delete. */
  readonly verb: string;
  readonly method: string;
  readonly host: string;
  /** The request path without query, e.g. `/api/v1/namespaces/ns/pods/p/status`: which object and subresource. */
  readonly path: string;
  /** HTTP status, or `<error>` when no response arrived. */
  readonly code: string;
  readonly durationSeconds: number;
  readonly rateLimiterSeconds: number;
  /** A server-side dry run (`dryRun=All`): validated and admitted, nothing stored, so not a write of state. */
  readonly dryRun?: boolean | undefined;
  /** The Accept header sent: which content types the request asked for. */
  readonly accept?: string | undefined;
}

/** Receives a record of every request; the manager feeds `rest_client_*` metrics from it. */
export interface RequestObserver {
  observeRequest(record: RequestRecord): void;
  /** An answer (a get, list or watch in protobuf) that did not decode; the read fails with the DecodeError. */
  observeDecodeError?(record: { readonly resource: string; readonly verb: string }): void;
}

export interface TransportOptions {
  readonly kubeConfig: KubeConfigLike;
  /** Client-side rate limit shared by all requests of this transport (client-go's QPS); ≤ 0 disables it. */
  readonly qps: number;
  readonly burst: number;
  readonly userAgent: string;
  readonly observer?: RequestObserver | undefined;
  /** Bound for one non-watch request. */
  readonly requestTimeoutMs?: number | undefined;
  /** How often a throttled (429) request is retried before its error is returned. */
  readonly maxThrottleRetries?: number | undefined;
  /** What built-in kinds are read in (`--api-content-type`); protobuf by default. */
  readonly apiContentType?: ApiContentType | undefined;
}

export interface HttpRequest {
  readonly verb: string;
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly query?: Readonly<Record<string, string | number | boolean | undefined>> | undefined;
  readonly body?: unknown;
  readonly contentType?: string | undefined;
  readonly signal?: AbortSignal | undefined;
  /** Set for a request of a kind the server can answer in protobuf: asked for then (unless the transport reads JSON), and decoded so. */
  readonly protobuf?: ProtobufRead | undefined;
  /** The caller has no use for a successful answer's body (a delete's): read past, not decoded. */
  readonly discardBody?: boolean | undefined;
}

/**
 * What transports made by `withOwnRateLimit` share with the one they came from. client-node builds a
 * new undici Agent (TLS context and connection pool) for every request it authenticates; used per
 * request, that means a TLS handshake per request, which cost most of the controller's CPU at 1,000
 * pods. One dispatcher is built for the transport's life instead, so connections are pooled and kept
 * alive. (The TLS material of a kubeconfig does not change while a process runs; tokens, which can,
 * are still read per request.)
 */
interface SharedConnections {
  dispatcher: Dispatcher | undefined;
  /** Aborted by `close`: every request in flight or waiting for a token ends with it. */
  readonly closed: AbortController;
}

/** client-go's verbs that change nothing. */
const READ_VERBS: ReadonlySet<string> = new Set(['get', 'list', 'watch']);

const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
const DEFAULT_THROTTLE_RETRIES = 5;
const MAX_RETRY_AFTER_MS = 10_000;
/** More than any one object's answer: an object in etcd is at most 1.5 MiB. */
const DISCARD_LIMIT_BYTES = 2 * 1024 * 1024;

/**
 * HTTP to the apiserver with the kubeconfig's credentials and TLS, a client-side token bucket (which
 * @kubernetes/client-node lacks), Retry-After handling for throttled requests, a timeout on every
 * request, Status bodies mapped to ApiError, and a record of each request for metrics.
 */
export class Transport {
  readonly #options: TransportOptions;
  readonly #limiter: TokenBucket;
  readonly #server: URL;
  readonly #shared: SharedConnections;
  /** Asked right before a write is sent (after the rate limiter): throwing refuses it. */
  #writeGuard: (() => void) | undefined;

  constructor(options: TransportOptions, shared?: SharedConnections) {
    this.#options = options;
    this.#server = currentServer(options.kubeConfig);
    this.#limiter = new TokenBucket({ qps: options.qps, burst: options.burst });
    this.#shared = shared ?? { dispatcher: undefined, closed: new AbortController() };
  }

  /**
   * A transport over the same connections, credentials and `close` whose requests wait for a rate
   * limit of their own, and which no write guard of this one applies to: a sharded replica's Lease
   * renewals must never queue behind its reconciles' writes (docs/sharding.md, "Fencing").
   */
  withOwnRateLimit(limit: { readonly qps: number; readonly burst: number }): Transport {
    return new Transport({ ...this.#options, ...limit }, this.#shared);
  }

  /**
   * Installs a check every later write (any verb but get, list and watch) must pass right before it
   * is sent, after waiting for the rate limiter: a fenced shard member refuses its own writes there,
   * so that none queued before its fence reaches the API server after it.
   */
  guardWrites(guard: () => void): void {
    this.#writeGuard = guard;
  }

  /** Sends a request and returns its parsed JSON body (undefined for an empty body). */
  async request(request: HttpRequest): Promise<unknown> {
    const retries = this.#options.maxThrottleRetries ?? DEFAULT_THROTTLE_RETRIES;
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.#attempt(request);
      if (!(outcome instanceof ApiError)) {
        return outcome.body;
      }
      if (!shouldRetry(outcome, request, { attempt, retries })) {
        throw outcome;
      }
      await sleep(Math.min((outcome.retryAfterSeconds ?? 1) * 1000, MAX_RETRY_AFTER_MS), undefined, {
        signal: request.signal,
      });
    }
  }

  /** One try of a request, within its timeout: the answer's body, or the ApiError of a non-2xx answer. */
  async #attempt(request: HttpRequest): Promise<{ readonly body: unknown } | ApiError> {
    const timeoutMs = this.#options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    const scope = requestSignal([request.signal, this.#shared.closed.signal], timeoutMs);
    try {
      const response = await this.#send(request, scope.signal);
      if (response.statusCode >= 200 && response.statusCode < 300) {
        return { body: await this.#body(response, request) };
      }
      return toApiError(response, await this.#errorText(response, request));
    } finally {
      scope.release();
    }
  }

  /**
   * Stops the transport for good: requests in flight or waiting for the rate limiter are aborted and
   * every later request rejects at once, so that nothing this process does after its shutdown
   * reaches the API server (a reconcile that outlived the graceful-shutdown timeout, an Event still
   * queued). Idempotent.
   */
  close(): void {
    this.#shared.closed.abort(new TransportClosedError());
    void this.#shared.dispatcher?.destroy().catch(() => undefined);
  }

  /**
   * Opens a streaming GET (watch). The caller reads the body to its end or stops reading (which
   * destroys it and so ends the request); a non-2xx answer throws ApiError.
   */
  async stream(request: HttpRequest): Promise<StreamAnswer> {
    const closed = this.#shared.closed.signal;
    const response = await this.#send(
      request,
      request.signal === undefined ? closed : AbortSignal.any([request.signal, closed]),
    );
    if (response.statusCode < 200 || response.statusCode >= 300) {
      throw toApiError(response, await this.#errorText(response, request));
    }
    return { contentType: contentTypeOf(response), body: response.body };
  }

  /** Counts a protobuf answer that did not decode (`kruise_ts_client_decode_errors_total`); the caller fails the read. */
  reportDecodeError(read: { readonly resource: string; readonly verb: string }): void {
    this.#options.observer?.observeDecodeError?.(read);
  }

  /** A successful answer's body: JSON parsed, or protobuf decoded (by its Content-Type: the server may answer JSON all the same). */
  async #body(response: HttpAnswer, request: HttpRequest): Promise<unknown> {
    if (request.discardBody === true) {
      // Read to its end, so that the connection serves the next request (undici closes it beyond the limit).
      await response.body.dump({ limit: DISCARD_LIMIT_BYTES });
      return undefined;
    }
    if (!isProtobuf(contentTypeOf(response))) {
      const text = await response.body.text();
      return text === '' ? undefined : (JSON.parse(text) as unknown);
    }
    const bytes = new Uint8Array(await response.body.arrayBuffer());
    try {
      return decodeProtobufAnswer(bytes, request);
    } catch (error) {
      if (error instanceof DecodeError) {
        this.reportDecodeError({ resource: request.protobuf?.resource ?? request.path, verb: request.verb });
      }
      throw error;
    }
  }

  /** An error answer's body as JSON text (a Status comes in protobuf when protobuf was asked for). */
  async #errorText(response: HttpAnswer, request: HttpRequest): Promise<string> {
    if (!isProtobuf(contentTypeOf(response))) {
      return response.body.text();
    }
    return protobufStatusText(new Uint8Array(await response.body.arrayBuffer()), request);
  }

  /**
   * undici's `request`, not `fetch`: the WHATWG layer (Request and Response objects, Headers, web
   * streams, the body's mixin) cost more of a controller's CPU than the HTTP/1.1 client under it
   * (docs/benchmarks.md, "Issue 41"), and nothing here needs it.
   */
  async #send(request: HttpRequest, cancel: AbortSignal): Promise<HttpAnswer> {
    this.#shared.closed.signal.throwIfAborted();
    const url = requestUrl(this.#server, request);
    const limiterStart = performance.now();
    await this.#limiter.wait(cancel);
    if (!READ_VERBS.has(request.verb)) {
      this.#writeGuard?.();
    }
    const started = performance.now();
    const { headers, dispatcher } = await this.#authenticate(request);
    const accept = headers['Accept'];
    cancel.throwIfAborted();
    let code = '<error>';
    try {
      const response = await dispatcher.request({
        origin: url.origin,
        path: url.pathname + url.search,
        method: request.method,
        headers,
        body: request.body === undefined ? null : JSON.stringify(request.body),
        signal: cancel,
      });
      code = String(response.statusCode);
      return response;
    } finally {
      this.#options.observer?.observeRequest({
        verb: request.verb,
        method: request.method,
        host: this.#server.host,
        path: request.path,
        code,
        durationSeconds: (performance.now() - started) / 1000,
        rateLimiterSeconds: (started - limiterStart) / 1000,
        ...(request.query?.['dryRun'] === undefined ? {} : { dryRun: true }),
        accept,
      });
    }
  }

  async #authenticate(request: HttpRequest): Promise<{ headers: Record<string, string>; dispatcher: Dispatcher }> {
    const options: https.RequestOptions = {};
    await this.#options.kubeConfig.applyToHTTPSOptions(options);
    const headers: Record<string, string> = {
      ...credentialHeaders(options),
      Accept: acceptHeader(this.#options.apiContentType ?? 'protobuf', request),
      'User-Agent': this.#options.userAgent,
    };
    if (request.body !== undefined) {
      headers['Content-Type'] = request.contentType ?? 'application/json';
    }
    this.#shared.dispatcher ??= http1Dispatcher(this.#options.kubeConfig.getCurrentCluster()?.proxyUrl, options);
    return { headers, dispatcher: this.#shared.dispatcher };
  }
}

/**
 * An HTTP/1.1 connection pool with the kubeconfig's TLS material (through `proxyUrl` when the
 * kubeconfig names one). undici 8 negotiates HTTP/2 by default, and its HTTP/2 client can destroy an
 * idle session's socket with an 'error' nobody listens to any more: an uncaught exception that ends
 * the process (seen in CI: "InformationalError: socket idle timeout" from client-h2's idle reaper; the
 * same family as "SocketError: other side closed" in forcedotcom/cli#3622). A controller must not die
 * of an idle connection, so the transport speaks HTTP/1.1, as client-go does when HTTP/2 is disabled.
 */
function http1Dispatcher(proxyUrl: string | undefined, tls: https.RequestOptions): Dispatcher {
  const connect = {
    secureContext: secureContextOf(tls),
    ...(tls.rejectUnauthorized === undefined ? {} : { rejectUnauthorized: tls.rejectUnauthorized }),
    ...(tls.servername === undefined ? {} : { servername: tls.servername }),
    // client-node's (and client-go's) TCP keep-alive, under cloud load balancers' idle timeouts.
    keepAlive: true,
    keepAliveInitialDelay: 30_000,
  };
  const pool =
    proxyUrl === undefined
      ? new Agent({ connect, allowH2: false, ...IDLE_CONNECTIONS })
      : new ProxyAgent({ uri: proxyUrl, requestTls: connect, allowH2: false, ...IDLE_CONNECTIONS });
  return pool.compose(keepConnectionAfterBody);
}

/**
 * Keeps the connection after a request whose method usually has no body but had one: undici closes it
 * (for a server that would leave the body unread and misread it as the next request), and a DELETE
 * carries DeleteOptions (the pod's uid as a precondition). So every pod delete cost a new connection,
 * a TLS handshake on both sides: 1,000 in a ReCreate of 1,000 pods (`undici.InformationalError:
 * reset` in a CPU profile of one). kube-apiserver (Go's net/http) reads a request's body before it
 * reads the next request, so the connection can be kept, as client-go keeps it.
 */
const keepConnectionAfterBody: Dispatcher.DispatcherComposeInterceptor = (dispatch) => (options, handler) =>
  dispatch({ ...options, reset: false }, handler);

/**
 * How long an idle connection is kept: undici's default of 4 s closed the pool between a
 * controller's bursts of writes, and each burst opened its connections again, a TLS handshake each
 * for the API server and for us. kube-apiserver keeps idle connections for 90 s, so the client
 * still closes first.
 */
const IDLE_CONNECTIONS = { keepAliveTimeout: 60_000, keepAliveMaxTimeout: 60_000 } as const;

/**
 * The kubeconfig's CA and client certificate as one TLS context for every connection: given as
 * PEM options, Node.js builds a context (parsing the CA and key) for each new connection, which cost
 * 1.6 s of a 1,000-pod scale-out's CPU (measured in docs/benchmarks.md).
 */
function secureContextOf(tls: https.RequestOptions): SecureContext {
  return createSecureContext({
    ...(tls.ca === undefined ? {} : { ca: tls.ca }),
    ...(tls.cert === undefined ? {} : { cert: tls.cert }),
    ...(tls.key === undefined ? {} : { key: tls.key }),
    ...(tls.pfx === undefined ? {} : { pfx: tls.pfx }),
    ...(tls.passphrase === undefined ? {} : { passphrase: tls.passphrase }),
  });
}

/** The reason of every request after `Transport.close`. */
export class TransportClosedError extends Error {
  constructor() {
    super('the API client was closed (the process is shutting down)');
    this.name = 'TransportClosedError';
  }
}

/**
 * A 429 was not processed at all, so any verb may be retried; a 5xx with Retry-After is retried only
 * for reads, where repeating cannot duplicate a write (client-go's rule).
 */
function shouldRetry(error: ApiError, request: HttpRequest, budget: { attempt: number; retries: number }): boolean {
  if (budget.attempt >= budget.retries || request.signal?.aborted === true) {
    return false;
  }
  if (error.code === 429) {
    return true;
  }
  return request.method === 'GET' && error.code >= 500 && error.retryAfterSeconds !== undefined;
}
