import type { Buffer } from 'node:buffer';

/** Strings up to this many bytes go through the cache of recent strings. */
const CACHED = 48;
const CACHE_SLOTS = 4096;

/**
 * Recent short ASCII strings by a hash of their bytes. Objects of one list repeat most of their short
 * strings (label keys and values, condition types and statuses, images, node names); a string found
 * here costs two passes over its bytes instead of a call into the runtime and a new string, and the
 * objects share it (less heap, as cache-transforms' interning has it).
 */
const cache: (string | undefined)[] = Array.from({ length: CACHE_SLOTS }, () => undefined);

/**
 * A protobuf string as the API server's JSON gives it. Go does not validate UTF-8 when it decodes
 * protobuf, and its JSON encoder writes U+FFFD for every byte that does not start a valid sequence;
 * the WHATWG decoder of `Buffer.toString` replaces a whole invalid sequence with one. So a decoded string
 * with a U+FFFD in it (rare: invalid input, or a real U+FFFD) is decoded again Go's way.
 */
export function decodeUtf8(bytes: Buffer, start: number, end: number): string {
  if (end - start > CACHED) {
    return decodeLong(bytes, start, end);
  }
  // FNV-1a over the bytes, and whether they are all ASCII.
  let hash = 0x811c9dc5;
  let high = 0;
  for (let i = start; i < end; i++) {
    const b = bytes[i] ?? 0x80;
    high |= b;
    hash = Math.imul(hash ^ b, 0x01000193);
  }
  if (high >= 0x80) {
    return decodeLong(bytes, start, end);
  }
  const slot = (hash ^ (hash >>> 15)) & (CACHE_SLOTS - 1);
  const cached = cache[slot];
  if (cached?.length === end - start && sameAscii(cached, bytes, start)) {
    return cached;
  }
  const text = bytes.toString('latin1', start, end);
  cache[slot] = text;
  return text;
}

/** Whether the bytes from `start` are the (ASCII) string's. */
function sameAscii(text: string, bytes: Buffer, start: number): boolean {
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) !== bytes[start + i]) {
      return false;
    }
  }
  return true;
}

function decodeLong(bytes: Buffer, start: number, end: number): string {
  const text = bytes.toString('utf8', start, end);
  return text.includes('\uFFFD') ? decodeLikeGo(bytes, start, end) : text;
}

/** The allowed range of the second byte of a sequence, by its first byte (RFC 3629, as Go's utf8.DecodeRune). */
function secondByteRange(first: number): readonly [number, number] {
  if (first === 0xe0) {
    return [0xa0, 0xbf];
  }
  if (first === 0xed) {
    return [0x80, 0x9f];
  }
  if (first === 0xf0) {
    return [0x90, 0xbf];
  }
  return first === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf];
}

/** The length of the sequence a first byte starts, 0 when it starts none. */
function sequenceLength(first: number): number {
  if (first >= 0xc2 && first <= 0xdf) {
    return 2;
  }
  if (first >= 0xe0 && first <= 0xef) {
    return 3;
  }
  return first >= 0xf0 && first <= 0xf4 ? 4 : 0;
}

/** Whether bytes from..to are all continuation bytes (10xxxxxx). */
function continues(bytes: Buffer, from: number, to: number): boolean {
  for (let k = from; k < to; k++) {
    const b = bytes[k] ?? 0;
    if (b < 0x80 || b > 0xbf) {
      return false;
    }
  }
  return true;
}

/** The length of the valid sequence at `i`, 0 when there is none (Go then consumes one byte as U+FFFD). */
function validSequenceAt(bytes: Buffer, i: number, end: number): number {
  const first = bytes[i] ?? 0;
  const length = sequenceLength(first);
  if (length === 0 || i + length > end) {
    return 0;
  }
  const [low, high] = secondByteRange(first);
  const second = bytes[i + 1] ?? 0;
  return second >= low && second <= high && continues(bytes, i + 2, i + length) ? length : 0;
}

function decodeLikeGo(bytes: Buffer, start: number, end: number): string {
  let text = '';
  let i = start;
  while (i < end) {
    const b = bytes[i] ?? 0;
    if (b < 0x80) {
      text += String.fromCharCode(b);
      i++;
      continue;
    }
    const length = validSequenceAt(bytes, i, end);
    text += length === 0 ? '\uFFFD' : bytes.toString('utf8', i, i + length);
    i += Math.max(length, 1);
  }
  return text;
}
