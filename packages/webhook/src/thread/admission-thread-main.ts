/**
 * The admission thread (a worker thread started by the webhook server): the process's one HTTPS
 * webhook listener, the threaded handlers with their mirrored caches, and every other route handed
 * to the main thread. A burst of watch events or a long reconcile on the main thread no longer
 * delays the answer of a threaded handler: the API server's pod creates wait for it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';

import pino from 'pino';
import type { Logger } from 'pino';

import type { KubeObject } from '@kruise-ts/controller-runtime';
import { nestsDeeperThan } from '@kruise-ts/controller-runtime';
import type { AdmissionHandler, AdmissionResponse } from '../admission-review.ts';
import { conversionFailure, describeObject } from '../conversion-review.ts';
import type { ConversionRequest, ConversionReviewResponse } from '../conversion-review.ts';
import { HttpsWebhookListener } from '../https-webhook-listener.ts';
import type { ListenerRoute } from '../https-webhook-listener.ts';
import { WebhookUnavailableError } from '../webhook-unavailable.ts';
import { MirroredStores } from './mirrored-stores.ts';
import { importThreadHandler } from './thread-handler.ts';
import { MAX_MESSAGE_DEPTH } from './thread-messages.ts';
import type { AdmissionThreadData, FromThread, ThreadRoute, ToThread } from './thread-messages.ts';

type Pending = {
  readonly resolve: (value: AdmissionResponse | ConversionReviewResponse) => void;
  readonly reject: (error: Error) => void;
};

/** Requests handed to the main thread, by id, until it answers. */
class MainThreadCalls {
  readonly #pending = new Map<number, Pending>();
  readonly #port: MessagePort;
  #next = 0;

  constructor(port: MessagePort) {
    this.#port = port;
  }

  call(
    message: (id: number) => FromThread,
    signal?: AbortSignal,
  ): Promise<AdmissionResponse | ConversionReviewResponse> {
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      signal?.addEventListener('abort', () => this.#pending.delete(id), { once: true });
      try {
        this.#port.postMessage(message(id));
      } catch (error) {
        // Not cloneable (an object too deep): nothing will answer this id.
        this.#pending.delete(id);
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  settle(
    id: number,
    outcome: { readonly value: AdmissionResponse | ConversionReviewResponse } | { readonly error: Error },
  ): void {
    const pending = this.#pending.get(id);
    this.#pending.delete(id);
    if (pending === undefined) {
      return;
    }
    if ('value' in outcome) {
      pending.resolve(outcome.value);
    } else {
      pending.reject(outcome.error);
    }
  }
}

/**
 * A ConversionReview handed to the main thread, where the converter runs; one that cannot be handed
 * over (an object too deep for a message, see MAX_MESSAGE_DEPTH) is this review's Failure, naming the
 * object, as the main thread answers a conversion that fails there.
 */
async function forwardConversion(
  request: ConversionRequest,
  to: { readonly path: string; readonly calls: MainThreadCalls },
): Promise<ConversionReviewResponse> {
  const tooDeep = request.objects.find((object) => nestsDeeperThan(object, MAX_MESSAGE_DEPTH));
  if (tooDeep !== undefined) {
    return conversionFailure(
      request.uid,
      `${describeObject(tooDeep)}: nested deeper than ${String(MAX_MESSAGE_DEPTH)} levels: not converted`,
    );
  }
  try {
    return (await to.calls.call((id) => ({ type: 'convert', id, path: to.path, request }))) as ConversionReviewResponse;
  } catch (error) {
    return conversionFailure(
      request.uid,
      `the conversion request could not be handed to the converter: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

async function listenerRoute(
  route: ThreadRoute,
  parts: { readonly stores: MirroredStores; readonly calls: MainThreadCalls; readonly logger: Logger },
): Promise<ListenerRoute> {
  const logger = parts.logger.child({ webhook: route.path });
  if (route.kind === 'forwarded-conversion') {
    return {
      kind: 'conversion',
      path: route.path,
      logger,
      answer: (request) => forwardConversion(request, { path: route.path, calls: parts.calls }),
    };
  }
  const common = {
    kind: 'admission',
    path: route.path,
    failurePolicy: route.failurePolicy,
    timeoutMs: route.timeoutMs,
    logger,
  } as const;
  if (route.kind === 'threaded') {
    const module = await importThreadHandler(new URL(route.module));
    const waitForSync = (signal: AbortSignal): Promise<void> => parts.stores.waitForSync(route.stores, signal);
    const handler = module.createAdmissionHandler({
      options: route.options,
      logger,
      lister: <T extends KubeObject>(store: string) => parts.stores.lister<T>(store),
      waitForSync,
    });
    return { ...common, handler, waitForCaches: waitForSync };
  }
  const forwarded: AdmissionHandler = async (request, signal) =>
    (await parts.calls.call((id) => ({ type: 'admit', id, path: route.path, request }), signal)) as AdmissionResponse;
  return { ...common, handler: forwarded };
}

function onMessage(
  message: ToThread,
  parts: {
    readonly stores: MirroredStores;
    readonly calls: MainThreadCalls;
    readonly certificate: (pem: { certPem: string; keyPem: string }) => void;
    readonly stop: () => void;
  },
): void {
  switch (message.type) {
    case 'upsert':
      parts.stores.upsert(message.store, message.object as KubeObject);
      break;
    case 'delete':
      parts.stores.delete(message.store, message.key);
      break;
    case 'synced':
      parts.stores.markSynced(message.store);
      break;
    case 'admitted':
      parts.calls.settle(message.id, { value: message.response });
      break;
    case 'converted':
      parts.calls.settle(message.id, { value: message.response });
      break;
    case 'admit-failed':
      parts.calls.settle(message.id, {
        error: message.unavailable === true ? new WebhookUnavailableError(message.message) : new Error(message.message),
      });
      break;
    case 'certificate':
      parts.certificate(message);
      break;
    case 'stop':
      parts.stop();
      break;
  }
}

async function runAdmissionThread(port: MessagePort, data: AdmissionThreadData): Promise<void> {
  const logger = pino({
    level: data.logLevel,
    base: { ...data.logBindings, thread: 'admission' },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  });
  const stores = new MirroredStores(
    new Set(data.routes.flatMap((route) => (route.kind === 'threaded' ? route.stores : []))),
  );
  const calls = new MainThreadCalls(port);
  const post = (message: FromThread): void => {
    port.postMessage(message);
  };
  // The main thread's messages wait in the port until the listener below is attached.
  const routes = await Promise.all(data.routes.map((route) => listenerRoute(route, { stores, calls, logger })));
  const listener = new HttpsWebhookListener({
    routes,
    logger,
    observer: {
      started: (path) => {
        post({ type: 'started', path });
      },
      finished: (path, code, seconds) => {
        post({ type: 'finished', path, code, seconds });
      },
    },
    host: data.host,
    port: data.port,
    requestTimeoutMs: data.requestTimeoutMs,
    maxRequestBytes: data.maxRequestBytes,
  });
  const firstCertificate = Promise.withResolvers<{ certPem: string; keyPem: string } | undefined>();
  const stopped = Promise.withResolvers<undefined>();
  port.on('messageerror', (error) => {
    logger.error({ err: error }, 'A message from the main thread could not be read');
  });
  port.on('message', (message: ToThread) => {
    onMessage(message, {
      stores,
      calls,
      certificate: (pem) => {
        firstCertificate.resolve(pem);
        listener.setCertificate({ ...pem, caPem: undefined });
      },
      stop: () => {
        stopped.resolve(undefined);
      },
    });
  });
  await serveUntilStopped(listener, {
    firstCertificate: Promise.race([firstCertificate.promise, stopped.promise]),
    stopped: stopped.promise,
    post,
  });
  port.close();
}

/** Listens once the first certificate is there, until the main thread says stop. */
async function serveUntilStopped(
  listener: HttpsWebhookListener,
  at: {
    readonly firstCertificate: Promise<{ certPem: string; keyPem: string } | undefined>;
    readonly stopped: Promise<undefined>;
    readonly post: (message: FromThread) => void;
  },
): Promise<void> {
  const pem = await at.firstCertificate;
  if (pem !== undefined) {
    at.post({ type: 'listening', port: await listener.listen({ ...pem, caPem: undefined }) });
    await at.stopped;
    await listener.close();
  }
  at.post({ type: 'stopped' });
}

function isThreadData(value: unknown): value is AdmissionThreadData {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { marker?: unknown }).marker === 'kruise-ts-admission-thread'
  );
}

if (parentPort !== null && isThreadData(workerData)) {
  const port = parentPort;
  runAdmissionThread(port, workerData).catch((error: unknown) => {
    port.postMessage({
      type: 'failed',
      message: error instanceof Error ? (error.stack ?? error.message) : String(error),
    } satisfies FromThread);
    port.close();
  });
}
