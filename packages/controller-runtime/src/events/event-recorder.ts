import { randomBytes } from 'node:crypto';
import os from 'node:os';

import type { Logger } from 'pino';

import type { Client } from '../client/client.ts';
import { defineResource } from '../client/resource-type.ts';
import { TransportClosedError } from '../client/transport.ts';
import { TokenBucket } from '../flowcontrol/token-bucket.ts';
import { EventCache } from './event-cache.ts';
import { EventWriteQueue } from './event-write-queue.ts';
import type { RecordedEvent } from './event-cache.ts';
import type { EventLike, EventReporter, ObjectReference } from './event-types.ts';

/** core/v1 Event. */
export const eventResource = defineResource<EventLike>({
  group: '',
  version: 'v1',
  plural: 'events',
  kind: 'Event',
  namespaced: true,
});

export type EventType = 'Normal' | 'Warning';

/** What an event says. */
export interface EventContent {
  readonly type: EventType;
  /** A CamelCase reason (`SuccessfulCreate`, ...); the apps use the reasons of the controllers they stand in for. */
  readonly reason: string;
  readonly message: string;
}

export interface EventRecorderOptions {
  readonly client: Client;
  /** `source.component` and `reportingComponent`, e.g. `cloneset-controller`. */
  readonly component: string;
  readonly logger: Logger;
  readonly host?: string | undefined;
  /** Per involved object: events allowed at once, then one per `spamRefillMs` (client-go: 25, 5 min). */
  readonly spamBurst?: number | undefined;
  readonly spamRefillMs?: number | undefined;
}

const MAX_WRITE_ATTEMPTS = 3;
/** Event writes in flight at once, and queued at most (client-go's broadcaster queues 1,000). */
const WRITE_CONCURRENCY = 4;
const MAX_QUEUED_WRITES = 1_000;

/**
 * Records Events without blocking the reconcile that emits them. An event identical to a recent one
 * (same object, type, reason and message) increments that event's `count` instead of creating a new
 * object, and a per-object token bucket drops floods, as client-go's EventCorrelator does; events are
 * written a few at a time (in order for the same object, reason and message), retried a few times,
 * then dropped with a log line; beyond 1,000 waiting writes new events are dropped.
 */
export class EventRecorder implements EventReporter {
  readonly #options: EventRecorderOptions;
  readonly #cache = new EventCache(4096);
  readonly #spam = new Map<string, TokenBucket>();
  readonly #writes = new EventWriteQueue({ concurrency: WRITE_CONCURRENCY, maxQueued: MAX_QUEUED_WRITES });

  constructor(options: EventRecorderOptions) {
    this.#options = options;
  }

  /** Queues a Normal event about `object`: `normal(ref, 'SuccessfulCreate', 'succeed to create pod x')`. */
  normal(object: ObjectReference, reason: string, message: string): void {
    this.event(object, { type: 'Normal', reason, message });
  }

  /** Queues a Warning event about `object`. */
  warning(object: ObjectReference, reason: string, message: string): void {
    this.event(object, { type: 'Warning', reason, message });
  }

  /** Queues an event about `object`. */
  event(object: ObjectReference, event: EventContent): void {
    if (!this.#allow(object)) {
      this.#options.logger.debug({ reason: event.reason, object: object.name }, 'Event dropped by the spam filter');
      return;
    }
    if (!this.#writes.enqueue(EventCache.key(object, event), () => this.#write({ object, ...event }))) {
      this.#options.logger.debug(
        { reason: event.reason, object: object.name },
        'Event dropped: too many events waiting to be written',
      );
    }
  }

  /** Resolves when every queued event has been written (or given up on). */
  flush(): Promise<void> {
    return this.#writes.drained();
  }

  #allow(object: ObjectReference): boolean {
    const key = object.uid ?? `${object.namespace ?? ''}/${object.name}`;
    let bucket = this.#spam.get(key);
    if (bucket === undefined) {
      if (this.#spam.size >= 4096) {
        this.#spam.clear();
      }
      const burst = this.#options.spamBurst ?? 25;
      bucket = new TokenBucket({ qps: 1000 / (this.#options.spamRefillMs ?? 300_000), burst });
      this.#spam.set(key, bucket);
    }
    return bucket.tryAccept();
  }

  async #write(event: EventContent & { object: ObjectReference }): Promise<void> {
    const key = EventCache.key(event.object, event);
    for (let attempt = 1; attempt <= MAX_WRITE_ATTEMPTS; attempt++) {
      try {
        const previous = this.#cache.get(key);
        const written = previous === undefined ? await this.#create(event) : await this.#increment(previous);
        this.#cache.set(key, {
          namespace: written.metadata?.namespace ?? '',
          name: written.metadata?.name ?? '',
          count: written.count ?? 1,
        });
        return;
      } catch (error) {
        this.#cache.delete(key);
        if (this.#givesUp(error, { event, lastAttempt: attempt === MAX_WRITE_ATTEMPTS })) {
          return;
        }
      }
    }
  }

  /** Whether a failed write is dropped for good: after the last attempt, or at once when the manager shut down. */
  #givesUp(
    error: unknown,
    input: { event: EventContent & { object: ObjectReference }; lastAttempt: boolean },
  ): boolean {
    const fields = { reason: input.event.reason, object: input.event.object.name };
    if (error instanceof TransportClosedError) {
      // As client-go's broadcaster, an Event still queued at shutdown is dropped.
      this.#options.logger.debug(fields, 'Event dropped at shutdown');
      return true;
    }
    if (input.lastAttempt) {
      this.#options.logger.warn({ ...fields, err: error }, 'Could not record event');
    }
    return input.lastAttempt;
  }

  async #create(event: EventContent & { object: ObjectReference }): Promise<EventLike> {
    const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    const namespace =
      event.object.namespace === undefined || event.object.namespace === '' ? 'default' : event.object.namespace;
    return this.#options.client.create(eventResource, {
      metadata: { name: `${event.object.name}.${Date.now().toString(16)}${randomBytes(2).toString('hex')}`, namespace },
      involvedObject: event.object,
      reason: event.reason,
      message: event.message,
      type: event.type,
      count: 1,
      firstTimestamp: now,
      lastTimestamp: now,
      source: { component: this.#options.component, host: this.#options.host ?? os.hostname() },
      reportingComponent: this.#options.component,
      reportingInstance: this.#options.host ?? os.hostname(),
    });
  }

  async #increment(previous: RecordedEvent): Promise<EventLike> {
    const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    return this.#options.client.patch(
      eventResource,
      { namespace: previous.namespace, name: previous.name },
      { type: 'merge', body: { count: previous.count + 1, lastTimestamp: now } },
    );
  }
}
