/**
 * Golden vectors from Go (test/golden-go): Kubernetes' own protobuf serializer's bytes for a corpus of
 * pods, nodes, claims, ControllerRevisions, namespaces, events, Statuses and their lists (hand-written
 * with every field the controllers read and the edge values, with unknown fields added, and filled at
 * random), decoded here, must deep-equal JSON.parse of Go's JSON of the same object.
 */
import { describe, expect, it } from 'vitest';

import { decodeObject } from '../../src/index.ts';
import { GOLDEN_SAMPLE } from '../golden-sample.ts';
import { buildGoProgram, runGoProgram } from './go-programs.ts';
import type { GoldenVector } from './go-programs.ts';

const program = await buildGoProgram('goldenGo');
const vectors = JSON.parse(await runGoProgram(program)) as GoldenVector[];

describe('protobuf decoded against Go', () => {
  it('covers the corpus', () => {
    const names = vectors.map((vector) => vector.name);
    expect(names.length).toBeGreaterThan(100);
    for (const prefix of [
      'pod:',
      'node:',
      'pvc:',
      'controllerrevision:',
      'namespace:',
      'event:',
      'status:',
      'unknown fields:',
      'fuzzed',
    ]) {
      expect(
        names.some((name) => name.startsWith(prefix)),
        prefix,
      ).toBe(true);
    }
  });

  it.each(vectors.map((vector) => [vector.name, vector] as const))('%s', (_name, vector) => {
    const decoded = decodeObject(Buffer.from(vector.protobuf, 'base64'), { resource: vector.name });
    expect(decoded).toStrictEqual(JSON.parse(vector.json));
  });

  it("has the unit tests' checked-in sample as the Go program writes it now", async () => {
    const sample = JSON.parse(await runGoProgram(program, '', ['sample'])) as GoldenVector[];
    expect(
      GOLDEN_SAMPLE,
      'regenerate: cd packages/kube-protobuf/test/golden-go && GOTOOLCHAIN=local go run . sample > ../fixtures/golden-sample.json && npx prettier --write ../fixtures',
    ).toStrictEqual(sample);
  });
});
