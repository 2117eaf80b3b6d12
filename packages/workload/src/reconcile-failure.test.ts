import { describe, expect, it } from 'vitest';

import { createLogger } from '@kruise-ts/controller-runtime';

import { asError, logFailure } from './reconcile-failure.ts';

describe('asError', () => {
  it.each([
    { thrown: new Error('boom'), message: 'boom', same: true },
    { thrown: 'text', message: 'text', same: false },
    { thrown: 42, message: '42', same: false },
  ])('$thrown ⇒ an Error saying "$message"', ({ thrown, message, same }) => {
    const error = asError(thrown);
    expect(error.message).toBe(message);
    expect(error === thrown).toBe(same);
  });
});

describe('logFailure', () => {
  it.each([
    { aborted: false, logged: 1 },
    { aborted: true, logged: 0 },
  ])('aborted=$aborted ⇒ $logged error lines', ({ aborted, logged }) => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'error', destination: { write: (line: string) => lines.push(line) } });
    const controller = new AbortController();
    if (aborted) {
      controller.abort();
    }
    logFailure({ logger, signal: controller.signal }, new Error('boom'), 'Scaling failed');
    expect(lines).toHaveLength(logged);
  });
});
