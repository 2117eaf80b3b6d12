import { objectKey } from '../client/kube-object.ts';
import type { KubeObject } from '../client/kube-object.ts';

/** Maps an object to the index values it is found under (for example its controller's uid). */
export type IndexFunc<T> = (object: T) => readonly string[];

/** The namespace index every store has, so that namespaced lists do not scan the whole cache. */
export const NAMESPACE_INDEX = '__namespace';

/**
 * Objects by `namespace/name`, with secondary indexes kept up to date on every change. Not a copy
 * store: it holds exactly the objects it is given, which callers must treat as read-only.
 */
export class Store<T extends KubeObject> {
  readonly #items = new Map<string, T>();
  readonly #indexers = new Map<string, IndexFunc<T>>();
  readonly #indices = new Map<string, Map<string, Set<string>>>();

  constructor(indexers: Readonly<Record<string, IndexFunc<T>>> = {}) {
    this.addIndexers({ [NAMESPACE_INDEX]: (object) => [object.metadata?.namespace ?? ''], ...indexers });
  }

  /**
   * Adds indexers; existing objects are indexed at once. The same function under the same name again
   * is a no-op: several controllers in one process share an informer and ask for the same index
   * (`byControllerUid`); another function under a taken name is refused.
   */
  addIndexers(indexers: Readonly<Record<string, IndexFunc<T>>>): void {
    for (const [name, indexFunc] of Object.entries(indexers)) {
      const existing = this.#indexers.get(name);
      if (existing === indexFunc) {
        continue;
      }
      if (existing !== undefined) {
        throw new Error(`indexer ${name} already exists`);
      }
      this.#indexers.set(name, indexFunc);
      this.#indices.set(name, new Map());
      for (const [key, object] of this.#items) {
        this.#index(name, key, indexFunc(object));
      }
    }
  }

  get size(): number {
    return this.#items.size;
  }

  get(key: string): T | undefined {
    return this.#items.get(key);
  }

  keys(): IterableIterator<string> {
    return this.#items.keys();
  }

  values(): IterableIterator<T> {
    return this.#items.values();
  }

  /** Inserts or replaces an object; returns the one it replaced. */
  upsert(object: T): T | undefined {
    const key = objectKey(object);
    const old = this.#items.get(key);
    if (old !== undefined) {
      this.#unindexAll(key, old);
    }
    this.#items.set(key, object);
    for (const [name, indexFunc] of this.#indexers) {
      this.#index(name, key, indexFunc(object));
    }
    return old;
  }

  /** Removes an object by key; returns it. */
  delete(key: string): T | undefined {
    const old = this.#items.get(key);
    if (old !== undefined) {
      this.#unindexAll(key, old);
      this.#items.delete(key);
    }
    return old;
  }

  /** Objects whose index `name` contains `value`. */
  byIndex(name: string, value: string): T[] {
    const index = this.#indices.get(name);
    if (index === undefined) {
      throw new Error(`no indexer named ${name}`);
    }
    const keys = index.get(value) ?? new Set<string>();
    const found: T[] = [];
    for (const key of keys) {
      const object = this.#items.get(key);
      if (object !== undefined) {
        found.push(object);
      }
    }
    return found;
  }

  #index(name: string, key: string, values: readonly string[]): void {
    const index = this.#indices.get(name);
    for (const value of values) {
      let keys = index?.get(value);
      if (keys === undefined) {
        keys = new Set();
        index?.set(value, keys);
      }
      keys.add(key);
    }
  }

  #unindexAll(key: string, object: T): void {
    for (const [name, indexFunc] of this.#indexers) {
      const index = this.#indices.get(name);
      for (const value of indexFunc(object)) {
        const keys = index?.get(value);
        keys?.delete(key);
        if (keys?.size === 0) {
          index?.delete(value);
        }
      }
    }
  }
}
