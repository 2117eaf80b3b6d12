/**
 * One event of a protobuf watch: a frame's bytes are a meta/v1.WatchEvent {type=1, object=2}, not
 * enveloped, whose object is a RawExtension {raw=1} holding the object in the `k8s\0` envelope.
 */
import type { JsonObject } from './decode-message.ts';
import { decodeEnvelope } from './envelope.ts';
import type { FieldFilter } from './field-filter.ts';
import { guarded } from './guarded.ts';
import type { DecodeOptions } from './guarded.ts';
import { Reader, WireType } from './reader.ts';
import { messageTable } from './tables.ts';

/** A watch event as JSON.parse of the API server's JSON watch line gives it. */
export interface WatchEvent {
  /** ADDED, MODIFIED, DELETED, BOOKMARK or ERROR (whose object is a Status). */
  readonly type: string;
  readonly object: JsonObject;
}

const WATCH_EVENT = 'meta/v1.WatchEvent';

/** The field numbers, from the generated table (they are the same in every Kubernetes version). */
function fieldTag(name: string): number {
  const number = messageTable(WATCH_EVENT).fields.findIndex((field) => field?.name === name);
  if (number < 0) {
    throw new Error(`wire tables: ${WATCH_EVENT} has no field ${name}`);
  }
  return (number << 3) | WireType.bytes;
}

const TYPE = fieldTag('type');
const OBJECT = fieldTag('object');
const RAW = (1 << 3) | WireType.bytes;

/** RawExtension {raw=1}: the enveloped object. */
function readObject(r: Reader, filter: FieldFilter | undefined): JsonObject | undefined {
  const outer = r.enter();
  let object: JsonObject | undefined;
  while (r.more()) {
    const start = r.pos;
    const tag = r.tag();
    if (tag === RAW) {
      const extensionEnd = r.enter();
      object = decodeEnvelope(r, filter);
      r.leave(extensionEnd);
    } else if (tag >>> 3 === 1) {
      r.fail(`wire type ${tag & 7} for the raw object`, start);
    } else {
      r.skip(tag & 7);
    }
  }
  r.leave(outer);
  return object;
}

function decodeEvent(r: Reader, filter: FieldFilter | undefined): WatchEvent {
  let type = '';
  let object: JsonObject | undefined;
  while (r.more()) {
    const start = r.pos;
    const tag = r.tag();
    if (tag === TYPE) {
      type = r.string();
    } else if (tag === OBJECT) {
      object = readObject(r, filter);
    } else if (tag >>> 3 <= 2) {
      r.fail(`wire type ${tag & 7} for field ${tag >>> 3}`, start);
    } else {
      r.skip(tag & 7);
    }
  }
  return { type, object: object ?? r.fail('a watch event without an object', 0) };
}

/** Decodes one frame of a `;stream=watch` protobuf watch (see {@link WatchFramer}). */
export function decodeWatchEvent(frame: Uint8Array, options: DecodeOptions = {}): WatchEvent {
  return guarded(WATCH_EVENT, options, () =>
    decodeEvent(new Reader(frame, WATCH_EVENT, options.resource), options.filter),
  );
}
