/**
 * Bad input, generated: random bytes, every truncation of valid frames and objects, and bit flips. Every
 * outcome must be a decoded object or a DecodeError; nothing else may be thrown (no RangeError, no
 * TypeError), and nothing may hang. Deterministic: the same seed gives the same cases.
 */
import { describe, expect, it } from 'vitest';

import { GOLDEN_SAMPLE, sampleBytes } from '../test/golden-sample.ts';
import { SeededRandom } from '../test/seeded-random.ts';
import { bytes, watchFrame } from '../test/wire-writer.ts';
import { DecodeError } from './decode-error.ts';
import { decodeObject, decodeWatchEvent, WatchFramer } from './index.ts';

type Outcome = 'decoded' | 'DecodeError';

function outcome(decode: () => unknown): Outcome {
  try {
    decode();
    return 'decoded';
  } catch (error) {
    if (error instanceof DecodeError) {
      return 'DecodeError';
    }
    throw new Error(`not a DecodeError: ${String(error)}`, { cause: error });
  }
}

/** Decodes frames as a watch would: the framer, then each frame. */
function decodeStream(stream: Uint8Array): void {
  const framer = new WatchFramer({ maxFrameBytes: 1 << 20 });
  for (const frame of framer.push(stream)) {
    decodeWatchEvent(frame);
  }
  framer.end();
}

const OBJECTS = GOLDEN_SAMPLE.map((vector) => Buffer.from(vector.protobuf, 'base64'));
const STREAM = bytes(watchFrame('ADDED', sampleBytes('pod: full')), watchFrame('MODIFIED', sampleBytes('node: full')));

describe('fuzzed input', () => {
  it('random bytes, bare and behind the envelope magic', () => {
    const random = new SeededRandom(41);
    const counts = { decoded: 0, DecodeError: 0 };
    for (let i = 0; i < 3000; i++) {
      const noise = random.bytes(random.int(200));
      counts[outcome(() => decodeObject(noise))]++;
      counts[outcome(() => decodeObject(bytes([0x6b, 0x38, 0x73, 0x00], noise)))]++;
      counts[outcome(() => decodeWatchEvent(noise))]++;
      counts[
        outcome(() => {
          decodeStream(noise);
        })
      ]++;
    }
    expect(counts.DecodeError).toBeGreaterThan(0);
  });

  it('every truncation of every sample object', () => {
    for (const object of OBJECTS) {
      const whole = decodeObject(object);
      for (let length = 0; length < object.length; length++) {
        const cut = object.subarray(0, length);
        // A cut inside the object's bytes fails (a length points past the end). Only a cut that drops
        // whole envelope fields after the object (the empty contentEncoding and contentType Go writes)
        // is still a valid envelope, of the same object.
        if (outcome(() => decodeObject(cut)) === 'decoded') {
          expect(decodeObject(cut), `cut at ${length} of ${object.length}`).toStrictEqual(whole);
          expect(length, `cut at ${length} of ${object.length}`).toBeGreaterThanOrEqual(object.length - 4);
        }
      }
    }
  });

  it('every truncation of a watch stream, and the stream in every two chunks', () => {
    const firstFrame = 4 + Buffer.from(STREAM).readUInt32BE(0);
    for (let length = 0; length < STREAM.length; length++) {
      const cut = STREAM.subarray(0, length);
      const whole = length === 0 || length === firstFrame;
      expect(
        outcome(() => {
          decodeStream(cut);
        }),
        `cut at ${length}`,
      ).toBe(whole ? 'decoded' : 'DecodeError');
    }
    for (let cut = 0; cut < STREAM.length; cut += 7) {
      const framer = new WatchFramer();
      const frames = [...framer.push(STREAM.subarray(0, cut)), ...framer.push(STREAM.subarray(cut))];
      expect(frames.map((frame) => decodeWatchEvent(frame).type)).toEqual(['ADDED', 'MODIFIED']);
    }
  });

  it('bit flips and byte changes in objects and frames', () => {
    const random = new SeededRandom(7);
    const counts = { decoded: 0, DecodeError: 0 };
    for (let i = 0; i < 4000; i++) {
      const source = i % 2 === 0 ? (OBJECTS[random.int(OBJECTS.length)] ?? STREAM) : STREAM;
      const mutated = Uint8Array.from(source);
      for (let flips = 1 + random.int(3); flips > 0; flips--) {
        const at = random.int(mutated.length);
        mutated[at] = random.int(2) === 0 ? (mutated[at] ?? 0) ^ (1 << random.int(8)) : random.int(256);
      }
      const decode =
        source === STREAM
          ? () => {
              decodeStream(mutated);
            }
          : () => decodeObject(mutated);
      counts[outcome(decode)]++;
    }
    // Most flips land in strings or numbers and still decode; some break the structure.
    expect(counts.decoded).toBeGreaterThan(0);
    expect(counts.DecodeError).toBeGreaterThan(0);
  });
});
