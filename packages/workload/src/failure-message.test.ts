import { describe, expect, it } from 'vitest';

import { errorMessage, stableMessage } from './failure-message.ts';

describe('errorMessage', () => {
  it.each([
    [new Error('boom'), 'boom'],
    ['plain', 'plain'],
    [42, '42'],
  ])('%j ⇒ %s', (error, expected) => {
    expect(errorMessage(error)).toBe(expected);
  });
});

describe('stableMessage', () => {
  it('replaces the object name so that two attempts read the same', () => {
    const first = stableMessage('Pod "web-x7k2p" is invalid: spec.containers[0].name: Invalid value: "Web"', {
      name: 'web-x7k2p',
      prefix: 'web-',
    });
    const second = stableMessage('Pod "web-a1b2c" is invalid: spec.containers[0].name: Invalid value: "Web"', {
      name: 'web-a1b2c',
      prefix: 'web-',
    });
    expect(first).toBe('Pod "web-" is invalid: spec.containers[0].name: Invalid value: "Web"');
    expect(second).toBe(first);
  });

  it('leaves the message alone without a name', () => {
    expect(stableMessage('forbidden', { name: '', prefix: 'web-' })).toBe('forbidden');
  });
});
