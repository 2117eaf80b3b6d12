/**
 * The main thread's side of the admission thread: starts the worker with the routes, feeds it the
 * serving certificate and the mirrored caches, answers the routes it hands back (handlers that need
 * the main thread's client or caches, conversions), and keeps the webhook metrics from its reports.
 */
import { Worker } from 'node:worker_threads';

import type { Logger } from 'pino';

import { nestsDeeperThan } from '@kruise-ts/controller-runtime';
import type { AdmissionHandler } from '../admission-review.ts';
import type { CertificateSource } from '../certificate-source.ts';
import { answerConversionReview, conversionFailure, describeObject } from '../conversion-review.ts';
import type { ObjectConverter } from '../conversion-review.ts';
import type { RequestObserver } from '../https-webhook-listener.ts';
import { conversionMetricsObserver, metricsObserver } from '../webhook-metrics.ts';
import { isWebhookUnavailable } from '../webhook-unavailable.ts';
import type { WebhookMetrics } from '../webhook-metrics.ts';
import { mirrorInformer } from './informer-mirror.ts';
import { threadModuleUrl } from './thread-handler.ts';
import type { MirroredInformer } from './thread-handler.ts';
import { MAX_MESSAGE_DEPTH } from './thread-messages.ts';
import type { AdmissionThreadData, FromThread, ToThread } from './thread-messages.ts';

export interface AdmissionThreadOptions {
  readonly data: Omit<AdmissionThreadData, 'marker'>;
  /** The handlers of the `forwarded-admission` routes, by path. */
  readonly handlers: ReadonlyMap<string, { readonly handler: AdmissionHandler; readonly timeoutMs: number }>;
  /** The converters of the `forwarded-conversion` routes, by path. */
  readonly converters: ReadonlyMap<string, ObjectConverter>;
  /** The caches the threaded routes read, by name. */
  readonly stores: ReadonlyMap<string, MirroredInformer>;
  readonly certificates: CertificateSource;
  readonly metrics: WebhookMetrics;
  readonly logger: Logger;
  /** Called with the bound port once the thread listens. */
  readonly onListening: (port: number) => void;
}

/** The thread's module: the source next to this file, or `dist/admission-thread.mjs` in the bundles. */
const THREAD_MODULE = threadModuleUrl(import.meta.url, './admission-thread-main.ts', 'admission-thread.mjs');

/** Options of the worker: the sources need the workspace's source condition; a bundle needs nothing. */
function workerExecArgv(): string[] {
  return THREAD_MODULE.pathname.endsWith('.ts') ? ['--conditions=@kruise-ts/source'] : [];
}

/** Runs the admission thread until the signal aborts; rejects when it fails or exits on its own. */
export async function runAdmissionThread(options: AdmissionThreadOptions, signal: AbortSignal): Promise<void> {
  await options.certificates.start(signal);
  const worker = new Worker(THREAD_MODULE, {
    workerData: { ...options.data, marker: 'kruise-ts-admission-thread' } satisfies AdmissionThreadData,
    execArgv: workerExecArgv(),
  });
  const post = (message: ToThread): void => {
    worker.postMessage(message);
  };
  const ended = Promise.withResolvers<undefined>();
  const context: MessageContext = { options, post, ended, signal, observer: metricsObserver(options.metrics) };
  worker.on('message', (message: FromThread) => {
    onThreadMessage(message, context);
  });
  worker.on('messageerror', (error) => {
    // A message that could not be read is lost, and a request waiting for it with it: say so.
    options.logger.error({ err: error }, 'A message from the admission thread could not be read');
  });
  worker.on('error', ended.reject);
  worker.on('exit', (code) => {
    ended.reject(new Error(`the admission thread exited (code ${String(code)})`));
  });
  const stopFeeding = feedThread(options, post);
  const stop = (): void => {
    post({ type: 'stop' });
  };
  signal.addEventListener('abort', stop, { once: true });
  if (signal.aborted) {
    stop();
  }
  try {
    await ended.promise;
  } finally {
    stopFeeding();
    signal.removeEventListener('abort', stop);
    await worker.terminate();
  }
}

/** Mirrors the caches and the serving certificate to the thread; returns what stops it. */
function feedThread(options: AdmissionThreadOptions, post: (message: ToThread) => void): () => void {
  const mirrors = new AbortController();
  for (const [name, informer] of options.stores) {
    mirrorInformer({ name, informer, post }, mirrors.signal);
  }
  const current = options.certificates.current();
  if (current !== undefined) {
    post({ type: 'certificate', certPem: current.certPem, keyPem: current.keyPem });
  }
  const unsubscribe = options.certificates.onChange((next) => {
    post({ type: 'certificate', certPem: next.certPem, keyPem: next.keyPem });
  });
  return () => {
    mirrors.abort();
    unsubscribe();
  };
}

interface MessageContext {
  readonly options: AdmissionThreadOptions;
  readonly post: (message: ToThread) => void;
  readonly ended: PromiseWithResolvers<undefined>;
  readonly signal: AbortSignal;
  readonly observer: RequestObserver;
}

function onThreadMessage(message: FromThread, context: MessageContext): void {
  const { options } = context;
  switch (message.type) {
    case 'started':
      context.observer.started(message.path);
      break;
    case 'finished':
      context.observer.finished(message.path, message.code, message.seconds);
      break;
    case 'admit':
      void admit(message, context);
      break;
    case 'convert':
      convert(message, context);
      break;
    case 'listening':
      options.onListening(message.port);
      break;
    case 'failed':
      context.ended.reject(new Error(`the admission thread failed: ${message.message}`));
      break;
    case 'stopped':
      context.ended.resolve(undefined);
      break;
  }
}

/** A request the thread handed back: the handler runs here with its budget (the thread keeps its own too). */
async function admit(message: Extract<FromThread, { type: 'admit' }>, context: MessageContext): Promise<void> {
  const route = context.options.handlers.get(message.path);
  try {
    if (route === undefined) {
      throw new Error(`no handler is registered at ${message.path}`);
    }
    const response = await route.handler(
      message.request,
      AbortSignal.any([context.signal, AbortSignal.timeout(route.timeoutMs)]),
    );
    context.post({ type: 'admitted', id: message.id, response });
  } catch (error) {
    context.post({
      type: 'admit-failed',
      id: message.id,
      message: error instanceof Error ? error.message : String(error),
      unavailable: isWebhookUnavailable(error),
    });
  }
}

/**
 * A ConversionReview the thread handed back: converted here, where the converter and the metrics are.
 * This runs in the worker's message listener, where a throw would end the process: a converter's
 * throw is the review's Failure (answerConversionReview), and an answer that cannot be posted back
 * (not cloneable) is replaced by a Failure that can.
 */
function convert(message: Extract<FromThread, { type: 'convert' }>, context: MessageContext): void {
  const { uid } = message.request;
  const converter = context.options.converters.get(message.path);
  const answer =
    converter === undefined
      ? conversionFailure(uid, `no converter is registered at ${message.path}`)
      : answerConversionReview(message.request, converter, conversionMetricsObserver(context.options.metrics));
  const tooDeep = answer.response.convertedObjects.find((object) => nestsDeeperThan(object, MAX_MESSAGE_DEPTH));
  const response =
    tooDeep === undefined
      ? answer
      : conversionFailure(
          uid,
          `${describeObject(tooDeep)}: converted into an object nested deeper than ${String(MAX_MESSAGE_DEPTH)} levels`,
        );
  try {
    context.post({ type: 'converted', id: message.id, response });
  } catch (error) {
    context.options.logger.error(
      { err: error, webhook: message.path, uid },
      'A conversion answer could not be handed to the admission thread',
    );
    context.post({
      type: 'converted',
      id: message.id,
      response: conversionFailure(
        uid,
        `the conversion answer could not be sent: ${error instanceof Error ? error.message : String(error)}`,
      ),
    });
  }
}
