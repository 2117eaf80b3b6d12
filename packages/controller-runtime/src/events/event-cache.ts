import type { ObjectReference } from './event-types.ts';

/**
 * What the cache keeps of a written Event: enough to increment its count. Not the Event itself: the
 * API's response carries managedFields and the whole involved object, and 4,096 of them held tens of
 * MiB in a controller that had created as many pods.
 */
export interface RecordedEvent {
  readonly namespace: string;
  readonly name: string;
  readonly count: number;
}

/** How long an identical event is merged into the previous one (client-go's 10 minutes). */
const AGGREGATION_WINDOW_MS = 10 * 60_000;

/** Recently written events by identity, least recently used evicted first. */
export class EventCache {
  readonly #capacity: number;
  readonly #entries = new Map<string, { event: RecordedEvent; at: number }>();

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /** The identity of an event: same object, type, reason and message. */
  static key(
    object: ObjectReference,
    event: { readonly type: string; readonly reason: string; readonly message: string },
  ): string {
    return JSON.stringify([
      object.uid ?? '',
      object.namespace ?? '',
      object.name,
      event.type,
      event.reason,
      event.message,
    ]);
  }

  /** The event written for this key within the aggregation window, if any. */
  get(key: string, now: number = Date.now()): RecordedEvent | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined || now - entry.at > AGGREGATION_WINDOW_MS) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.event;
  }

  set(key: string, event: RecordedEvent, now: number = Date.now()): void {
    this.#entries.delete(key);
    this.#entries.set(key, { event, at: now });
    if (this.#entries.size > this.#capacity) {
      const oldest = this.#entries.keys().next();
      if (oldest.done !== true) {
        this.#entries.delete(oldest.value);
      }
    }
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }
}
