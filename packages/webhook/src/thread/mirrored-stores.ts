/**
 * The admission thread's copies of the main thread's caches that its handlers read: filled by the
 * main thread's informer events (upserts and deletes by key), synced once the main thread's informer
 * has synced. They lag the main thread's caches by the time the main thread takes to post an event,
 * as any informer lags the API server.
 */
import { createLister } from '@kruise-ts/controller-runtime';
import type { Lister } from '@kruise-ts/controller-runtime';
import { Store } from '@kruise-ts/controller-runtime';
import type { KubeObject } from '@kruise-ts/controller-runtime';

interface MirroredStore {
  readonly store: Store<KubeObject>;
  synced: boolean;
}

export class MirroredStores {
  readonly #stores = new Map<string, MirroredStore>();
  readonly #syncWaiters = new Set<() => void>();

  constructor(names: Iterable<string>) {
    for (const name of names) {
      this.#stores.set(name, { store: new Store<KubeObject>(), synced: false });
    }
  }

  lister<T extends KubeObject>(name: string): Lister<T> {
    return createLister(this.#get(name).store) as unknown as Lister<T>;
  }

  upsert(name: string, object: KubeObject): void {
    this.#get(name).store.upsert(object);
  }

  delete(name: string, key: string): void {
    this.#get(name).store.delete(key);
  }

  markSynced(name: string): void {
    this.#get(name).synced = true;
    for (const waiter of this.#syncWaiters) {
      waiter();
    }
  }

  /** Resolves once every named store has synced; rejects with the signal's reason when it aborts first. */
  async waitForSync(names: readonly string[], signal: AbortSignal): Promise<void> {
    const synced = (): boolean => names.every((name) => this.#get(name).synced);
    if (synced()) {
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const done = (settle: () => void): void => {
        this.#syncWaiters.delete(check);
        signal.removeEventListener('abort', onAbort);
        settle();
      };
      const check = (): void => {
        if (synced()) {
          done(resolve);
        }
      };
      const onAbort = (): void => {
        done(() => {
          reject(signal.reason instanceof Error ? signal.reason : new Error('aborted while waiting for the caches'));
        });
      };
      if (signal.aborted) {
        onAbort();
        return;
      }
      this.#syncWaiters.add(check);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  #get(name: string): MirroredStore {
    const found = this.#stores.get(name);
    if (found === undefined) {
      throw new Error(`no mirrored cache is named ${JSON.stringify(name)}`);
    }
    return found;
  }
}
