import { describe, expect, it } from 'vitest';

import { mergePatchBetween, rollbackPatch, withoutNulls } from './template-patch.ts';

describe('withoutNulls', () => {
  it.each([
    [{ a: null, b: 1 }, { b: 1 }],
    [{ metadata: { creationTimestamp: null, labels: { app: 'web' } } }, { metadata: { labels: { app: 'web' } } }],
    [{ list: [{ name: 'x', service: null }, null, 'y'] }, { list: [{ name: 'x' }, null, 'y'] }],
    ['text', 'text'],
    [null, null],
  ])('%j → %j', (value, expected) => {
    expect(withoutNulls(value)).toEqual(expected);
  });
});

describe('mergePatchBetween (RFC 7386)', () => {
  it.each([
    {
      name: 'nothing for equal values',
      current: { a: 1, b: { c: [1, 2] } },
      target: { a: 1, b: { c: [1, 2] } },
      expected: {},
    },
    { name: 'a changed scalar', current: { a: 1 }, target: { a: 2 }, expected: { a: 2 } },
    { name: 'an added member', current: { a: 1 }, target: { a: 1, b: { c: 'x' } }, expected: { b: { c: 'x' } } },
    {
      name: 'null for a removed member, at any depth',
      current: { a: 1, m: { keep: 'k', drop: 'd' } },
      target: { m: { keep: 'k' } },
      expected: { a: null, m: { drop: null } },
    },
    {
      name: 'a whole list when any element differs',
      current: { c: [{ name: 'n', image: 'a' }, { name: 's' }] },
      target: { c: [{ name: 'n', image: 'b' }] },
      expected: { c: [{ name: 'n', image: 'b' }] },
    },
    { name: 'an object over a scalar', current: { a: 'x' }, target: { a: { b: 1 } }, expected: { a: { b: 1 } } },
    { name: 'a scalar over an object', current: { a: { b: 1 } }, target: { a: 'x' }, expected: { a: 'x' } },
    { name: 'everything when current is no object', current: undefined, target: { a: 1 }, expected: { a: 1 } },
  ])('$name', ({ current, target, expected }) => {
    expect(mergePatchBetween(current, target)).toEqual(expected);
  });
});

describe('rollbackPatch', () => {
  it("patches the template to the revision's, with the resourceVersion as precondition, nulls of Go's encoding dropped", () => {
    const current = {
      metadata: {
        labels: { app: 'web' },
        annotations: { 'kubectl.kubernetes.io/restartedAt': '2026-01-01T00:00:00Z' },
      },
      spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] },
    };
    const target = {
      metadata: { creationTimestamp: null, labels: { app: 'web' } },
      spec: { containers: [{ name: 'nginx', image: 'nginx:1.25', resources: {} }] },
    };
    expect(rollbackPatch({ resourceVersion: '42', current, target })).toEqual({
      metadata: { resourceVersion: '42' },
      spec: {
        template: {
          metadata: { annotations: null },
          spec: { containers: [{ name: 'nginx', image: 'nginx:1.25', resources: {} }] },
        },
      },
    });
  });
});
