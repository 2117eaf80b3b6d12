import type { Logger } from 'pino';
import { Registry } from 'prom-client';

import type { HealthCheck } from '@kruise-ts/controller-runtime';
import type { Runnable } from '@kruise-ts/controller-runtime';
import type { AdmissionHandler } from './admission-review.ts';
import type { CertificateSource } from './certificate-source.ts';
import { answerConversionReview } from './conversion-review.ts';
import type { ObjectConverter } from './conversion-review.ts';
import { HttpsWebhookListener } from './https-webhook-listener.ts';
import type { ListenerRoute } from './https-webhook-listener.ts';
import type { FailurePolicy } from './invoke-handler.ts';
import { runAdmissionThread } from './thread/admission-thread.ts';
import { importThreadHandler } from './thread/thread-handler.ts';
import type { MirroredInformer, ThreadedWebhook } from './thread/thread-handler.ts';
import type { ThreadRoute } from './thread/thread-messages.ts';
import { conversionMetricsObserver, createWebhookMetrics, metricsObserver } from './webhook-metrics.ts';
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
  /**
   * Serve from an admission thread (a worker thread) when a threaded handler is registered: TLS,
   * parsing and the threaded handlers run there, off the main thread's event loop; other handlers
   * are handed to the main thread. Off (the default here; the apps' `--webhook-thread` turns it on),
   * everything runs on the main thread.
   */
  readonly admissionThread?: boolean | undefined;
}

export interface WebhookOptions {
  /** The answer when the handler throws or exceeds its budget; see the package README on fail-open. */
  readonly failurePolicy: FailurePolicy;
  /** Overrides the server's `requestTimeoutMs` for this webhook. */
  readonly timeoutMs?: number | undefined;
}

type Route =
  | ({ readonly kind: 'admission'; readonly path: string; readonly handler: AdmissionHandler } & WebhookOptions)
  | ({ readonly kind: 'threaded'; readonly path: string; readonly webhook: ThreadedWebhook } & WebhookOptions)
  | { readonly kind: 'conversion'; readonly path: string; readonly convert: ObjectConverter };

const DEFAULT_PORT = 9443;
const DEFAULT_TIMEOUT_MS = 3000;
const DEFAULT_MAX_REQUEST_BYTES = 3 * 1024 * 1024;

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
  // The chart's webhook Services publish not-ready addresses: a terminating replica is still called.
  readonly servesUntilExit = true;
  readonly #options: WebhookServerOptions;
  readonly #metrics: WebhookMetrics;
  readonly #routes = new Map<string, Route>();
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

  /** Serves `handler` at `path` (e.g. `/mutate-pod`) on the main thread; only before `start`. */
  register(path: string, handler: AdmissionHandler, options: WebhookOptions): void {
    this.#checkFree(path);
    this.#routes.set(path, { ...options, kind: 'admission', path, handler });
  }

  /**
   * Serves the handler of a module at `path`, on the admission thread when the server has one (see
   * `admissionThread`), with mirrors of the caches it names; only before `start`.
   */
  registerThreaded(path: string, webhook: ThreadedWebhook, options: WebhookOptions): void {
    this.#checkFree(path);
    this.#routes.set(path, { ...options, kind: 'threaded', path, webhook });
  }

  /**
   * Serves a CRD conversion webhook at `path` (e.g. `/convert`): ConversionReview v1 requests, each
   * object converted by `convert`; only before `start`.
   */
  registerConversion(path: string, convert: ObjectConverter): void {
    this.#checkFree(path);
    this.#routes.set(path, { kind: 'conversion', path, convert });
  }

  #checkFree(path: string): void {
    if (this.#started) {
      throw new Error(`cannot register webhook ${path}: the webhook server has started`);
    }
    if (!path.startsWith('/') || path.includes('?') || path.includes('#')) {
      throw new Error(`invalid webhook path ${JSON.stringify(path)}: expected an absolute path such as /mutate-pod`);
    }
    if (this.#routes.has(path)) {
      throw new Error(`a webhook is already registered at ${path}`);
    }
  }

  /** The registered paths (admission and conversion). */
  paths(): string[] {
    return [...this.#routes.keys()];
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

  /** Whether requests are served from an admission thread. */
  servesFromThread(): boolean {
    return (
      this.#options.admissionThread === true && [...this.#routes.values()].some((route) => route.kind === 'threaded')
    );
  }

  /** Starts the certificate source, listens, and serves until the signal aborts; then drains. */
  async start(signal: AbortSignal): Promise<void> {
    if (this.#started) {
      throw new Error('the webhook server was started twice');
    }
    this.#started = true;
    signal.addEventListener(
      'abort',
      () => {
        this.#closing = true;
      },
      { once: true },
    );
    try {
      await (this.servesFromThread() ? this.#serveFromThread(signal) : this.#serveHere(signal));
    } catch (error) {
      this.#listening.reject(error);
      throw error;
    } finally {
      this.#port = undefined;
    }
    this.#options.logger.info('Stopped serving admission webhooks');
  }

  #listened(port: number, where: string): void {
    this.#port = port;
    this.#options.logger.info({ port, paths: this.paths(), thread: where }, 'Serving admission webhooks');
    this.#listening.resolve(port);
  }

  async #serveHere(signal: AbortSignal): Promise<void> {
    const source = this.#options.certificates;
    await source.start(signal);
    const certificate = source.current();
    if (certificate === undefined) {
      throw new Error('the certificate source started without a certificate');
    }
    const routes = await Promise.all([...this.#routes.values()].map((route) => this.#listenerRoute(route)));
    const listener = new HttpsWebhookListener({
      routes,
      logger: this.#options.logger,
      observer: metricsObserver(this.#metrics),
      host: this.#options.host,
      port: this.#options.port ?? DEFAULT_PORT,
      requestTimeoutMs: this.#defaultTimeoutMs(),
      maxRequestBytes: this.#options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES,
    });
    const unsubscribe = source.onChange((next) => {
      listener.setCertificate(next);
    });
    try {
      this.#listened(await listener.listen(certificate), 'main');
      await abortedOf(signal);
      await listener.close();
    } finally {
      unsubscribe();
    }
  }

  async #listenerRoute(route: Route): Promise<ListenerRoute> {
    const logger = this.#options.logger.child({ webhook: route.path });
    switch (route.kind) {
      case 'conversion':
        return {
          kind: 'conversion',
          path: route.path,
          logger,
          answer: (request) => answerConversionReview(request, route.convert, conversionMetricsObserver(this.#metrics)),
        };
      case 'admission':
        return {
          kind: 'admission',
          path: route.path,
          handler: route.handler,
          failurePolicy: route.failurePolicy,
          timeoutMs: route.timeoutMs,
          logger,
        };
      case 'threaded': {
        const { stores } = route.webhook;
        const module = await importThreadHandler(route.webhook.module);
        const waitForSync = async (signal: AbortSignal): Promise<void> => {
          await Promise.all(Object.values(stores).map((informer) => informer.waitForSync(signal)));
          signal.throwIfAborted();
        };
        const handler = module.createAdmissionHandler({
          options: route.webhook.options,
          logger,
          lister: (store) => storeOf(stores, store).lister() as never,
          waitForSync,
        });
        return {
          kind: 'admission',
          path: route.path,
          handler,
          failurePolicy: route.failurePolicy,
          timeoutMs: route.timeoutMs,
          waitForCaches: waitForSync,
          logger,
        };
      }
    }
  }

  async #serveFromThread(signal: AbortSignal): Promise<void> {
    const routes = [...this.#routes.values()];
    const stores = new Map<string, MirroredInformer>();
    for (const route of routes) {
      if (route.kind !== 'threaded') {
        continue;
      }
      for (const [name, informer] of Object.entries(route.webhook.stores)) {
        if (stores.has(name) && stores.get(name) !== informer) {
          throw new Error(`two threaded webhooks name different caches ${JSON.stringify(name)}`);
        }
        stores.set(name, informer);
      }
    }
    const logger = this.#options.logger;
    await runAdmissionThread(
      {
        data: {
          routes: routes.map(threadRoute),
          host: this.#options.host,
          port: this.#options.port ?? DEFAULT_PORT,
          requestTimeoutMs: this.#defaultTimeoutMs(),
          maxRequestBytes: this.#options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES,
          logLevel: logger.level,
          logBindings: logger.bindings(),
        },
        handlers: new Map(
          routes.flatMap((route) =>
            route.kind === 'admission'
              ? [
                  [
                    route.path,
                    { handler: route.handler, timeoutMs: route.timeoutMs ?? this.#defaultTimeoutMs() },
                  ] as const,
                ]
              : [],
          ),
        ),
        converters: new Map(
          routes.flatMap((route) => (route.kind === 'conversion' ? [[route.path, route.convert] as const] : [])),
        ),
        stores,
        certificates: this.#options.certificates,
        metrics: this.#metrics,
        logger,
        onListening: (port) => {
          this.#listened(port, 'admission');
        },
      },
      signal,
    );
  }

  #defaultTimeoutMs(): number {
    return this.#options.requestTimeoutMs ?? DEFAULT_TIMEOUT_MS;
  }
}

function threadRoute(route: Route): ThreadRoute {
  switch (route.kind) {
    case 'conversion':
      return { kind: 'forwarded-conversion', path: route.path };
    case 'admission':
      return {
        kind: 'forwarded-admission',
        path: route.path,
        failurePolicy: route.failurePolicy,
        timeoutMs: route.timeoutMs,
      };
    case 'threaded':
      return {
        kind: 'threaded',
        path: route.path,
        module: route.webhook.module.href,
        options: route.webhook.options,
        stores: Object.keys(route.webhook.stores),
        failurePolicy: route.failurePolicy,
        timeoutMs: route.timeoutMs,
      };
  }
}

function storeOf(stores: Readonly<Record<string, MirroredInformer>>, name: string): MirroredInformer {
  const informer = stores[name];
  if (informer === undefined) {
    throw new Error(`the threaded webhook names no cache ${JSON.stringify(name)}`);
  }
  return informer;
}

function abortedOf(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
    }
    signal.addEventListener(
      'abort',
      () => {
        resolve();
      },
      { once: true },
    );
  });
}
