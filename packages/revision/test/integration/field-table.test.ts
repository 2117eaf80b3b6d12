/**
 * The committed field table must be what tools/gen-field-table generates now: a changed generator or
 * k8s.io/api version without regenerating (or a hand edit) fails here.
 */
import { readFile } from 'node:fs/promises';

import { describe, expect, it } from 'vitest';

import { FIELD_TABLE_K8S_API_VERSION } from '../../src/index.ts';
import { buildGoProgram, runGoProgram } from './go-programs.ts';

const TABLE = new URL('../../src/internal/pod-template-fields.generated.ts', import.meta.url);

describe('the generated field table', () => {
  it('equals a fresh generation from the Go types', async () => {
    const fresh = await runGoProgram(await buildGoProgram('genFieldTable'));
    const committed = await readFile(TABLE, 'utf8');
    expect(
      committed,
      'regenerate: cd packages/revision/tools/gen-field-table && GOTOOLCHAIN=local go run . > ../../src/internal/pod-template-fields.generated.ts',
    ).toBe(fresh);
  }, 600_000);

  it('describes k8s.io/api v0.32.10, the version OpenKruise v1.9.0 is built with, as the golden program does', async () => {
    expect(FIELD_TABLE_K8S_API_VERSION).toBe('v0.32.10');
    for (const module of ['../../tools/gen-field-table/go.mod', '../golden-go/go.mod']) {
      const goMod = await readFile(new URL(module, import.meta.url), 'utf8');
      expect(goMod, module).toMatch(new RegExp(`^\\s*k8s\\.io/api ${FIELD_TABLE_K8S_API_VERSION}$`, 'm'));
      expect(goMod, module).toMatch(new RegExp(`^\\s*k8s\\.io/apimachinery ${FIELD_TABLE_K8S_API_VERSION}$`, 'm'));
    }
  });
});
