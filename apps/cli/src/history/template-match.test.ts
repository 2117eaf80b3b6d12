import { describe, expect, it } from 'vitest';

import { newControllerRevision } from '@kruise-ts/revision';

import { templateMatches } from './template-match.ts';

const owner = {
  name: 'web',
  namespace: 'default',
  uid: 'web-uid',
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
};
const stored = newControllerRevision({
  owner,
  template: {
    metadata: { labels: { app: 'web' } },
    spec: { containers: [{ name: 'nginx', image: 'nginx:1.25', resources: { limits: { cpu: '1000m' } } }] },
  },
  collisionCount: 0,
  revision: 1,
});

describe('templateMatches: OpenKruise revision equality', () => {
  it.each([
    [
      'the same template',
      {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:1.25', resources: { limits: { cpu: '1000m' } } }] },
      },
      true,
    ],
    [
      "the revision's own (Go) form",
      {
        metadata: { creationTimestamp: null, labels: { app: 'web' } },
        spec: { containers: [{ image: 'nginx:1.25', name: 'nginx', resources: { limits: { cpu: '1' } } }] },
      },
      true,
    ],
    [
      'another image',
      {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:1.26', resources: { limits: { cpu: '1' } } }] },
      },
      false,
    ],
    [
      'another annotation',
      {
        metadata: { labels: { app: 'web' }, annotations: { a: 'b' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:1.25', resources: { limits: { cpu: '1' } } }] },
      },
      false,
    ],
    [
      'a template Go cannot decode',
      { spec: { containers: [{ name: 'nginx', image: 'nginx:1.25', ports: [{ containerPort: 'eighty' }] }] } },
      false,
    ],
  ])('%s: %s', (_name, template, expected) => {
    expect(templateMatches(template, stored)).toBe(expected);
  });
});
