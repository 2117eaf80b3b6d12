/**
 * An admission handler that runs on the process's admission thread, away from the event loop of the
 * informers and reconciles. It is a module (the thread imports it by URL) whose
 * `createAdmissionHandler` builds the handler from mirrors of the main thread's caches it names.
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import type { Logger } from 'pino';

import type { ResourceEventHandler } from '@kruise-ts/controller-runtime';
import type { Lister } from '@kruise-ts/controller-runtime';
import type { KubeObject } from '@kruise-ts/controller-runtime';
import type { AdmissionHandler } from '../admission-review.ts';

/** What a threaded handler's module gets to build its handler with. */
export interface ThreadHandlerContext {
  /** The options the registration gave: structured-cloned, so the module parses them. */
  readonly options: unknown;
  readonly logger: Logger;
  /** The cache the registration named `store` (a mirror on the admission thread). */
  lister<T extends KubeObject>(store: string): Lister<T>;
  /** Resolves once every cache of the registration has synced; rejects when the signal aborts first. */
  waitForSync(signal: AbortSignal): Promise<void>;
}

/** The module of a threaded handler. */
export interface ThreadHandlerModule {
  createAdmissionHandler(context: ThreadHandlerContext): AdmissionHandler;
}

/** The part of an informer a registration names as a cache: mirrored to the admission thread by its events. */
export interface MirroredInformer {
  addEventHandler(handler: ResourceEventHandler<KubeObject>): void;
  lister(): Lister<KubeObject>;
  waitForSync(signal: AbortSignal): Promise<boolean>;
}

/** A handler that runs on the admission thread (or on the main thread when the server has none). */
export interface ThreadedWebhook {
  /** The handler's module: {@link threadModuleUrl}. */
  readonly module: URL;
  /** Given to the module as `options` (must survive structured cloning). */
  readonly options: unknown;
  /** The caches the handler reads, by the names it asks for. */
  readonly stores: Readonly<Record<string, MirroredInformer>>;
}

/**
 * Where a module for another thread is, from the `import.meta.url` of a module next to it: the
 * TypeScript source when the process runs the sources, else the bundle's own file for it
 * (`dist/<bundled>`; tools/bundle builds one per thread module).
 */
export function threadModuleUrl(base: string, source: string, bundled: string): URL {
  if (base.endsWith('.ts')) {
    return new URL(source, base);
  }
  let directory = path.dirname(fileURLToPath(base));
  // Code shared by several bundles sits in dist/chunks.
  if (path.basename(directory) === 'chunks') {
    directory = path.dirname(directory);
  }
  return pathToFileURL(path.join(directory, bundled));
}

/** Loads a threaded handler's module, with a clear error when it has no `createAdmissionHandler`. */
export async function importThreadHandler(module: URL): Promise<ThreadHandlerModule> {
  const loaded: unknown = await import(module.href);
  const create = (loaded as Partial<ThreadHandlerModule> | null)?.createAdmissionHandler;
  if (typeof create !== 'function') {
    throw new Error(`${module.href} does not export createAdmissionHandler(context)`);
  }
  return { createAdmissionHandler: create };
}
