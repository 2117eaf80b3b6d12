import { describe, expect, it } from 'vitest';

import { chartProcessSettings, ourNodeCommand } from './our-processes.ts';

describe('how the benchmark starts our processes', () => {
  it("gives the bundles the chart's node flags and MALLOC_ARENA_MAX (charts/kruise-ts/values.yaml)", async () => {
    const settings = await chartProcessSettings();
    expect(settings.nodeFlags).toEqual(expect.arrayContaining([expect.stringMatching(/^--max-semi-space-size=\d+$/)]));
    expect(Number(settings.environment['MALLOC_ARENA_MAX'])).toBeGreaterThan(0);
  });

  it("runs the sources with Node.js's defaults and the GC hook, for comparison", async () => {
    const command = await ourNodeCommand('source', 'tools/launcher/src/cli.ts');
    expect(command).toMatch(
      /--expose-gc --import=".*gc-on-signal\.ts" --conditions=@kruise-ts\/source tools\/launcher\/src\/cli\.ts$/,
    );
    expect(command).not.toContain('--max-semi-space-size');
  });

  it('refuses an entrypoint that is not a process of the image', async () => {
    await expect(ourNodeCommand('bundle', 'apps/cloneset/src/controller.ts')).rejects.toThrow(
      'apps/cloneset/src/controller.ts is not a process entry of @kruise-ts/bundle',
    );
  });
});
