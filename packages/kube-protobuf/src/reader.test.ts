import { describe, expect, it } from 'vitest';

import { bytes, field, tag, varint } from '../test/wire-writer.ts';
import { DecodeError } from './decode-error.ts';
import { Reader } from './reader.ts';

function reader(...parts: (readonly number[] | Uint8Array)[]): Reader {
  return new Reader(bytes(...parts), 'test.Message', 'pods');
}

/** What JSON.parse gives for the decimal the API server writes: the reference for 64-bit values. */
function asJson(value: bigint): number {
  return JSON.parse(value.toString()) as number;
}

const INT64_CASES: readonly bigint[] = [
  0n,
  1n,
  127n,
  128n,
  300n,
  2n ** 31n - 1n,
  2n ** 31n,
  2n ** 32n - 1n,
  2n ** 32n,
  2n ** 53n - 1n,
  2n ** 53n,
  2n ** 53n + 1n,
  2n ** 53n + 3n,
  2n ** 62n + 12345n,
  2n ** 63n - 1n,
  -1n,
  -(2n ** 31n),
  -(2n ** 53n) - 1n,
  -(2n ** 63n),
  -(2n ** 63n) + 1n,
  12345678901234567n,
];

describe('Reader varints', () => {
  it.each(INT64_CASES.map((value) => [value.toString(), value] as const))(
    'int64 %s is what JSON.parse gives',
    (_, value) => {
      const r = reader(varint(value));
      expect(r.int64()).toBe(asJson(value));
      expect(r.more()).toBe(false);
    },
  );

  it.each(INT64_CASES.filter((value) => value >= 0n).map((value) => [value.toString(), value] as const))(
    'uint64 %s is what JSON.parse gives',
    (_, value) => {
      expect(reader(varint(value)).uint64()).toBe(asJson(value));
    },
  );

  it('reads uint64 beyond int64', () => {
    expect(reader(varint(2n ** 64n - 1n)).uint64()).toBe(asJson(2n ** 64n - 1n));
  });

  it.each([
    [0, 0],
    [-1, -1],
    [2147483647, 2147483647],
    [-2147483648, -2147483648],
    [-5, -5],
  ])('int32 %d (negative ones are 10-byte varints)', (value, expected) => {
    const encoded = varint(value);
    expect(encoded.length).toBe(value < 0 ? 10 : encoded.length);
    expect(reader(encoded).int32()).toBe(expected);
  });

  it('keeps the low 32 bits of a longer value for int32, as Go does', () => {
    expect(reader(varint(2n ** 32n + 7n)).int32()).toBe(7);
    expect(reader(varint(2n ** 32n + 7n)).uint32()).toBe(7);
  });

  it('reads booleans from any non-zero varint', () => {
    expect(reader(varint(0)).bool()).toBe(false);
    expect(reader(varint(1)).bool()).toBe(true);
    expect(reader(varint(2n ** 40n)).bool()).toBe(true);
  });

  it('accepts a non-minimal varint', () => {
    expect(reader([0x81, 0x80, 0x80, 0x00]).int64()).toBe(1);
  });

  it.each([
    ['empty', [], 'truncated varint'],
    ['continued past the end', [0x80, 0x80], 'truncated varint'],
    ['11 bytes', [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x81, 0x01], 'longer than 10 bytes'],
  ])('fails on a bad varint: %s', (_, encoded, reason) => {
    const read = () => reader(encoded).int64();
    expect(read).toThrow(DecodeError);
    expect(read).toThrow(reason);
    expect(read).toThrow('cannot decode test.Message (pods) at byte 0');
  });

  it('stops a varint at the end of the message being decoded, not of the buffer', () => {
    const r = reader(field(1, [0x80]), [0x01]);
    r.tag();
    r.enter();
    expect(() => r.int64()).toThrow('truncated varint');
  });
});

describe('Reader fields', () => {
  it('reads tags and refuses field number 0 and numbers beyond 2^29', () => {
    expect(reader(tag(536870911, 2)).tag()).toBe(536870911 * 8 + 2);
    expect(() => reader([0x02]).tag()).toThrow('invalid field number');
    expect(() => reader(varint(2n ** 35n)).tag()).toThrow('invalid field number');
  });

  it('bounds a length by the message it is in', () => {
    const r = reader(varint(5), [1, 2, 3]);
    expect(() => r.delimited()).toThrow('length 5 beyond the end of the message (3 bytes left)');
    expect(() => reader(varint(2n ** 40n)).delimited()).toThrow('beyond the end');
  });

  it('enters and leaves a nested message', () => {
    const r = reader(field(1, bytes(field(2, 'ab'))), [0x08, 0x05]);
    expect(r.tag()).toBe(0x0a);
    const outer = r.enter();
    expect(r.tag()).toBe(0x12);
    expect(r.string()).toBe('ab');
    expect(r.more()).toBe(false);
    r.leave(outer);
    expect(r.more()).toBe(true);
    expect(r.tag()).toBe(0x08);
    expect(r.int32()).toBe(5);
  });

  it('reads doubles and fails on a truncated one', () => {
    const encoded = Buffer.alloc(8);
    encoded.writeDoubleLE(1.5e300);
    expect(reader(encoded).double()).toBe(1.5e300);
    expect(() => reader([1, 2, 3]).double()).toThrow('truncated: 8 bytes needed, 3 left');
  });

  it.each([
    ['varint', 0, varint(2n ** 63n)],
    ['fixed64', 1, [1, 2, 3, 4, 5, 6, 7, 8]],
    ['bytes', 2, [...varint(3), 1, 2, 3]],
    ['fixed32', 5, [1, 2, 3, 4]],
  ])('skips an unknown %s field by its length', (_, wireType, encoded) => {
    const r = reader(encoded, [0x2a]);
    r.skip(wireType);
    expect(r.pos).toBe(encoded.length);
  });

  it.each([3, 4, 6, 7])('refuses wire type %d', (wireType) => {
    expect(() => {
      reader([0, 0, 0, 0]).skip(wireType);
    }).toThrow(`unsupported wire type ${wireType}`);
  });

  it.each([
    [1, [1, 2, 3]],
    [5, [1]],
    [2, [5, 1]],
  ])('fails on a truncated field of wire type %d', (wireType, encoded) => {
    expect(() => {
      reader(encoded).skip(wireType);
    }).toThrow(DecodeError);
  });
});
