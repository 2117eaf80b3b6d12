import { DecodeError } from '@kruise-ts/kube-protobuf';
import { setTimeout as sleep } from 'node:timers/promises';

import type { Logger } from 'pino';

import { isGone } from '../client/api-error.ts';
import { objectKey } from '../client/kube-object.ts';
import type { KubeObject } from '../client/kube-object.ts';
import { isAborted } from '../util/aborted.ts';
import { Backoff } from '../util/backoff.ts';
import { deepFreeze } from '../util/deep-readonly.ts';
import type { DeepReadonly } from '../util/deep-readonly.ts';
import { createLister } from './lister.ts';
import type { Lister } from './lister.ts';
import type { ListWatcher } from './list-watcher.ts';
import { Store } from './store.ts';
import type { IndexFunc } from './store.ts';

/** Receives changes of cached objects. Handlers must be quick: map the object to keys and enqueue. */
export interface ResourceEventHandler<T> {
  onAdd?(object: DeepReadonly<T>, isInInitialList: boolean): void;
  /** Both versions, so that a handler can see what changed (labels, owner references, ...). */
  onUpdate?(oldObject: DeepReadonly<T>, newObject: DeepReadonly<T>): void;
  /** The last state the informer knew; after a relist that missed the delete event, that may be stale. */
  onDelete?(object: DeepReadonly<T>): void;
}

export interface InformerOptions<T extends KubeObject> {
  readonly listWatcher: ListWatcher<T>;
  /** Describes what is watched, in logs. */
  readonly description: string;
  readonly logger: Logger;
  /** Applied to every object before it is cached, e.g. to drop `metadata.managedFields`. */
  readonly transform?: ((object: T) => T) | undefined;
  /**
   * Which objects the cache holds at all (asked before the transform): one that fails is treated as
   * absent, and one that stops passing is deleted. For what a label selector cannot exclude.
   */
  readonly keep?: ((object: T) => boolean) | undefined;
  readonly indexers?: Readonly<Record<string, IndexFunc<T>>> | undefined;
  /** Objects per list page. */
  readonly pageSize?: number | undefined;
  /** Deep-freeze cached objects, so that a mutation throws (tests). */
  readonly freeze?: boolean | undefined;
  /** Server-side watch timeout is chosen at random in [min, max] seconds, like client-go's reflector. */
  readonly watchTimeoutSeconds?: { readonly min: number; readonly max: number } | undefined;
  readonly backoff?: { readonly initialMs: number; readonly maxMs: number } | undefined;
  /** Told about every list and every add, update and delete (not bookmarks): the process is busy. */
  readonly onActivity?: (() => void) | undefined;
}

/** Counters of what the informer did, for tests and logs. */
export interface InformerStats {
  lists: number;
  watches: number;
  relistsAfterGone: number;
  failures: number;
  events: number;
}

/** A watch that ran at least this long counts as healthy and resets the backoff. */
const HEALTHY_WATCH_MS = 60_000;

/**
 * A shared informer: lists (paginated), then watches from the list's resourceVersion with bookmarks,
 * keeps a cache with indexes, and tells handlers about adds, updates (old and new) and deletes
 * (last known state). It never stops on its own: a 410 Gone relists, any other error retries with
 * jittered exponential backoff, and only its AbortSignal ends it.
 */
export class Informer<T extends KubeObject> {
  readonly #options: InformerOptions<T>;
  readonly #store: Store<T>;
  readonly #handlers: ResourceEventHandler<T>[] = [];
  readonly #backoff: Backoff;
  readonly #stats: InformerStats = { lists: 0, watches: 0, relistsAfterGone: 0, failures: 0, events: 0 };
  readonly #syncWaiters: (() => void)[] = [];
  /** Relist requests, each resolved by the first list that starts after it. */
  readonly #relistWaiters: { readonly after: number; readonly resolve: () => void }[] = [];
  /** Lists started so far. */
  #listsStarted = 0;
  /** Aborts the current list or watch, not the informer: a requested relist. */
  #interrupt: AbortController | undefined;
  #synced = false;
  #resourceVersion = '';
  #started = false;
  /** Every line names the informer once, whoever made the logger (the factory binds nothing itself). */
  readonly #logger: Logger;

  constructor(options: InformerOptions<T>) {
    this.#options = options;
    this.#logger = options.logger.child({ informer: options.description });
    this.#store = new Store<T>(options.indexers ?? {});
    this.#backoff = new Backoff({
      initialMs: options.backoff?.initialMs ?? 800,
      maxMs: options.backoff?.maxMs ?? 30_000,
    });
  }

  /** Adds a handler; if the cache is already filled, the handler first gets an add for every object. */
  addEventHandler(handler: ResourceEventHandler<T>): void {
    this.#handlers.push(handler);
    if (this.#synced) {
      for (const object of this.#store.values()) {
        safely(this.#logger, () => handler.onAdd?.(object as DeepReadonly<T>, true));
      }
    }
  }

  /** Adds indexes; allowed before the informer starts. */
  addIndexers(indexers: Readonly<Record<string, IndexFunc<T>>>): void {
    if (this.#started) {
      throw new Error(`cannot add indexers to the running informer for ${this.#options.description}`);
    }
    this.#store.addIndexers(indexers);
  }

  lister(): Lister<T> {
    return createLister(this.#store);
  }

  /** True once the first list has been cached and handed to the handlers. */
  hasSynced(): boolean {
    return this.#synced;
  }

  /** The resourceVersion of the last list, event or bookmark seen. */
  lastSyncResourceVersion(): string {
    return this.#resourceVersion;
  }

  /** What is watched (resource, namespace, selectors), as in logs. */
  get description(): string {
    return this.#options.description;
  }

  /** Objects in the cache now. */
  cachedCount(): number {
    return this.#store.size;
  }

  stats(): Readonly<InformerStats> {
    return { ...this.#stats };
  }

  /** Resolves true once synced, or false if the signal aborts first. */
  async waitForSync(signal: AbortSignal): Promise<boolean> {
    if (this.#synced) {
      return true;
    }
    return new Promise<boolean>((resolve) => {
      const onAbort = (): void => {
        resolve(false);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.#syncWaiters.push(() => {
        signal.removeEventListener('abort', onAbort);
        resolve(true);
      });
    });
  }

  /**
   * Ends the current watch and lists again, for a list-watcher whose selection changed (a sharded
   * cache that took buckets). Resolves once a list that started after this call has replaced the
   * cache; handlers see only what changed.
   */
  relist(): Promise<void> {
    return new Promise((resolve) => {
      this.#relistWaiters.push({ after: this.#listsStarted, resolve });
      this.#interrupt?.abort();
    });
  }

  /** Lists and watches until the signal aborts. */
  async run(signal: AbortSignal): Promise<void> {
    this.#started = true;
    let needList = true;
    while (!signal.aborted) {
      const interrupt = new AbortController();
      this.#interrupt = interrupt;
      const attempt = AbortSignal.any([signal, interrupt.signal]);
      needList ||= this.#relistWaiters.length > 0;
      let phase: 'list' | 'watch' = needList ? 'list' : 'watch';
      const started = Date.now();
      try {
        if (needList) {
          await this.#listAndReplace(attempt);
          needList = false;
          phase = 'watch';
        }
        await this.#watch(attempt);
        this.#backoff.reset();
      } catch (error) {
        if (isAborted(signal)) {
          break;
        }
        needList = interrupt.signal.aborted || (await this.#recover({ error, phase, started, signal }));
      }
    }
  }

  /** Decides what to do after a failure and waits if needed; returns whether the next step must list. */
  async #recover(input: {
    error: unknown;
    phase: 'list' | 'watch';
    started: number;
    signal: AbortSignal;
  }): Promise<boolean> {
    const { error, phase, signal } = input;
    if (isGone(error)) {
      // The version we resumed from has been compacted: only a fresh list can tell what changed.
      this.#stats.relistsAfterGone++;
      this.#logger.info({ resourceVersion: this.#resourceVersion }, 'Watch resource version expired, relisting');
      return true;
    }
    this.#stats.failures++;
    if (phase === 'watch' && Date.now() - input.started > HEALTHY_WATCH_MS) {
      this.#backoff.reset();
    }
    const delay = this.#backoff.next();
    // A protobuf answer that did not decode names the resource and where in its bytes.
    const decode = error instanceof DecodeError ? { resource: error.resource, offset: error.offset } : {};
    this.#logger.warn({ phase, err: error, retryInMs: delay, ...decode }, 'List/watch failed, retrying');
    await sleep(delay, undefined, { signal }).catch(() => undefined);
    return phase === 'list';
  }

  async #listAndReplace(signal: AbortSignal): Promise<void> {
    this.#stats.lists++;
    const listNumber = ++this.#listsStarted;
    const items: T[] = [];
    let continueToken: string | undefined;
    let resourceVersion = '';
    do {
      const page = await this.#options.listWatcher.list({
        limit: this.#options.pageSize ?? 500,
        continue: continueToken,
        signal,
      });
      items.push(...page.items);
      resourceVersion ||= page.metadata.resourceVersion;
      continueToken = page.metadata.continue === '' ? undefined : page.metadata.continue;
    } while (continueToken !== undefined);
    this.#options.onActivity?.();
    this.#replace(items);
    this.#resourceVersion = resourceVersion;
    this.#markSynced();
    for (const waiter of this.#relistWaiters.filter((w) => w.after < listNumber)) {
      this.#relistWaiters.splice(this.#relistWaiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  }

  #replace(items: readonly T[]): void {
    const seen = new Set<string>();
    const initial = !this.#synced;
    for (const raw of this.#kept(items)) {
      const object = this.#prepare(raw);
      const key = objectKey(object);
      seen.add(key);
      const old = this.#store.upsert(object);
      if (old === undefined) {
        this.#emit((h) => h.onAdd?.(object as DeepReadonly<T>, initial));
      } else if (old.metadata?.resourceVersion !== object.metadata?.resourceVersion) {
        this.#emit((h) => h.onUpdate?.(old as DeepReadonly<T>, object as DeepReadonly<T>));
      }
    }
    for (const key of [...this.#store.keys()]) {
      if (!seen.has(key)) {
        const old = this.#store.delete(key);
        if (old !== undefined) {
          this.#emit((h) => h.onDelete?.(old as DeepReadonly<T>));
        }
      }
    }
  }

  async #watch(signal: AbortSignal): Promise<void> {
    this.#stats.watches++;
    const { min, max } = this.#options.watchTimeoutSeconds ?? { min: 300, max: 600 };
    const events = this.#options.listWatcher.watch({
      resourceVersion: this.#resourceVersion,
      timeoutSeconds: Math.floor(min + Math.random() * (max - min)),
      signal,
    });
    for await (const event of events) {
      this.#stats.events++;
      if (event.type === 'BOOKMARK') {
        this.#resourceVersion = event.resourceVersion || this.#resourceVersion;
        continue;
      }
      this.#options.onActivity?.();
      this.#apply(event.type, event.object);
      this.#resourceVersion = event.resourceVersion || this.#resourceVersion;
    }
  }

  #apply(type: 'ADDED' | 'MODIFIED' | 'DELETED', raw: T): void {
    const object = this.#prepare(raw);
    if (type === 'DELETED') {
      const old = this.#store.delete(objectKey(object));
      this.#emit((h) => h.onDelete?.((old ?? object) as DeepReadonly<T>));
      return;
    }
    if (this.#options.keep?.(raw) === false) {
      // Never held, or no longer one to hold: gone from the cache's point of view.
      const old = this.#store.delete(objectKey(object));
      if (old !== undefined) {
        this.#emit((h) => h.onDelete?.(old as DeepReadonly<T>));
      }
      return;
    }
    const old = this.#store.upsert(object);
    if (old === undefined) {
      this.#emit((h) => h.onAdd?.(object as DeepReadonly<T>, false));
    } else {
      this.#emit((h) => h.onUpdate?.(old as DeepReadonly<T>, object as DeepReadonly<T>));
    }
  }

  #kept(items: readonly T[]): readonly T[] {
    const keep = this.#options.keep;
    return keep === undefined ? items : items.filter((item) => keep(item));
  }

  #prepare(raw: T): T {
    const object = this.#options.transform === undefined ? raw : this.#options.transform(raw);
    return this.#options.freeze === true ? (deepFreeze(object) as T) : object;
  }

  #emit(call: (handler: ResourceEventHandler<T>) => void): void {
    for (const handler of this.#handlers) {
      safely(this.#logger, () => {
        call(handler);
      });
    }
  }

  #markSynced(): void {
    if (!this.#synced) {
      this.#synced = true;
      for (const waiter of this.#syncWaiters.splice(0)) {
        waiter();
      }
    }
  }
}

/** A throwing handler must not stop the informer or starve the other handlers. */
function safely(logger: Logger, call: () => void): void {
  try {
    call();
  } catch (error) {
    logger.error({ err: error }, 'Event handler threw');
  }
}

/** Drops `metadata.managedFields`, which no controller here reads and which can double an object's size. */
export function stripManagedFields<T extends KubeObject>(object: T): T {
  if (object.metadata?.managedFields === undefined) {
    return object;
  }
  // A rest copy, not `delete`: deleting a property turns a V8 object into a dictionary (hash table)
  // of several times its size, and the cache holds one metadata per object.
  const { managedFields, ...metadata } = object.metadata;
  return { ...object, metadata };
}
