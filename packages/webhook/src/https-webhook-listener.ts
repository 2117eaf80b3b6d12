/**
 * The HTTPS side of the process's webhook server: TLS, bounded bodies, AdmissionReview and
 * ConversionReview parsing, handler budgets and the answers. It serves whatever routes it is given,
 * on whichever thread it runs: the main thread (no admission thread) or the admission thread, where
 * some routes are answered in place and the others are handed to the main thread.
 */
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Logger } from 'pino';
import { z } from 'zod';

import { admissionReviewResponse, parseAdmissionReview } from './admission-review.ts';
import type { AdmissionHandler, AdmissionRequest, AdmissionResponse } from './admission-review.ts';
import { isJsonContentType, parseJsonBody, readBody, sendError, sendJson } from './admission-http.ts';
import type { ServingCertificate } from './certificate-source.ts';
import { conversionReviewSchema } from './conversion-review.ts';
import type { ConversionRequest, ConversionReviewResponse } from './conversion-review.ts';
import { invokeHandler } from './invoke-handler.ts';
import type { FailurePolicy } from './invoke-handler.ts';
import { isWebhookUnavailable } from './webhook-unavailable.ts';

/** An admission webhook as the listener serves it. */
export interface AdmissionRoute {
  readonly kind: 'admission';
  readonly path: string;
  readonly handler: AdmissionHandler;
  readonly failurePolicy: FailurePolicy;
  readonly timeoutMs?: number | undefined;
  /** For a handler that reads caches: resolves once they have synced (see invokeHandler). */
  readonly waitForCaches?: ((signal: AbortSignal) => Promise<void>) | undefined;
  readonly logger: Logger;
}

/** A CRD conversion webhook: no time budget and no failure policy (conversion is pure). */
export interface ConversionRoute {
  readonly kind: 'conversion';
  readonly path: string;
  readonly answer: (request: ConversionRequest) => ConversionReviewResponse | Promise<ConversionReviewResponse>;
  readonly logger: Logger;
}

export type ListenerRoute = AdmissionRoute | ConversionRoute;

/** Told about every request on a registered path (the `controller_runtime_webhook_*` metrics). */
export interface RequestObserver {
  started(path: string): void;
  finished(path: string, code: number, seconds: number): void;
}

export interface ListenerOptions {
  readonly routes: readonly ListenerRoute[];
  readonly logger: Logger;
  readonly observer: RequestObserver;
  readonly host?: string | undefined;
  readonly port: number;
  readonly requestTimeoutMs: number;
  readonly maxRequestBytes: number;
}

/** A request whose headers and body take longer than this to arrive is cut off (a slow client cannot hold a socket). */
const RECEIVE_TIMEOUT_MS = 30_000;
/** Longer than the API server's idle timeout (90 s), so that the client, not the server, ends an idle connection. */
const KEEP_ALIVE_TIMEOUT_MS = 120_000;

/** A listening HTTPS server of the routes; `setCertificate` swaps the certificate for new connections. */
export class HttpsWebhookListener {
  readonly #options: ListenerOptions;
  readonly #routes: ReadonlyMap<string, ListenerRoute>;
  #server: https.Server | undefined;
  #closing = false;

  constructor(options: ListenerOptions) {
    this.#options = options;
    this.#routes = new Map(options.routes.map((route) => [route.path, route]));
  }

  /** Listens with the certificate; resolves with the bound port. */
  async listen(certificate: ServingCertificate): Promise<number> {
    const server = https.createServer(
      { ...tlsOptions(certificate), requestTimeout: RECEIVE_TIMEOUT_MS },
      (request, response) => {
        void this.#serve(request, response);
      },
    );
    // The API server calls webhooks over HTTP/1.1 with a pool of idle connections it closes after 90 s
    // (client-go's transport). Node's 5 s default closed them between bursts, and every call after that
    // paid a new TLS handshake: 200 connections for 600 calls in a 300-pod scale-out, 27 with this.
    server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
    server.on('tlsClientError', (error) => {
      this.#options.logger.debug({ err: error }, 'A webhook client failed the TLS handshake');
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.#options.port, this.#options.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.#server = server;
    return (server.address() as AddressInfo).port;
  }

  setCertificate(certificate: ServingCertificate): void {
    this.#server?.setSecureContext(tlsOptions(certificate));
  }

  /**
   * Stops accepting connections and lets requests in flight finish (each is bounded by its time
   * budget); connections still open after the longest budget are cut.
   */
  async close(): Promise<void> {
    const server = this.#server;
    if (server === undefined) {
      return;
    }
    this.#closing = true;
    const closed = new Promise((resolve) => server.close(resolve));
    server.closeIdleConnections();
    const budgets = [...this.#routes.values()].map((route) =>
      route.kind === 'admission' ? (route.timeoutMs ?? 0) : 0,
    );
    const cut = setTimeout(
      () => {
        server.closeAllConnections();
      },
      Math.max(this.#options.requestTimeoutMs, ...budgets) + 1000,
    );
    await closed;
    clearTimeout(cut);
    this.#server = undefined;
  }

  async #serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (this.#closing) {
      response.setHeader('Connection', 'close');
    }
    const path = pathOf(request.url);
    const route = this.#routes.get(path);
    if (route === undefined) {
      sendError(response, { status: 404, message: `no webhook is registered at ${path}` });
      return;
    }
    const startedAt = performance.now();
    this.#options.observer.started(path);
    let code = 500;
    try {
      code =
        route.kind === 'admission'
          ? await this.#admit(route, request, response)
          : await this.#convert(route, request, response);
    } catch (error) {
      // A client that hangs up mid-body is the client's business; anything else is a bug here.
      route.logger[response.destroyed ? 'debug' : 'error']({ err: error }, 'Serving a webhook request failed');
      code = sendError(response, { status: 500, message: 'internal error of the webhook server' });
    } finally {
      this.#options.observer.finished(path, code, (performance.now() - startedAt) / 1000);
    }
  }

  /** Answers one request on a registered path; returns the HTTP status code. */
  async #admit(route: AdmissionRoute, request: IncomingMessage, response: ServerResponse): Promise<number> {
    const review = await this.#readReview(request, response);
    if (typeof review === 'number') {
      return review;
    }
    const clientGone = new AbortController();
    response.once('close', () => {
      clientGone.abort(new Error('the client closed the connection'));
    });
    const startedAt = performance.now();
    const answer = await this.#invoke(route, review, clientGone.signal);
    if (answer.unavailable !== undefined) {
      route.logger.warn(
        {
          uid: review.uid,
          kind: review.kind.kind,
          operation: review.operation,
          namespace: review.namespace,
          name: review.name,
          reason: answer.unavailable,
        },
        "Not ready to answer an admission request; answering 503, so the webhook configuration's failurePolicy decides",
      );
      return sendError(response, { status: 503, message: answer.unavailable });
    }
    if (route.logger.isLevelEnabled('debug')) {
      route.logger.debug(
        {
          uid: review.uid,
          kind: review.kind.kind,
          operation: review.operation,
          namespace: review.namespace,
          name: review.name,
          allowed: answer.response.allowed,
          patched: answer.response.patch !== undefined,
          latencyMs: Math.round(performance.now() - startedAt),
        },
        'Answered an admission request',
      );
    }
    return sendJson(response, { status: 200, body: admissionReviewResponse(review.uid, answer.response) });
  }

  /** The handler's answer, or why this replica cannot answer yet. */
  async #invoke(
    route: AdmissionRoute,
    review: AdmissionRequest,
    signal: AbortSignal,
  ): Promise<
    { readonly response: AdmissionResponse; readonly unavailable?: undefined } | { readonly unavailable: string }
  > {
    try {
      const response = await invokeHandler({
        webhook: route.path,
        handler: route.handler,
        request: review,
        timeoutMs: route.timeoutMs ?? this.#options.requestTimeoutMs,
        failurePolicy: route.failurePolicy,
        waitForCaches: route.waitForCaches,
        signal,
        logger: route.logger,
      });
      return { response };
    } catch (error) {
      if (isWebhookUnavailable(error)) {
        return { unavailable: error.message };
      }
      throw error;
    }
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
      this.#options.logger.warn(
        { path: route.path, problem: message.slice(0, 300) },
        'Refused a malformed conversion request',
      );
      return sendError(response, { status: 400, message });
    }
    const answer = await route.answer(review.data.request);
    const result = answer.response.result;
    route.logger[result.status === 'Success' ? 'debug' : 'warn'](
      {
        uid: review.data.request.uid,
        desiredAPIVersion: review.data.request.desiredAPIVersion,
        objects: review.data.request.objects.length,
        ...(result.status === 'Failure' ? { problem: result.message } : {}),
      },
      'Answered a conversion request',
    );
    return sendJson(response, { status: 200, body: answer });
  }

  /** The JSON body of a well-formed POST, or the status code of the error answer sent. */
  async #readJson(request: IncomingMessage, response: ServerResponse): Promise<{ readonly value: unknown } | number> {
    if (request.method !== 'POST') {
      return sendError(response, {
        status: 405,
        message: `method ${String(request.method)} is not allowed: webhook requests are POSTed`,
        headers: { Allow: 'POST' },
      });
    }
    if (!isJsonContentType(request.headers['content-type'])) {
      return sendError(response, {
        status: 415,
        message: `content type ${JSON.stringify(request.headers['content-type'] ?? '')} is not supported: expected application/json`,
      });
    }
    const body = await readBody(request, this.#options.maxRequestBytes);
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
      this.#options.logger.warn(
        { path: pathOf(request.url), problem: review.message.slice(0, 300) },
        'Refused a malformed admission request',
      );
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
