/**
 * Micro-benchmark (not a test): a PodList of realistic pods (test/golden-go `bench`) decoded from
 * protobuf against JSON.parse of the same list's JSON, as the API server sends both.
 *
 *   npm run bench:decode -w @kruise-ts/kube-protobuf [-- <pods> <rounds>]
 */
import { isDeepStrictEqual } from 'node:util';

import { decodeObject } from '../../src/index.ts';
import { goldenPodList } from './golden-pod-list.ts';

const pods = Number(process.argv[2] ?? '1000');
const rounds = Number(process.argv[3] ?? '40');

/** Median milliseconds of `rounds` runs after a warm-up. */
function measure(run: () => unknown): number {
  for (let i = 0; i < 5; i++) {
    run();
  }
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = process.hrtime.bigint();
    run();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? Number.NaN;
}

const vector = await goldenPodList(pods);
const protobuf = Buffer.from(vector.protobuf, 'base64');
const jsonBytes = Buffer.from(vector.json, 'utf8');
if (!isDeepStrictEqual(decodeObject(protobuf), JSON.parse(vector.json))) {
  throw new Error('the decoded list differs from JSON.parse of its JSON');
}
const results = {
  'protobuf: decodeObject(bytes)': measure(() => decodeObject(protobuf)),
  'JSON: JSON.parse(bytes.toString())': measure(() => JSON.parse(jsonBytes.toString('utf8'))),
  'JSON: JSON.parse(text) alone': measure(() => JSON.parse(vector.json)),
};
console.log(`PodList of ${pods} pods: protobuf ${protobuf.length} bytes, JSON ${jsonBytes.length} bytes`);
for (const [name, ms] of Object.entries(results)) {
  console.log(`  ${name.padEnd(36)} ${ms.toFixed(2)} ms (median of ${rounds})`);
}
