import { spawn } from 'node:child_process';
import { once } from 'node:events';

import { describe, expect, it } from 'vitest';

import { componentIdleFigures } from './component-cpu.ts';

describe('componentIdleFigures', () => {
  it("reads each live process's CPU per second over the window and its RSS at the end, leaving out the gone", async () => {
    // A busy child uses measurable CPU in the window; the test's own process is there for its RSS.
    const busy = spawn(process.execPath, ['-e', 'const end = Date.now() + 3000; while (Date.now() < end) {}'], {
      stdio: 'ignore',
    });
    try {
      const processes = [
        { name: 'busy', pid: busy.pid ?? -1 },
        { name: 'self', pid: process.pid },
        { name: 'gone', pid: 2 ** 22 + 1 },
      ];
      const { result, components } = await componentIdleFigures(
        processes,
        1,
        () =>
          new Promise<string>((resolve) => {
            setTimeout(() => {
              resolve('idle');
            }, 1000);
          }),
      );
      expect(result).toBe('idle');
      expect(Object.keys(components).sort()).toEqual(['busy', 'self']);
      expect(components['busy']?.cpuCores).toBeGreaterThan(0.3);
      expect(components['self']?.rssBytes).toBeGreaterThan(10 * 1024 * 1024);
    } finally {
      busy.kill();
      await once(busy, 'exit');
    }
  });
});
