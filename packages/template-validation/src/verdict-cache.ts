/**
 * Verdicts by the digest of what was dry-run, so that an unchanged template is not sent again: the
 * webhook's verdict on a create serves the controller's check of the same template right after, and
 * a hundred CloneSets with one template in a namespace cost one dry run. Bounded (least recently used
 * out first) and aged out, because admission plugins and webhooks of the cluster can change.
 */
import { createHash } from 'node:crypto';

export interface VerdictCacheOptions {
  /** Most verdicts kept (4,096 by default: a few MiB at worst). */
  readonly maxEntries?: number | undefined;
  /** How long a verdict is trusted (10 minutes by default). */
  readonly ttlMs?: number | undefined;
  readonly now?: (() => number) | undefined;
}

interface Entry<V> {
  readonly value: V;
  readonly expiresAt: number;
}

const DEFAULT_MAX_ENTRIES = 4096;
const DEFAULT_TTL_MS = 10 * 60_000;

/** The key of a value: a SHA-256 of its JSON (key order as built, which is deterministic for one builder). */
export function digestOf(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('base64url');
}

export class VerdictCache<V> {
  readonly #entries = new Map<string, Entry<V>>();
  readonly #maxEntries: number;
  readonly #ttlMs: number;
  readonly #now: () => number;

  constructor(options: VerdictCacheOptions = {}) {
    this.#maxEntries = Math.max(1, options.maxEntries ?? DEFAULT_MAX_ENTRIES);
    this.#ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
    this.#now = options.now ?? Date.now;
  }

  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) {
      return undefined;
    }
    this.#entries.delete(key);
    if (entry.expiresAt <= this.#now()) {
      return undefined;
    }
    this.#entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, { value, expiresAt: this.#now() + this.#ttlMs });
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.#maxEntries) {
        break;
      }
      this.#entries.delete(oldest);
    }
  }

  get size(): number {
    return this.#entries.size;
  }
}
