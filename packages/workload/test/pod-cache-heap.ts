/**
 * Heap per cached pod: decodes N watch events of a realistic pod (the fixture, as the API server sends
 * it, managedFields and all, with its name, uid, IPs and times varied per pod), caches each as the
 * informer does (managedFields stripped, then `trimPodForCache`) and prints the heap they hold after a
 * full garbage collection. A tool for choosing what the pod cache keeps, not a test:
 *
 *   node --expose-gc --conditions=@kruise-ts/source packages/workload/test/pod-cache-heap.ts [pods] [raw|trim]
 */
import { readFileSync } from 'node:fs';

import type { Pod } from '@kruise-ts/api';
import { objectKey, stripManagedFields } from '@kruise-ts/controller-runtime';

import { trimPodForCache } from '../src/cache-transforms.ts';

const template = readFileSync(new URL('fixtures/pod-with-managed-fields.json', import.meta.url), 'utf8');
const pods = Number(process.argv[2] ?? 5000);
const mode = process.argv[3] === 'raw' ? 'raw' : 'trim';
const { gc } = globalThis as { gc?: () => void };
if (gc === undefined) {
  throw new Error('run with --expose-gc');
}

function hex(i: number, length: number): string {
  return (Math.imul(i + 1, 2654435761) >>> 0).toString(16).padStart(8, '0').repeat(8).slice(0, length);
}

/** The watch event of the i-th pod: what varies between pods of 100 CloneSets on 4 nodes, created over a few minutes. */
function watchEvent(i: number): string {
  const pod = template
    .replaceAll('26d6q', hex(i, 5))
    .replaceAll('abd52ced-810b-4eb9-b837-1218aca60672', `${hex(i, 8)}-810b-4eb9-b837-${hex(i + 7, 12)}`)
    .replaceAll('"457"', `"${String(1000 + i)}"`)
    .replaceAll('4096c85c5ca8c19d068d14e0f567682a7b017f60c4f3252f48480e50b4d7661a', hex(i + 3, 64))
    .replaceAll('bench-000', `bench-${String(i % 100).padStart(3, '0')}`)
    .replaceAll('kwok-node-0', `kwok-node-${String(i % 4)}`)
    .replaceAll('grtz5', hex(i + 1, 5))
    .replaceAll('22:19:07Z', `22:${String(10 + (i % 50)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}Z`);
  return `{"type":"ADDED","object":${pod}}`;
}

const cache = new Map<string, Pod>();
gc();
const before = process.memoryUsage().heapUsed;
for (let i = 0; i < pods; i++) {
  const { object } = JSON.parse(watchEvent(i)) as { object: Pod };
  const cached = mode === 'raw' ? object : trimPodForCache(stripManagedFields(object));
  cache.set(objectKey(cached), cached);
}
gc();
const bytes = process.memoryUsage().heapUsed - before;
console.log(
  JSON.stringify({
    mode,
    pods: cache.size,
    bytesPerPod: Math.round(bytes / pods),
    mibPer1000Pods: Number((((bytes / pods) * 1000) / 2 ** 20).toFixed(2)),
  }),
);
