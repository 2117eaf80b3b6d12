import { describe, expect, it } from 'vitest';

import { sidecarSetSpecSchema } from '@kruise-ts/api';

import { scopedNamespace } from './scoped-namespace.ts';

const selector = { matchLabels: { app: 'web' } };

describe('scopedNamespace', () => {
  it.each([
    ['v1alpha1 namespace', { selector, namespace: 'team-a' }, 'team-a'],
    [
      'v1beta1 selector of one namespace by name',
      { selector, namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'team-a' } } },
      'team-a',
    ],
    ['a selector on another label', { selector, namespaceSelector: { matchLabels: { team: 'a' } } }, ''],
    [
      'a name selector with more labels',
      { selector, namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'a', team: 'a' } } },
      '',
    ],
    [
      'a name selector with expressions',
      {
        selector,
        namespaceSelector: {
          matchLabels: { 'kubernetes.io/metadata.name': 'a' },
          matchExpressions: [{ key: 'x', operator: 'Exists' as const }],
        },
      },
      '',
    ],
    ['neither', { selector }, ''],
    ['an empty namespace', { selector, namespace: '' }, ''],
  ])('%s', (_case, spec, expected) => {
    expect(scopedNamespace(sidecarSetSpecSchema.parse({ containers: [{ name: 'c', image: 'i' }], ...spec }))).toBe(
      expected,
    );
  });
});
