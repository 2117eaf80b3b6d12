/**
 * Golden vectors: OpenKruise's own steps in Go (test/golden-go, built with k8s.io/api v0.32.10 as
 * OpenKruise v1.9.0 is) against revisionData and hashRevision, byte for byte, for every template in
 * golden-templates.ts. Both sides read the same JSON text, as both would read it from the API server.
 */
import { beforeAll, describe, expect, it } from 'vitest';

import { hashRevision, revisionData, TemplateDecodeError } from '../../src/index.ts';
import { buildGoProgram, runGoProgram } from './go-programs.ts';
import { GOLDEN_TEMPLATES } from './golden-templates.ts';

interface GoVector {
  readonly raw?: string;
  readonly hashes: readonly [string, string];
  readonly error?: string;
}

let vectors: readonly GoVector[] = [];

beforeAll(async () => {
  const binary = await buildGoProgram('goldenGo');
  const input = `[${GOLDEN_TEMPLATES.map((entry) => JSON.stringify(entry.template)).join(',')}]`;
  vectors = JSON.parse(await runGoProgram(binary, input)) as GoVector[];
}, 600_000);

describe('revision data and hash match OpenKruise byte for byte', () => {
  it('has at least 20 accepted templates and a vector for each', () => {
    expect(vectors).toHaveLength(GOLDEN_TEMPLATES.length);
    expect(GOLDEN_TEMPLATES.filter((entry) => entry.goRejects !== true).length).toBeGreaterThanOrEqual(20);
  });

  it.each(GOLDEN_TEMPLATES.map((entry, index) => ({ ...entry, index })))('$name', ({ template, goRejects, index }) => {
    const vector = vectors[index];
    const parsed = JSON.parse(JSON.stringify(template)) as Parameters<typeof revisionData>[0];
    if (goRejects === true) {
      expect(vector?.error).toBeTypeOf('string');
      expect(() => revisionData(parsed)).toThrow(TemplateDecodeError);
      return;
    }
    expect(vector?.error).toBeUndefined();
    const raw = revisionData(parsed);
    expect(raw).toBe(vector?.raw);
    expect([hashRevision(raw, 0), hashRevision(raw, 1)]).toEqual(vector?.hashes);
  });
});
