import { describe, expect, it } from 'vitest';

import { GOLDEN_SAMPLE, sampleBytes } from '../test/golden-sample.ts';
import { bytes, field, int, watchFrame } from '../test/wire-writer.ts';
import { decodeWatchEvent, decodeWatchStream } from './index.ts';

async function* chunked(stream: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let offset = 0; offset < stream.length; offset += size) {
    await Promise.resolve();
    yield stream.subarray(offset, offset + size);
  }
}

describe('decodeWatchEvent', () => {
  it('decodes a frame into the JSON watch event', () => {
    const frame = watchFrame('ADDED', sampleBytes('pod: full')).subarray(4);
    const pod = GOLDEN_SAMPLE.find((vector) => vector.name === 'pod: full');
    expect(decodeWatchEvent(frame)).toStrictEqual({ type: 'ADDED', object: JSON.parse(pod?.json ?? '') as unknown });
  });

  it('decodes an ERROR event, whose object is a Status', () => {
    const frame = watchFrame('ERROR', sampleBytes('status: not found')).subarray(4);
    expect(decodeWatchEvent(frame)).toMatchObject({ type: 'ERROR', object: { kind: 'Status', code: 404 } });
  });

  it('skips unknown fields of the event', () => {
    const frame = bytes(
      int(7, 1),
      field(1, 'DELETED'),
      field(2, bytes(field(9, 'x'), field(1, sampleBytes('pod: times')))),
    );
    expect(decodeWatchEvent(frame)).toMatchObject({ type: 'DELETED', object: { metadata: { name: 'times' } } });
  });

  it.each([
    ['no object', bytes(field(1, 'ADDED')), 'a watch event without an object'],
    [
      'an object that is not enveloped',
      bytes(field(1, 'ADDED'), field(2, field(1, '{"kind":"Pod"}'))),
      'not the k8s\\0 envelope',
    ],
    ['a wrong wire type for the type', bytes(int(1, 5)), 'wire type 0 for field 1'],
    ['a wrong wire type for the raw object', bytes(field(2, int(1, 5))), 'wire type 0 for the raw object'],
  ])('fails on %s', (_, frame, reason) => {
    expect(() => decodeWatchEvent(frame, { resource: 'pods' })).toThrow(reason);
  });
});

describe('decodeWatchStream', () => {
  const stream = bytes(watchFrame('ADDED', sampleBytes('pod: full')), watchFrame('DELETED', sampleBytes('pod: times')));

  it.each([1, 5, 1000, 100000])('decodes the events of a stream in chunks of %d bytes', async (size) => {
    const events = [];
    for await (const event of decodeWatchStream(chunked(stream, size))) {
      events.push(event.type);
    }
    expect(events).toEqual(['ADDED', 'DELETED']);
  });

  it('fails on a stream that ends inside a frame', async () => {
    const events = decodeWatchStream(chunked(stream.subarray(0, stream.length - 1), 100), { resource: 'pods' });
    await expect(async () => {
      for await (const event of events) {
        expect(event.type).toBe('ADDED');
      }
    }).rejects.toThrow('cannot decode watch frame (pods)');
  });
});
