import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Logger } from 'pino';
import { Registry } from 'prom-client';
import { z } from 'zod';

import type { HealthCheck } from '../health/probe-server.ts';
import type { Runnable } from '../manager/runnable.ts';
import { admissionReviewResponse, parseAdmissionReview } from './admission-review.ts';
import type { AdmissionHandler, AdmissionRequest } from './admission-review.ts';
import { isJsonContentType, parseJsonBody, readBody, sendError, sendJson } from './admission-http.ts';
import type { CertificateSource, ServingCertificate } from './certificate-source.ts';
import { invokeHandler } from './invoke-handler.ts';
import type { FailurePolicy } from './invoke-handler.ts';
import { answerConversionReview, conversionReviewSchema } from './conversion-review.ts';
import type { ObjectConverter } from './conversion-review.ts';
import { createWebhookMetrics } from './webhook-metrics.ts';
import type { WebhookMetrics } from './webhook-metrics.ts';

export interface WebhookServerOptions {
  readonly certificates: CertificateSource;
  readonly logger: Logger;
  /** The address to listen on; every interface when undefined (the API server comes through a Service). */
  readonly host?: string | undefined;
  /** 9443 (controller-runtime's and OpenKruise's webhook port) by default; 0 picks a free port. */
  readonly port?: number | undefined;
  /** Where the `controller_runtime_webhook_*` metrics go: the manager's `metrics.registry`. */
  readonly registry?: Registry | undefined;
  /** The time budget of a handler (3 s), within the `timeoutSeconds` of the webhook configuration. */
  readonly requestTimeoutMs?: number | undefined;
  /** Larger request bodies are refused with 413 (3 MiB, the API server's own request limit). */
  readonly maxRequestBytes?: number | undefined;
}

export interface WebhookOptions {
  /** The answer when the handler throws or exceeds its budget; see the package README on fail-open. */
  readonly failurePolicy: FailurePolicy;
  /** Overrides the server's `requestTimeoutMs` for this webhook. */
  readonly timeoutMs?: number | undefined;
}

interface Route extends WebhookOptions {
  readonly path: string;
  readonly handler: AdmissionHandler;
  readonly logger: Logger;
}

/** A CRD conversion webhook: synchronous and pure, so it has no time budget and no failure policy. */
interface ConversionRoute {
  readonly path: string;
  readonly convert: ObjectConverter;
  readonly logger: Logger;
}

const DEFAULT_PORT = 9443;
const DEFAULT_TIMEOUT_MS = 3000;
const DEFAULT_MAX_REQUEST_BYTES = 3 * 1024 * 1024;
/** A request whose headers and body take longer than this to arrive is cut off (a slow client cannot hold a socket). */
const RECEIVE_TIMEOUT_MS = 30_000;

/**
 * The one HTTPS admission webhook server of a process (controller-runtime's `webhook.Server`): every
 * app of the process registers its handlers at their paths before the manager starts. It runs on
 * every replica, leader or not, because the API server calls whichever replica its Service picks.
 * The certificate comes from a `CertificateSource` and is swapped for new connections whenever the
 * source renews it. Each request: POST, `application/json`, an AdmissionReview v1 body (else 4xx with a
 * JSON message); the handler's answer within its time budget, else its failure policy's.
 */
export class WebhookServer implements Runnable {
  readonly needLeaderElection = false;
  readonly #options: WebhookServerOptions;
  readonly #metrics: WebhookMetrics;
  readonly #routes = new Map<string, Route>();
  readonly #conversions = new Map<string, ConversionRoute>();
  readonly #listening = Promise.withResolvers<number>();
  #started = false;
  #closing = false;
  #port: number | undefined;

  constructor(options: WebhookServerOptions) {
    this.#options = options;
    this.#metrics = createWebhookMetrics(options.registry ?? new Registry());
    // Nobody may be waiting for the port; a failed start is reported by `start` itself.
    this.#listening.promise.catch(() => undefined);
  }

  /** Serves `handler` at `path` (e.g. `/mutate-pod`); only before `start`. */
  register(path: string, handler: AdmissionHandler, options: WebhookOptions): void {
    this.#checkFree(path);
    this.#routes.set(path, { ...options, path, handler, logger: this.#options.logger.child({ webhook: path }) });
  }

  /**
   * Serves a CRD conversion webhook at `path` (e.g. `/convert`): ConversionReview v1 requests, each
   * object converted by `convert`; only before `start`.
   */
  registerConversion(path: string, convert: ObjectConverter): void {
    this.#checkFree(path);
    this.#conversions.set(path, { path, convert, logger: this.#options.logger.child({ webhook: path }) });
  }

  #checkFree(path: string): void {
    if (this.#started) {
      throw new Error(`cannot register webhook ${path}: the webhook server has started`);
    }
    if (!path.startsWith('/') || path.includes('?') || path.includes('#')) {
      throw new Error(`invalid webhook path ${JSON.stringify(path)}: expected an absolute path such as /mutate-pod`);
    }
    if (this.#routes.has(path) || this.#conversions.has(path)) {
      throw new Error(`a webhook is already registered at ${path}`);
    }
  }

  /** The registered paths (admission and conversion). */
  paths(): string[] {
    return [...this.#routes.keys(), ...this.#conversions.keys()];
  }

  /** Where the serving certificate comes from: a process that writes its own webhook configuration takes the CA bundle from it. */
  get certificates(): CertificateSource {
    return this.#options.certificates;
  }

  /** The bound port once listening (useful with port 0). */
  port(): number | undefined {
    return this.#port;
  }

  /** Resolves with the bound port once the server listens; rejects when starting fails. */
  listening(): Promise<number> {
    return this.#listening.promise;
  }

  /** A readiness check that passes while the server listens (controller-runtime's `StartedChecker`). */
  startedChecker(): HealthCheck {
    return () => this.#port !== undefined && !this.#closing;
  }

  /** Starts the certificate source, listens, and serves until the signal aborts; then drains. */
  async start(signal: AbortSignal): Promise<void> {
    if (this.#started) {
      throw new Error('the webhook server was started twice');
    }
    this.#started = true;
    let server: https.Server;
    try {
      server = await this.#listen(signal);
    } catch (error) {
      this.#listening.reject(error);
      throw error;
    }
    await new Promise((resolve) => {
      if (signal.aborted) {
        resolve(undefined);
      }
      signal.addEventListener('abort', resolve, { once: true });
    });
    await this.#close(server);
  }

  async #listen(signal: AbortSignal): Promise<https.Server> {
    const source = this.#options.certificates;
    await source.start(signal);
    const certificate = source.current();
    if (certificate === undefined) {
      throw new Error('the certificate source started without a certificate');
    }
    const server = https.createServer({ ...tlsOptions(certificate), requestTimeout: RECEIVE_TIMEOUT_MS }, (request, response) => {
      void this.#serve(request, response);
    });
    const unsubscribe = source.onChange((next) => {
      server.setSecureContext(tlsOptions(next));
    });
    server.once('close', unsubscribe);
    server.on('tlsClientError', (error) => {
      this.#options.logger.debug({ err: error }, 'A webhook client failed the TLS handshake');
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.#options.port ?? DEFAULT_PORT, this.#options.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.#port = (server.address() as AddressInfo).port;
    this.#options.logger.info({ port: this.#port, paths: this.paths() }, 'Serving admission webhooks');
    this.#listening.resolve(this.#port);
    return server;
  }

  /**
   * Stops accepting connections and lets requests in flight finish (each is bounded by its time
   * budget); connections still open after the longest budget are cut.
   */
  async #close(server: https.Server): Promise<void> {
    this.#closing = true;
    const closed = new Promise((resolve) => server.close(resolve));
    server.closeIdleConnections();
    const longestMs = Math.max(this.#defaultTimeoutMs(), ...[...this.#routes.values()].map((route) => route.timeoutMs ?? 0));
    const cut = setTimeout(() => {
      server.closeAllConnections();
    }, longestMs + 1000);
    await closed;
    clearTimeout(cut);
    this.#port = undefined;
    this.#options.logger.info('Stopped serving admission webhooks');
  }

  #defaultTimeoutMs(): number {
    return this.#options.requestTimeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  async #serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (this.#closing) {
      response.setHeader('Connection', 'close');
    }
    const path = pathOf(request.url);
    const route = this.#routes.get(path);
    const conversion = this.#conversions.get(path);
    if (route === undefined && conversion === undefined) {
      sendError(response, { status: 404, message: `no webhook is registered at ${path}` });
      return;
    }
    const labels = { webhook: path };
    const logger = (route ?? conversion)?.logger ?? this.#options.logger;
    const startedAt = performance.now();
    this.#metrics.inFlight.inc(labels);
    let code = 500;
    try {
      code = await this.#answer({ route, conversion }, request, response);
    } catch (error) {
      // A client that hangs up mid-body is the client's business; anything else is a bug here.
      logger[response.destroyed ? 'debug' : 'error']({ err: error }, 'Serving a webhook request failed');
      code = sendError(response, { status: 500, message: 'internal error of the webhook server' });
    } finally {
      this.#metrics.inFlight.dec(labels);
      this.#metrics.requests.inc({ ...labels, code: String(code) });
      this.#metrics.latency.observe({ ...labels, code: String(code) }, (performance.now() - startedAt) / 1000);
    }
  }

  async #answer(at: { readonly route: Route | undefined; readonly conversion: ConversionRoute | undefined }, request: IncomingMessage, response: ServerResponse): Promise<number> {
    if (at.route !== undefined) return this.#admit(at.route, request, response);
    if (at.conversion !== undefined) return this.#convert(at.conversion, request, response);
    return sendError(response, { status: 404, message: 'no webhook is registered here' });
  }

  /** Answers one request on a registered path; returns the HTTP status code. */
  async #admit(route: Route, request: IncomingMessage, response: ServerResponse): Promise<number> {
    const review = await this.#readReview(request, response);
    if (typeof review === 'number') {
      return review;
    }
    const clientGone = new AbortController();
    response.once('close', () => {
      clientGone.abort(new Error('the client closed the connection'));
    });
    const startedAt = performance.now();
    const answer = await invokeHandler({
      webhook: route.path,
      handler: route.handler,
      request: review,
      timeoutMs: route.timeoutMs ?? this.#defaultTimeoutMs(),
      failurePolicy: route.failurePolicy,
      signal: clientGone.signal,
      logger: route.logger,
    });
    route.logger.debug(
      { uid: review.uid, kind: review.kind.kind, operation: review.operation, namespace: review.namespace, name: review.name, allowed: answer.allowed, patched: answer.patch !== undefined, latencyMs: Math.round(performance.now() - startedAt) },
      'Answered an admission request',
    );
    return sendJson(response, { status: 200, body: admissionReviewResponse(review.uid, answer) });
  }

  /** Answers one ConversionReview; returns the HTTP status code. */
  async #convert(route: ConversionRoute, request: IncomingMessage, response: ServerResponse): Promise<number> {
    const json = await this.#readJson(request, response);
    if (typeof json === 'number') {
      return json;
    }
    const review = conversionReviewSchema.safeParse(json.value);
    if (!review.success) {
      const message = `not a ConversionReview v1: ${z.prettifyError(review.error)}`;
      this.#options.logger.warn({ path: route.path, problem: message.slice(0, 300) }, 'Refused a malformed conversion request');
      return sendError(response, { status: 400, message });
    }
    const answer = answerConversionReview(review.data.request, route.convert);
    const result = answer.response.result;
    route.logger[result.status === 'Success' ? 'debug' : 'warn'](
      { uid: review.data.request.uid, desiredAPIVersion: review.data.request.desiredAPIVersion, objects: review.data.request.objects.length, ...(result.status === 'Failure' ? { problem: result.message } : {}) },
      'Answered a conversion request',
    );
    return sendJson(response, { status: 200, body: answer });
  }

  /** The JSON body of a well-formed POST, or the status code of the error answer sent. */
  async #readJson(request: IncomingMessage, response: ServerResponse): Promise<{ readonly value: unknown } | number> {
    if (request.method !== 'POST') {
      return sendError(response, { status: 405, message: `method ${String(request.method)} is not allowed: webhook requests are POSTed`, headers: { Allow: 'POST' } });
    }
    if (!isJsonContentType(request.headers['content-type'])) {
      return sendError(response, { status: 415, message: `content type ${JSON.stringify(request.headers['content-type'] ?? '')} is not supported: expected application/json` });
    }
    const body = await readBody(request, this.#options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES);
    if (!body.ok) {
      // The rest of the body is not read: the connection cannot be reused.
      return sendError(response, { status: 413, message: body.message, headers: { Connection: 'close' } });
    }
    const json = parseJsonBody(body.body);
    return json.ok ? { value: json.value } : sendError(response, { status: 400, message: json.message });
  }

  /** The admission request of a well-formed request, or the status code of the error answer sent. */
  async #readReview(request: IncomingMessage, response: ServerResponse): Promise<AdmissionRequest | number> {
    const json = await this.#readJson(request, response);
    if (typeof json === 'number') {
      return json;
    }
    const review = parseAdmissionReview(json.value);
    if (!review.ok) {
      this.#options.logger.warn({ path: pathOf(request.url), problem: review.message.slice(0, 300) }, 'Refused a malformed admission request');
      return sendError(response, { status: 400, message: review.message });
    }
    return review.request;
  }

}

function tlsOptions(certificate: ServingCertificate): { cert: string; key: string; minVersion: 'TLSv1.2' } {
  return { cert: certificate.certPem, key: certificate.keyPem, minVersion: 'TLSv1.2' };
}

/** The path of a request target, without the query (the API server adds `?timeout=10s`). */
function pathOf(url: string | undefined): string {
  const target = url ?? '/';
  const end = target.search(/[?#]/);
  return end < 0 ? target : target.slice(0, end);
}
