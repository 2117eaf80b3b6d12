import { existsSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { PROCESS_ENTRIES, temporaryBundles } from './bundle-apps.ts';

describe('temporaryBundles', () => {
  it('builds a module for every process entry (and the extra ones) once per process, outside the repository', async () => {
    const files = await temporaryBundles({ extra: 'packages/bundle/src/index.ts' });
    expect(Object.keys(files).sort()).toEqual([...Object.keys(PROCESS_ENTRIES), 'extra'].sort());
    for (const file of Object.values(files)) {
      expect(existsSync(file), file).toBe(true);
    }
    expect(path.dirname(files['cloneset'] ?? '')).not.toContain('/dist');
    expect(await temporaryBundles({ extra: 'packages/bundle/src/index.ts' })).toBe(files);
  }, 60_000);
});
