import { decodeWatchStream, DecodeError } from '@kruise-ts/kube-protobuf';
import type { FieldFilter } from '@kruise-ts/kube-protobuf';

import { ApiError } from './api-error.ts';
import type { StatusBody } from './api-error.ts';
import { isProtobuf, protobufRead } from './content-type.ts';
import type { ProtobufRead } from './content-type.ts';
import type { KubeObject } from './kube-object.ts';
import { apiVersionOf, resourcePath } from './resource-type.ts';
import type { ResourceType } from './resource-type.ts';
import type { Transport } from './transport.ts';

/** One event of a watch stream. Bookmarks only move the resourceVersion forward. */
export type WatchEvent<T> =
  | { readonly type: 'ADDED' | 'MODIFIED' | 'DELETED'; readonly object: T; readonly resourceVersion: string }
  | { readonly type: 'BOOKMARK'; readonly resourceVersion: string };

export interface WatchOptions {
  readonly namespace?: string | undefined;
  readonly labelSelector?: string | undefined;
  readonly fieldSelector?: string | undefined;
  /** Start after this version (from a list); events are never replayed from before it. */
  readonly resourceVersion: string;
  /** The server ends the watch after this long; the informer then resumes from the last version. */
  readonly timeoutSeconds: number;
  readonly signal: AbortSignal;
  /** Fields the caller drops anyway (an informer's cache): not decoded from a protobuf watch. */
  readonly fieldFilter?: FieldFilter | undefined;
}

/** Slack on top of the server-side timeout before the client gives up on a silent connection. */
const CLIENT_DEADLINE_SLACK_MS = 30_000;

interface RawWatchEvent {
  readonly type?: string;
  readonly object?: unknown;
}

/**
 * Streams a watch with bookmarks. An ERROR event (for example 410 Gone once the version is compacted)
 * is thrown as ApiError; the stream ends when the server closes it. A client-side deadline slightly
 * after the server's timeout makes sure a connection that went silent cannot hang the caller forever.
 */
export async function* watchResource<T extends KubeObject>(
  transport: Transport,
  resource: ResourceType<T>,
  options: WatchOptions,
): AsyncGenerator<WatchEvent<T>> {
  const deadline = AbortSignal.timeout(options.timeoutSeconds * 1000 + CLIENT_DEADLINE_SLACK_MS);
  const protobuf = protobufRead(resource, options.fieldFilter);
  const response = await transport.stream({
    verb: 'watch',
    method: 'GET',
    path: resourcePath(resource, { namespace: options.namespace }),
    query: {
      watch: 'true',
      allowWatchBookmarks: 'true',
      resourceVersion: options.resourceVersion,
      timeoutSeconds: options.timeoutSeconds,
      labelSelector: options.labelSelector,
      fieldSelector: options.fieldSelector,
    },
    signal: AbortSignal.any([options.signal, deadline]),
    protobuf,
  });
  const raw =
    protobuf !== undefined && isProtobuf(response.contentType)
      ? protobufEvents(transport, response.body, protobuf)
      : jsonEvents(response.body);
  for await (const rawEvent of raw) {
    const event = toEvent(resource, rawEvent);
    if (event !== undefined) {
      yield event;
    }
  }
}

async function* jsonEvents(body: AsyncIterable<Uint8Array>): AsyncGenerator<RawWatchEvent> {
  for await (const line of lines(body)) {
    yield JSON.parse(line) as RawWatchEvent;
  }
}

/** The events of a protobuf watch; a frame that does not decode is counted and ends the watch with its DecodeError. */
async function* protobufEvents(
  transport: Transport,
  body: AsyncIterable<Uint8Array>,
  read: ProtobufRead,
): AsyncGenerator<RawWatchEvent> {
  try {
    yield* decodeWatchStream(body, read);
  } catch (error) {
    if (error instanceof DecodeError) {
      transport.reportDecodeError({ resource: read.resource, verb: 'watch' });
    }
    throw error;
  }
}

async function* lines(body: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    // Walk the buffer with an index and cut it once per chunk: slicing per line would copy the rest of
    // a large chunk (a relist can deliver megabytes at once) for every line.
    let start = 0;
    for (let newline = buffer.indexOf('\n'); newline >= 0; newline = buffer.indexOf('\n', start)) {
      const line = buffer.slice(start, newline);
      start = newline + 1;
      if (line.trim() !== '') {
        yield line;
      }
    }
    buffer = buffer.slice(start);
  }
  if (buffer.trim() !== '') {
    yield buffer;
  }
}

const OBJECT_EVENTS = new Set(['ADDED', 'MODIFIED', 'DELETED']);

/**
 * The object was just parsed and is not shared yet: fill in apiVersion and kind (which watch events
 * of typed resources already carry) instead of copying every event's object.
 */
function withTypeMeta<T extends KubeObject>(resource: ResourceType<T>, object: KubeObject | undefined): T {
  const typed = (object ?? {}) as { apiVersion?: string; kind?: string } & T;
  typed.apiVersion ??= apiVersionOf(resource);
  typed.kind ??= resource.kind;
  return typed;
}

function toEvent<T extends KubeObject>(resource: ResourceType<T>, raw: RawWatchEvent): WatchEvent<T> | undefined {
  if (raw.type === 'ERROR') {
    const status = raw.object as StatusBody;
    throw new ApiError({ code: status.code ?? 500, status });
  }
  const object = raw.object as KubeObject | undefined;
  const resourceVersion = object?.metadata?.resourceVersion ?? '';
  if (raw.type === 'BOOKMARK') {
    return { type: 'BOOKMARK', resourceVersion };
  }
  if (!OBJECT_EVENTS.has(raw.type ?? '')) {
    return undefined;
  }
  const typed = withTypeMeta(resource, object);
  const type = raw.type as 'ADDED' | 'MODIFIED' | 'DELETED';
  return { type, object: resource.parse === undefined ? typed : resource.parse(typed), resourceVersion };
}
