/**
 * Makes `JSON.stringify` write a value byte for byte as Go's encoding/json would, so that a revision we
 * create stores exactly the bytes OpenKruise would have stored.
 *
 * Why it matters: the API server keeps ControllerRevision `data` as the raw bytes of the request and
 * treats them as immutable. OpenKruise compares those bytes (not their meaning) when it looks for an
 * equal revision, and any later write of the object (a revision-number bump) must reproduce them, or the
 * API server rejects it with "field is immutable". JSON.stringify differs from Go in two ways:
 * - it does not escape `<`, `>`, `&`, U+2028 and U+2029 (Go does): such strings are sent as
 *   `JSON.rawJSON` text produced by goQuote;
 * - it writes integer-like keys ("10", "9") first, in numeric order (Go sorts all keys as strings): such
 *   objects are sent through a Proxy whose `ownKeys` lists the keys in Go's order.
 * Object keys themselves cannot be re-escaped: a key with HTML characters (possible only in free-form
 * maps such as CSI volumeAttributes) is written unescaped (see the package README, "Limits").
 */
import { goNumber, goQuote, goSortedKeys } from './go-json.ts';

interface JsonWithRawJson {
  readonly rawJSON: (text: string) => unknown;
}

// JSON.rawJSON is in Node 21+ (the project requires 24) but not yet in TypeScript's ES2024 library.
const { rawJSON } = JSON as unknown as JsonWithRawJson;

/** A value whose `JSON.stringify` text equals `marshalGoJson(value)`; only for sending, never to keep. */
export function goWireValue(value: unknown): unknown {
  if (typeof value === 'string') {
    const quoted = goQuote(value);
    return quoted === JSON.stringify(value) ? value : rawJSON(quoted);
  }
  if (typeof value === 'number') {
    // Only -0 is written differently (Go keeps the sign); goNumber rejects what Go rejects.
    return goNumber(value) === String(value) ? value : rawJSON(goNumber(value));
  }
  if (Array.isArray(value)) {
    return value.map(goWireValue);
  }
  if (typeof value === 'object' && value !== null) {
    return goOrderedObject(value as Readonly<Record<string, unknown>>);
  }
  return value;
}

function goOrderedObject(object: Readonly<Record<string, unknown>>): object {
  const keys = goSortedKeys(object);
  const target = Object.fromEntries(keys.map((key) => [key, goWireValue(object[key])]));
  const natural = Object.keys(target);
  if (natural.every((key, index) => key === keys[index])) {
    return target;
  }
  return new Proxy(target, { ownKeys: () => keys });
}
