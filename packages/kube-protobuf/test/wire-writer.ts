/** A minimal protobuf writer for the unit tests: hand-made messages, envelopes and watch frames. */

/** Bytes of a message, built from parts. */
export type Part = readonly number[] | Uint8Array;

export function bytes(...parts: readonly Part[]): Uint8Array {
  const out: number[] = [];
  for (const part of parts) {
    out.push(...part);
  }
  return Uint8Array.from(out);
}

/** A varint of any 64-bit value (negative: two's complement, 10 bytes, as protobuf writes int32 and int64). */
export function varint(value: bigint | number): number[] {
  let rest = BigInt.asUintN(64, BigInt(value));
  const out: number[] = [];
  while (rest >= 0x80n) {
    out.push(Number(rest & 0x7fn) | 0x80);
    rest >>= 7n;
  }
  out.push(Number(rest));
  return out;
}

export function tag(number: number, wireType: number): number[] {
  return varint((BigInt(number) << 3n) | BigInt(wireType));
}

/** A varint field. */
export function int(number: number, value: bigint | number | boolean): number[] {
  return [...tag(number, 0), ...varint(typeof value === 'boolean' ? Number(value) : value)];
}

/** A length-delimited field: a string, bytes or a message. */
export function field(number: number, value: string | Part): number[] {
  const payload = typeof value === 'string' ? [...Buffer.from(value, 'utf8')] : [...value];
  return [...tag(number, 2), ...varint(payload.length), ...payload];
}

/** The `k8s\0` envelope around an object's bytes. */
export function envelope(apiVersion: string, kind: string, raw: Part): Uint8Array {
  return bytes([0x6b, 0x38, 0x73, 0x00], field(1, bytes(field(1, apiVersion), field(2, kind))), field(2, raw));
}

/** A watch frame: 4-byte big-endian length, then WatchEvent{type=1, object=2{raw=1}}. */
export function watchFrame(type: string, object: Part): Uint8Array {
  const event = bytes(field(1, type), field(2, bytes(field(1, object))));
  const prefix = Buffer.alloc(4);
  prefix.writeUInt32BE(event.length);
  return bytes(prefix, event);
}
