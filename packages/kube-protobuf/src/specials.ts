/**
 * The types with a JSON form of their own, read from their protobuf form: metav1.Time and MicroTime
 * (a Timestamp message), resource.Quantity (its string), intstr.IntOrString, and RawExtension and
 * FieldsV1 (JSON bytes). Each returns what its Go MarshalJSON writes, after the Go Unmarshal of the
 * protobuf form (which drops a Time's nanoseconds and a MicroTime's below the microsecond).
 */
import type { Reader } from './reader.ts';
import { formatMicros, formatSeconds, GO_ZERO_TIME_SECONDS } from './time-format.ts';

const TAG_1_VARINT = 0x08;
const TAG_1_BYTES = 0x0a;
const TAG_2_VARINT = 0x10;
const TAG_3_BYTES = 0x1a;

/** Reads a Timestamp {seconds=1, nanos=2} into `into`. An empty message is Go's zero time. */
function readTimestamp(r: Reader, into: { seconds: number; nanos: number }): void {
  const outer = r.enter();
  into.seconds = r.more() ? 0 : GO_ZERO_TIME_SECONDS;
  into.nanos = 0;
  while (r.more()) {
    const tag = r.tag();
    if (tag === TAG_1_VARINT) {
      into.seconds = r.int64();
    } else if (tag === TAG_2_VARINT) {
      into.nanos = r.int32();
    } else {
      skipUnknown(r, tag, 2);
    }
  }
  r.leave(outer);
}

/** Skips a field of a number above `known`; a known number with another wire type is an error, as in Go's generated code. */
function skipUnknown(r: Reader, tag: number, known: number): void {
  if (tag >>> 3 <= known) {
    r.fail(`wire type ${tag & 7} for field ${tag >>> 3}`);
  }
  r.skip(tag & 7);
}

const timestamp = { seconds: 0, nanos: 0 };

export function readTime(r: Reader): string | null {
  const start = r.pos;
  readTimestamp(r, timestamp);
  if (timestamp.seconds === GO_ZERO_TIME_SECONDS) {
    return null;
  }
  return formatSeconds(timestamp.seconds) ?? r.fail(`time ${timestamp.seconds} s is out of range`, start);
}

const NANOS_PER_SECOND = 1e9;

export function readMicroTime(r: Reader): string | null {
  const start = r.pos;
  readTimestamp(r, timestamp);
  // Truncated toward zero to the microsecond, then normalised as time.Unix does.
  const nanos = timestamp.nanos - (timestamp.nanos % 1000);
  const seconds = timestamp.seconds + Math.floor(nanos / NANOS_PER_SECOND);
  const micros = (nanos - Math.floor(nanos / NANOS_PER_SECOND) * NANOS_PER_SECOND) / 1000;
  if (seconds === GO_ZERO_TIME_SECONDS && micros === 0) {
    return null;
  }
  return formatMicros(seconds, micros) ?? r.fail(`time ${seconds} s is out of range`, start);
}

/** Quantity {string=1}: the API server writes its canonical String(); Go's decoder rejects an empty one. */
export function readQuantity(r: Reader): string {
  const outer = r.enter();
  let text = '0';
  while (r.more()) {
    const tag = r.tag();
    if (tag === TAG_1_BYTES) {
      const start = r.pos;
      text = r.string();
      if (text === '') {
        r.fail('an empty quantity', start);
      }
    } else {
      skipUnknown(r, tag, 1);
    }
  }
  r.leave(outer);
  return text;
}

/** IntOrString {type=1, intVal=2, strVal=3}: the number for type 0, the string for type 1. */
export function readIntOrString(r: Reader): number | string {
  const outer = r.enter();
  const messageStart = r.pos;
  let type = 0;
  let intVal = 0;
  let strVal = '';
  while (r.more()) {
    const tag = r.tag();
    if (tag === TAG_1_VARINT) {
      type = r.int64();
    } else if (tag === TAG_2_VARINT) {
      intVal = r.int32();
    } else if (tag === TAG_3_BYTES) {
      strVal = r.string();
    } else {
      skipUnknown(r, tag, 3);
    }
  }
  if (type !== 0 && type !== 1) {
    r.fail(`IntOrString of type ${type}, which Go cannot write as JSON`, messageStart);
  }
  r.leave(outer);
  return type === 0 ? intVal : strVal;
}

/**
 * RawExtension or FieldsV1 {raw=1}: the raw bytes are the JSON (MarshalJSON returns them as they are),
 * nil is null. Bytes that are not JSON fail, as Go's encoder fails on them.
 */
export function readRawJson(r: Reader): unknown {
  const outer = r.enter();
  let value: unknown = null;
  while (r.more()) {
    const tag = r.tag();
    if (tag === TAG_1_BYTES) {
      value = parseJson(r, r.delimited());
    } else {
      skipUnknown(r, tag, 1);
    }
  }
  r.leave(outer);
  return value;
}

function parseJson(r: Reader, valueEnd: number): unknown {
  const start = r.pos;
  const text = r.bytes.toString('utf8', start, valueEnd);
  r.pos = valueEnd;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return r.fail(`raw bytes that are not JSON: ${reason}`, start);
  }
}
