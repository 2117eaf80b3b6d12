/**
 * Micro-benchmark (not a test): a watch stream of 1,000 MODIFIED pod events (the pods of golden-go's
 * `bench` list), as the API server streams them in chunks, decoded the two ways the client does: JSON
 * lines (a TextDecoder, the lines cut, JSON.parse each) against protobuf frames (`decodeWatchStream`),
 * the latter also with a filter that skips managedFields as the informers' default does. Per event,
 * what the list benchmark (`bench:decode`) cannot show: the framing, a Reader and an envelope per event.
 *
 *   npm run bench:watch-decode -w @kruise-ts/kube-protobuf [-- <pods> <rounds>]
 */
import { isDeepStrictEqual } from 'node:util';

import { compileFieldFilter, decodeWatchStream } from '../../src/index.ts';
import type { FieldFilter } from '../../src/index.ts';
import { envelope, watchFrame } from '../wire-writer.ts';
import { goldenPodList } from './golden-pod-list.ts';

const pods = Number(process.argv[2] ?? '1000');
const rounds = Number(process.argv[3] ?? '30');
/** What the API server's HTTP/2 stream typically hands the client at once. */
const CHUNK_BYTES = 16 * 1024;

/** A varint at `pos`: its value and where it ends (lengths here are far below 2^31). */
function varintAt(bytes: Uint8Array, pos: number): [value: number, end: number] {
  let value = 0;
  let shift = 0;
  let at = pos;
  for (;;) {
    const byte = bytes[at++] ?? 0;
    value += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) {
      return [value, at];
    }
    shift += 7;
  }
}

/** The length-delimited fields numbered `number` of the message (all fields here are). */
function fieldsOf(bytes: Uint8Array, number: number): Uint8Array[] {
  const found: Uint8Array[] = [];
  let pos = 0;
  while (pos < bytes.length) {
    const [tag, afterTag] = varintAt(bytes, pos);
    const [length, valueStart] = varintAt(bytes, afterTag);
    if (tag >>> 3 === number) {
      found.push(bytes.subarray(valueStart, valueStart + length));
    }
    pos = valueStart + length;
  }
  return found;
}

/** The pods of the enveloped PodList (envelope: magic, Unknown{typeMeta=1, raw=2}; PodList{items=2}). */
function podsOf(list: Uint8Array): Uint8Array[] {
  const [raw] = fieldsOf(list.subarray(4), 2);
  if (raw === undefined) {
    throw new Error('no raw object in the PodList envelope');
  }
  return fieldsOf(raw, 2);
}

function chunked(stream: Uint8Array): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let pos = 0; pos < stream.length; pos += CHUNK_BYTES) {
    chunks.push(stream.subarray(pos, pos + CHUNK_BYTES));
  }
  return chunks;
}

/** The runtime's JSON watch path: a streaming TextDecoder, lines cut by index, JSON.parse per line. */
function jsonEvents(chunks: readonly Uint8Array[]): unknown[] {
  const decoder = new TextDecoder();
  const events: unknown[] = [];
  let buffer = '';
  for (const chunk of chunks) {
    buffer += decoder.decode(chunk, { stream: true });
    let start = 0;
    for (let newline = buffer.indexOf('\n'); newline >= 0; newline = buffer.indexOf('\n', start)) {
      events.push(JSON.parse(buffer.slice(start, newline)));
      start = newline + 1;
    }
    buffer = buffer.slice(start);
  }
  return events;
}

async function protobufEvents(chunks: readonly Uint8Array[], filter: FieldFilter | undefined): Promise<unknown[]> {
  const events: unknown[] = [];
  for await (const event of decodeWatchStream(ReadableStream.from(chunks), { resource: 'pods', filter })) {
    events.push(event);
  }
  return events;
}

/** Median milliseconds of each contender over `rounds` rounds after a warm-up, contenders taking turns. */
async function measureAll(contenders: Readonly<Record<string, () => unknown>>): Promise<Record<string, number>> {
  const times = new Map(Object.keys(contenders).map((name) => [name, [] as number[]]));
  for (let round = -5; round < rounds; round++) {
    for (const [name, run] of Object.entries(contenders)) {
      const start = process.hrtime.bigint();
      await run();
      if (round >= 0) {
        times.get(name)?.push(Number(process.hrtime.bigint() - start) / 1e6);
      }
    }
  }
  const median = (values: number[]): number =>
    values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
  return Object.fromEntries([...times].map(([name, values]) => [name, median(values)]));
}

const vector = await goldenPodList(pods);
const items = (JSON.parse(vector.json) as { items: unknown[] }).items;
const jsonStream = Buffer.from(items.map((pod) => `${JSON.stringify({ type: 'MODIFIED', object: pod })}\n`).join(''));
const frames = podsOf(Buffer.from(vector.protobuf, 'base64')).map((pod) =>
  watchFrame('MODIFIED', envelope('v1', 'Pod', pod)),
);
const protobufStream = Buffer.concat(frames);
const withoutManagedFields = compileFieldFilter('Pod', ['metadata.managedFields']);
const fromJson = jsonEvents(chunked(jsonStream)) as { object: { kind?: string; apiVersion?: string } }[];
const fromProtobuf = (await protobufEvents(chunked(protobufStream), undefined)) as typeof fromJson;
// A list's items have no kind and apiVersion; a watch event's object has them.
const typed = fromJson.map((event) => ({ ...event, object: { kind: 'Pod', apiVersion: 'v1', ...event.object } }));
if (!isDeepStrictEqual(typed, fromProtobuf)) {
  throw new Error('the protobuf watch events differ from the JSON ones');
}
const results = await measureAll({
  'JSON lines: TextDecoder + JSON.parse': () => jsonEvents(chunked(jsonStream)),
  'protobuf frames: decodeWatchStream': () => protobufEvents(chunked(protobufStream), undefined),
  'protobuf frames, managedFields skipped': () => protobufEvents(chunked(protobufStream), withoutManagedFields),
});
console.log(
  `${String(frames.length)} MODIFIED pod events: protobuf ${String(protobufStream.length)} bytes, JSON ${String(jsonStream.length)} bytes, chunks of ${String(CHUNK_BYTES)} bytes`,
);
for (const [name, ms] of Object.entries(results)) {
  console.log(`  ${name.padEnd(40)} ${ms.toFixed(2)} ms (median of ${String(rounds)}, contenders interleaved)`);
}
