import { setTimeout as sleep } from 'node:timers/promises';

import { describe, expect, it } from 'vitest';

import { requestSignal } from './request-signal.ts';

describe('requestSignal', () => {
  it('is aborted at once, with the reason, when a source already is', () => {
    const source = new AbortController();
    source.abort(new Error('closed'));
    const { signal } = requestSignal([undefined, source.signal], 1000);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toEqual(new Error('closed'));
  });

  it('follows the first source to abort, with its reason', () => {
    const first = new AbortController();
    const second = new AbortController();
    const { signal } = requestSignal([first.signal, second.signal], undefined);
    expect(signal.aborted).toBe(false);
    second.abort(new Error('shutting down'));
    first.abort(new Error('later'));
    expect(signal.reason).toEqual(new Error('shutting down'));
  });

  it('times out with a TimeoutError', async () => {
    const { signal } = requestSignal([new AbortController().signal], 10);
    await sleep(30);
    expect(signal.aborted).toBe(true);
    expect((signal.reason as DOMException).name).toBe('TimeoutError');
  });

  it('after release, neither a source nor the timeout aborts it', async () => {
    const source = new AbortController();
    const { signal, release } = requestSignal([source.signal], 10);
    release();
    source.abort(new Error('late'));
    await sleep(30);
    expect(signal.aborted).toBe(false);
  });
});
