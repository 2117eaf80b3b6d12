/**
 * The cached pod and node are the same whether read as JSON or as protobuf decoded with the cache's
 * field filter: for kube-protobuf's golden corpus (objects encoded by Kubernetes' own Go serializer,
 * with Go's JSON of each), `trim(JSON.parse(json))` deep-equals `trim(decodeObject(protobuf, { filter }))`.
 */
import { fileURLToPath } from 'node:url';

import type { Node, Pod } from '@kruise-ts/api';
import { applyFieldFilter, decodeObject } from '@kruise-ts/kube-protobuf';
import type { FieldFilter } from '@kruise-ts/kube-protobuf';
import { buildGoProgram, runGoProgram } from '@kruise-ts/local-cluster/testing';
import { describe, expect, it } from 'vitest';

import {
  NODE_CACHE_FIELD_FILTER,
  POD_CACHE_FIELD_FILTER,
  trimNodeForCache,
  trimPodForCache,
} from '../../src/cache-transforms.ts';

interface GoldenVector {
  readonly name: string;
  readonly protobuf: string;
  readonly json: string;
}

// The same program and binary cache entry as kube-protobuf's golden test.
const program = await buildGoProgram({
  name: 'kube-protobuf-golden-go',
  moduleDir: fileURLToPath(new URL('../../../kube-protobuf/test/golden-go/', import.meta.url)),
  binary: 'golden-go',
  logPrefix: 'kube-protobuf',
});
const vectors = JSON.parse(await runGoProgram(program)) as GoldenVector[];

interface Case {
  readonly filter: FieldFilter;
  readonly trim: (object: never) => unknown;
}

const CASES: Readonly<Record<string, Case>> = {
  Pod: { filter: POD_CACHE_FIELD_FILTER, trim: (pod: Pod) => trimPodForCache(pod) },
  Node: { filter: NODE_CACHE_FIELD_FILTER, trim: (node: Node) => trimNodeForCache(node) },
};

/** The objects of a vector of the kind (its items, for a list of it). */
function objectsOf(object: Record<string, unknown>, kind: string): Record<string, unknown>[] {
  if (object['kind'] === kind) {
    return [object];
  }
  return object['kind'] === `${kind}List` ? (object['items'] as Record<string, unknown>[]) : [];
}

const cases = vectors.flatMap((vector) =>
  Object.entries(CASES)
    .filter(([kind]) => objectsOf(JSON.parse(vector.json) as Record<string, unknown>, kind).length > 0)
    .map(([kind, filterCase]) => ({ name: `${kind}: ${vector.name}`, kind, ...filterCase, vector })),
);

describe('cache transforms: JSON and filtered protobuf give the same cached object', () => {
  it('covers pods and nodes of the corpus, hand-written and fuzzed', () => {
    const names = cases.map(({ name }) => name);
    expect(names.filter((name) => name.startsWith('Pod: ')).length).toBeGreaterThan(20);
    expect(names.filter((name) => name.startsWith('Node: ')).length).toBeGreaterThan(5);
    expect(names.some((name) => name.includes('fuzzed'))).toBe(true);
  });

  it.each(cases)('$name', ({ kind, filter, trim, vector }) => {
    const fromJson = objectsOf(JSON.parse(vector.json) as Record<string, unknown>, kind);
    const decoded = decodeObject(Buffer.from(vector.protobuf, 'base64'), { filter });
    const fromProtobuf = objectsOf(decoded, kind);
    // The filter alone: what the decoder skips is what applying it to the JSON drops.
    expect(fromProtobuf).toStrictEqual(fromJson.map((object) => applyFieldFilter(object, filter)));
    expect(fromProtobuf.map((object) => trim(object as never))).toStrictEqual(
      fromJson.map((object) => trim(object as never)),
    );
  });
});
