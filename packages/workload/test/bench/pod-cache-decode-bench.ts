/**
 * Micro-benchmark (not a test): what a pod cache pays per list of 1,000 realistic pods (kube-protobuf's
 * golden-go `bench`), from the bytes to the cached pods: JSON.parse then the cache transform, against
 * protobuf decoded with the cache's field filter then the same transform; and the heap the cached
 * pods hold either way.
 *
 *   npm run bench:cache-decode -w @kruise-ts/workload [-- <pods> <rounds>]
 */
import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual, promisify } from 'node:util';
import { writeHeapSnapshot } from 'node:v8';

import type { Pod } from '@kruise-ts/api';
import { decodeObject } from '@kruise-ts/kube-protobuf';

import { POD_CACHE_FIELD_FILTER, trimPodForCache } from '../../src/cache-transforms.ts';

const pods = Number(process.argv[2] ?? '1000');
const rounds = Number(process.argv[3] ?? '40');

async function podList(): Promise<{ readonly protobuf: Buffer; readonly json: Buffer }> {
  const { stdout } = await promisify(execFile)('go', ['run', '.', 'bench', String(pods)], {
    cwd: fileURLToPath(new URL('../../../kube-protobuf/test/golden-go/', import.meta.url)),
    env: { ...process.env, GOTOOLCHAIN: 'local' },
    maxBuffer: 1024 * 1024 * 1024,
  });
  const [vector] = JSON.parse(stdout) as { protobuf: string; json: string }[];
  if (vector === undefined) {
    throw new Error('golden-go bench printed nothing');
  }
  return { protobuf: Buffer.from(vector.protobuf, 'base64'), json: Buffer.from(vector.json, 'utf8') };
}

/**
 * Median milliseconds of each contender over `rounds` rounds after a warm-up, the contenders taking
 * turns within a round, so that a change of the shared machine's load weighs on all of them alike.
 */
function measureAll(contenders: Readonly<Record<string, () => unknown>>): Record<string, number> {
  const entries = Object.entries(contenders);
  const times = new Map(entries.map(([name]) => [name, [] as number[]]));
  for (let round = -5; round < rounds; round++) {
    for (const [name, run] of entries) {
      const start = process.hrtime.bigint();
      run();
      if (round >= 0) {
        times.get(name)?.push(Number(process.hrtime.bigint() - start) / 1e6);
      }
    }
  }
  const median = (values: number[]): number =>
    values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
  return Object.fromEntries([...times].map(([name, values]) => [name, median(values)]));
}

/** The self sizes of every object of the heap, summed from a heap snapshot (which counts live objects only). */
function liveHeapBytes(): number {
  const file = writeHeapSnapshot(join(tmpdir(), `pod-cache-decode-${String(process.pid)}.heapsnapshot`));
  try {
    const snapshot = JSON.parse(readFileSync(file, 'utf8')) as HeapSnapshot;
    const fields = snapshot.snapshot.meta.node_fields;
    const selfSize = fields.indexOf('self_size');
    let total = 0;
    for (let index = selfSize; index < snapshot.nodes.length; index += fields.length) {
      total += snapshot.nodes[index] ?? 0;
    }
    return total;
  } finally {
    rmSync(file, { force: true });
  }
}

interface HeapSnapshot {
  readonly snapshot: { readonly meta: { readonly node_fields: readonly string[] } };
  readonly nodes: readonly number[];
}

/**
 * The heap the run's result holds: the live heap with the result kept, less the live heap once it
 * is let go. From heap snapshots, not `heapUsed`, which also counts garbage and free space that a
 * forced collection leaves and moves by a few hundred KB between runs.
 */
function retainedBytes(run: () => unknown): number {
  const kept: { result: unknown } = { result: run() };
  const withResult = liveHeapBytes();
  kept.result = undefined;
  return withResult - liveHeapBytes();
}

type PodList = { items: Pod[] };

const { protobuf, json } = await podList();
const viaJson = (): Pod[] => (JSON.parse(json.toString('utf8')) as PodList).items.map(trimPodForCache);
const viaProtobuf = (): Pod[] =>
  (decodeObject(protobuf, { filter: POD_CACHE_FIELD_FILTER }) as PodList).items.map(trimPodForCache);
if (!isDeepStrictEqual(viaJson(), viaProtobuf())) {
  throw new Error('the cached pods from protobuf differ from those from JSON');
}
const results = measureAll({
  'JSON: JSON.parse + trimPodForCache': viaJson,
  'protobuf: decode with filter + trimPodForCache': viaProtobuf,
  'protobuf: decode with filter alone': () => decodeObject(protobuf, { filter: POD_CACHE_FIELD_FILTER }),
  'protobuf: decode whole (no filter)': () => decodeObject(protobuf),
  'JSON: JSON.parse alone': () => JSON.parse(json.toString('utf8')) as unknown,
});
console.log(`PodList of ${pods} pods: protobuf ${protobuf.length} bytes, JSON ${json.length} bytes`);
for (const [name, ms] of Object.entries(results)) {
  console.log(`  ${name.padEnd(48)} ${ms.toFixed(2)} ms (median of ${rounds}, contenders interleaved)`);
}
const heap = { JSON: retainedBytes(viaJson), protobuf: retainedBytes(viaProtobuf) };
console.log(
  `  heap held by the cached pods: JSON ${heap.JSON} bytes, protobuf ${heap.protobuf} bytes (heap snapshots)`,
);
