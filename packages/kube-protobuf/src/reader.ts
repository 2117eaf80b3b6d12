import { Buffer } from 'node:buffer';

import { DecodeError } from './decode-error.ts';
import { decodeUtf8 } from './utf8.ts';

/** Protobuf wire types (groups, 3 and 4, are not used by Kubernetes and not accepted). */
export const WireType = { varint: 0, fixed64: 1, bytes: 2, fixed32: 5 } as const;

const TWO_POW_32 = 4294967296;

/**
 * A cursor over protobuf bytes. Every read is bounded by `end`, the end of the message being decoded
 * (`enter` a length-delimited value to decode inside it, `leave` it after), so that a length pointing
 * past its message is an error there, not a read of its neighbour's bytes. Errors name `typeName`
 * (kept current by the message decoder) and the offset.
 *
 * 64-bit varints are read as two 32-bit halves (the high half in `hi`, so that no object is built per
 * number): exact up to 2^53, and beyond it the nearest double, which is what JSON.parse gives for the
 * decimal the API server writes.
 */
export class Reader {
  readonly bytes: Buffer;
  pos = 0;
  /** Where the message being decoded ends. */
  end: number;
  /** The high 32 bits (unsigned) of the last varint; `varint` returns the low 32. */
  hi = 0;
  typeName: string;
  readonly resource: string | undefined;

  constructor(bytes: Uint8Array, typeName: string, resource: string | undefined) {
    this.bytes = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.end = bytes.length;
    this.typeName = typeName;
    this.resource = resource;
  }

  fail(reason: string, offset: number = this.pos): never {
    throw new DecodeError(reason, { typeName: this.typeName, resource: this.resource, offset });
  }

  /** A varint's low 32 bits, unsigned; its high 32 bits go to `hi`. */
  varint(): number {
    const pos = this.pos;
    if (pos < this.end) {
      const first = this.bytes[pos] ?? 0x80;
      if (first < 0x80) {
        this.pos = pos + 1;
        this.hi = 0;
        return first;
      }
    }
    return this.varintSlow();
  }

  private varintSlow(): number {
    const start = this.pos;
    let lo = 0;
    for (let shift = 0; shift < 28; shift += 7) {
      const b = this.nextByte(start);
      lo |= (b & 0x7f) << shift;
      if (b < 0x80) {
        this.hi = 0;
        return lo >>> 0;
      }
    }
    // The fifth byte holds bits 28-31 of the low half and 0-2 of the high half.
    const fifth = this.nextByte(start);
    this.hi = fifth < 0x80 ? (fifth & 0x7f) >>> 4 : this.varintHigh((fifth & 0x7f) >>> 4, start);
    return (lo | ((fifth & 0x7f) << 28)) >>> 0;
  }

  /** Bytes 6-10 of a varint: bits 3-31 of the high half (Go drops what a tenth byte holds beyond bit 63). */
  private varintHigh(low3: number, start: number): number {
    let hi = low3;
    for (let shift = 3; shift < 38; shift += 7) {
      const b = this.nextByte(start);
      hi |= (b & 0x7f) << shift;
      if (b < 0x80) {
        return hi >>> 0;
      }
    }
    return this.fail('a varint longer than 10 bytes', start);
  }

  private nextByte(start: number): number {
    if (this.pos >= this.end) {
      this.fail('truncated varint', start);
    }
    return this.bytes[this.pos++] ?? 0;
  }

  /** Reads a length prefix and makes the value the message being decoded; returns the outer end for `leave`. */
  enter(): number {
    const outer = this.end;
    this.end = this.delimited();
    return outer;
  }

  /** Moves past the value entered, back into the message around it. */
  leave(outer: number): void {
    this.pos = this.end;
    this.end = outer;
  }

  /** Whether bytes of the current message remain. */
  more(): boolean {
    return this.pos < this.end;
  }

  /** A field's tag: number << 3 | wire type. */
  tag(): number {
    const start = this.pos;
    const tag = this.varint();
    if (this.hi !== 0 || tag < 8) {
      this.fail('invalid field number 0 or beyond 2^29', start);
    }
    return tag;
  }

  int32(): number {
    return this.varint() | 0;
  }

  uint32(): number {
    return this.varint();
  }

  /** A small value stays a small integer (a double computed from the halves would be stored boxed, as a heap number). */
  int64(): number {
    const lo = this.varint();
    const hi = this.hi;
    return hi === 0 ? lo : (hi | 0) * TWO_POW_32 + lo;
  }

  uint64(): number {
    const lo = this.varint();
    const hi = this.hi;
    return hi === 0 ? lo : hi * TWO_POW_32 + lo;
  }

  bool(): boolean {
    return (this.varint() | this.hi) !== 0;
  }

  double(): number {
    const pos = this.need(8);
    this.pos = pos + 8;
    return this.bytes.readDoubleLE(pos);
  }

  /** Reads a length prefix; returns where the length-delimited value ends (the value starts at `pos`). */
  delimited(): number {
    const start = this.pos;
    const length = this.varint();
    if (this.hi !== 0 || length > this.end - this.pos) {
      const left = this.end - this.pos;
      this.fail(`length ${this.hi * TWO_POW_32 + length} beyond the end of the message (${left} bytes left)`, start);
    }
    return this.pos + length;
  }

  string(): string {
    const valueEnd = this.delimited();
    const value = decodeUtf8(this.bytes, this.pos, valueEnd);
    this.pos = valueEnd;
    return value;
  }

  /** Skips a field this decoder does not know, by its wire type. */
  skip(wireType: number): void {
    switch (wireType) {
      case WireType.varint:
        this.varint();
        return;
      case WireType.fixed64:
        this.pos = this.need(8) + 8;
        return;
      case WireType.bytes:
        this.pos = this.delimited();
        return;
      case WireType.fixed32:
        this.pos = this.need(4) + 4;
        return;
      default:
        this.fail(`unsupported wire type ${wireType}`);
    }
  }

  /** Checks that `size` bytes remain before `end`; returns the current position. */
  private need(size: number): number {
    if (this.end - this.pos < size) {
      this.fail(`truncated: ${size} bytes needed, ${this.end - this.pos} left`);
    }
    return this.pos;
  }
}
