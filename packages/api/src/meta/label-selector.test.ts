import { describe, expect, it } from 'vitest';

import { LABEL_KEY_PATTERN, LABEL_VALUE_PATTERN, labelSelectorSchema } from './label-selector.ts';

describe('label key and value patterns', () => {
  const key = new RegExp(LABEL_KEY_PATTERN);
  const value = new RegExp(LABEL_VALUE_PATTERN);

  it.each(['app', 'app.kubernetes.io/name', 'example.com/a_b-c.d', 'A1', `x/${'a'.repeat(63)}`])(
    'accepts the key %s',
    (text) => {
      expect(key.test(text)).toBe(true);
    },
  );

  it.each(['', 'bad key', '-app', 'app-', 'Example.com/app', 'a/b/c', `x/${'a'.repeat(64)}`, '/app'])(
    'rejects the key %j',
    (text) => {
      expect(key.test(text)).toBe(false);
    },
  );

  it.each(['', 'v1', 'a.b_c-d', 'A'])('accepts the value %j', (text) => {
    expect(value.test(text)).toBe(true);
  });

  it.each(['-v', 'v-', 'a b', 'a/b'])('rejects the value %j', (text) => {
    expect(value.test(text)).toBe(false);
  });
});

describe('labelSelectorSchema', () => {
  it('keeps a selector and fields it does not know unchanged', () => {
    const selector = {
      matchLabels: { app: 'sample' },
      matchExpressions: [{ key: 'tier', operator: 'In', values: ['web'], extra: 1 }],
      future: true,
    };
    expect(labelSelectorSchema.parse(selector)).toEqual(selector);
  });

  it('rejects an unknown operator', () => {
    expect(labelSelectorSchema.safeParse({ matchExpressions: [{ key: 'a', operator: 'Equals' }] }).success).toBe(false);
  });
});
