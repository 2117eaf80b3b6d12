import { describe, expect, it } from 'vitest';

import { realClock } from './clock.ts';

describe('realClock', () => {
  it('reads epoch milliseconds that never run backwards', () => {
    const first = realClock.now();
    const second = realClock.now();
    expect(second).toBeGreaterThanOrEqual(first);
    expect(Math.abs(first - Date.now())).toBeLessThan(60_000);
  });

  it('creates unref()ed timers so a pending timer never keeps the process alive', () => {
    const handle = realClock.setTimeout(() => undefined, 60_000);
    try {
      expect((handle as unknown as NodeJS.Timeout).hasRef()).toBe(false);
    } finally {
      realClock.clearTimeout(handle);
    }
  });
});
