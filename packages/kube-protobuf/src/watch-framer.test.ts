import { describe, expect, it } from 'vitest';

import { bytes } from '../test/wire-writer.ts';
import { DecodeError } from './decode-error.ts';
import { WatchFramer } from './watch-framer.ts';

function frame(payload: readonly number[]): Uint8Array {
  const prefix = Buffer.alloc(4);
  prefix.writeUInt32BE(payload.length);
  return bytes(prefix, payload);
}

const PAYLOADS: readonly (readonly number[])[] = [[1, 2, 3], [], Array.from({ length: 300 }, (_, i) => i % 256), [9]];
const STREAM = bytes(...PAYLOADS.map(frame));

function framesOf(framer: WatchFramer, chunks: readonly Uint8Array[]): number[][] {
  return chunks.flatMap((chunk) => framer.push(chunk).map((f) => [...f]));
}

describe('WatchFramer', () => {
  it('cuts a stream in one chunk into its frames', () => {
    const framer = new WatchFramer();
    expect(framesOf(framer, [STREAM])).toEqual(PAYLOADS);
    expect(() => {
      framer.end();
    }).not.toThrow();
  });

  it('cuts the same frames whatever two chunks the stream comes in (inside the length prefix too)', () => {
    for (let cut = 0; cut <= STREAM.length; cut++) {
      const framer = new WatchFramer();
      expect(framesOf(framer, [STREAM.subarray(0, cut), STREAM.subarray(cut)]), `cut at ${cut}`).toEqual(PAYLOADS);
      framer.end();
    }
  });

  it('cuts the same frames from one-byte chunks', () => {
    const framer = new WatchFramer();
    const chunks = Array.from(STREAM, (b) => Uint8Array.of(b));
    expect(framesOf(framer, chunks)).toEqual(PAYLOADS);
  });

  it('returns a frame inside one chunk as a view, without copying', () => {
    const [first] = new WatchFramer().push(STREAM);
    expect(first?.buffer).toBe(STREAM.buffer);
  });

  // The third frame starts at byte 11 (the second is empty).
  it.each([1, 3, 4, 6, 303])('fails at the end of a stream cut after %d bytes of a frame', (length) => {
    const framer = new WatchFramer({ resource: 'pods' });
    expect(framesOf(framer, [STREAM.subarray(0, 11 + length)])).toEqual(PAYLOADS.slice(0, 2));
    expect(() => {
      framer.end();
    }).toThrow(DecodeError);
    expect(() => {
      framer.end();
    }).toThrow('cannot decode watch frame (pods) at byte 11: the stream ended inside a frame');
  });

  it('fails on a frame length over the limit instead of buffering it', () => {
    const framer = new WatchFramer({ maxFrameBytes: 100 });
    expect(() => framer.push(bytes(frame([1]), [0xff, 0xff, 0xff, 0xff]))).toThrow(
      'cannot decode watch frame at byte 5: a frame of 4294967295 bytes',
    );
  });
});
