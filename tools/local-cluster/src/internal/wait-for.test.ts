import { describe, expect, it } from 'vitest';

import { waitFor } from './wait-for.ts';

describe('waitFor', () => {
  it('returns the first value the probe gives', async () => {
    let calls = 0;
    const value = await waitFor(() => Promise.resolve(++calls === 3 ? 'done' : undefined), {
      description: 'three calls',
      intervalMs: 1,
    });
    expect([value, calls]).toEqual(['done', 3]);
  });

  it('names what never happened, the last error and the state read on timeout', async () => {
    const failing = waitFor(() => Promise.reject(new Error('connection refused')), {
      description: 'the pods ready',
      timeoutMs: 20,
      intervalMs: 1,
      state: () => Promise.resolve({ ready: 1, wanted: 2 }),
    });
    await expect(failing).rejects.toThrow(
      'timed out after 20ms waiting for the pods ready (last error: connection refused); state: {"ready":1,"wanted":2}',
    );
  });

  it('still times out when the state cannot be read', async () => {
    const failing = waitFor(() => Promise.resolve(false), {
      description: 'x',
      timeoutMs: 5,
      intervalMs: 1,
      state: () => Promise.reject(new Error('gone')),
    });
    await expect(failing).rejects.toThrow('waiting for x; state: unreadable (gone)');
  });
});
