/**
 * The openkruise contender end to end: kruise-manager installed from an OpenKruise checkout serves the
 * scenario, and its own pod webhook injects the SidecarSet's container. Skipped where the binary or
 * the checkout is not there (tools/bench/README.md says how to get both); how fast anything is,
 * is not asserted.
 */
import { describe, expect, it } from 'vitest';

import { fileUsable, missingOpenKruisePaths, resolveOpenKruisePaths } from '../../src/contenders/openkruise-paths.ts';
import { bench } from '../support/bench-run.ts';

const missing = missingOpenKruisePaths(resolveOpenKruisePaths({}, process.env), fileUsable);

describe.skipIf(missing !== undefined)('npm run bench -- --contender openkruise', () => {
  it('sidecarset-scale, 30 pods: kruise-manager scales the CloneSet out without, then with a SidecarSet, every pod of the second injected by its own webhook', async () => {
    const run = await bench(['sidecarset-scale', '--pods', '30', '--contender', 'openkruise']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.result.results.map((result) => [result.contender.name, result.contender.kind, result.phase])).toEqual([
      ['openkruise (no SidecarSet)', 'openkruise', 'no SidecarSet'],
      ['openkruise (SidecarSet)', 'openkruise', 'SidecarSet'],
    ]);
    for (const result of run.result.results) {
      expect(result.error).toBeUndefined();
      expect(result.completed).toBe(true);
      expect(result.readySeconds).toBeGreaterThan(0);
      expect(result.process.peakRssBytes).toBeGreaterThan(10 * 1024 * 1024);
      // A Go process: no Node.js heap or event loop to report, and the table says so with a dash.
      expect(result.metrics.peakHeapUsedBytes).toBeUndefined();
      expect(result.metrics.eventLoopDelayP99Seconds).toBeUndefined();
      expect(result.metrics.reconciles).toBeGreaterThan(0);
      // Every pod create went through its mpod.kb.io, seen by its server and by the API server under that name.
      expect(result.injection?.webhookLatency.count).toBeGreaterThanOrEqual(30);
      expect(result.injection?.apiServerAdmission?.count).toBeGreaterThanOrEqual(30);
    }
    expect(run.result.results[0]?.injection).toMatchObject({
      sidecarSet: false,
      podsWithSidecar: 0,
      podsWithoutSidecar: 30,
    });
    expect(run.result.results[1]?.injection).toMatchObject({
      sidecarSet: true,
      podsWithSidecar: 30,
      podsWithoutSidecar: 0,
    });
    expect(run.stdout).toMatch(
      /\| openkruise \(SidecarSet\) \| yes \| [^|]+ \| [^|]+ \| [^|]+ \| [^|]+ \| [^|]+ \| [^|]+ \| – \|/,
    );
  });
});
