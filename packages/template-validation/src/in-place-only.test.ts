import { describe, expect, it } from 'vitest';

import { inPlaceOnlyViolations } from './in-place-only.ts';

const spec = (containers: object[], extra: object = {}): object => ({ containers, ...extra });
const main = { name: 'main', image: 'nginx:1.25' };

describe('inPlaceOnlyViolations (OpenKruise: only replace of /containers/<n>/image)', () => {
  it.each([
    ['an image change', spec([main]), spec([{ ...main, image: 'nginx:1.27' }]), undefined],
    [
      'two image changes',
      spec([main, { name: 'b', image: 'b:1' }]),
      spec([
        { ...main, image: 'x' },
        { name: 'b', image: 'b:2' },
      ]),
      undefined,
    ],
    ['no change', spec([main]), spec([main]), undefined],
    ['an env added', spec([main]), spec([{ ...main, env: [{ name: 'A', value: '1' }] }]), 'add /containers/0/env'],
    [
      'an env value changed',
      spec([{ ...main, env: [{ name: 'A', value: '1' }] }]),
      spec([{ ...main, env: [{ name: 'A', value: '2' }] }]),
      'replace /containers/0/env/0/value',
    ],
    ['a container added', spec([main]), spec([main, { name: 'b', image: 'b' }]), 'add /containers/1'],
    ['a container removed', spec([main, { name: 'b', image: 'b' }]), spec([main]), 'remove /containers/1'],
    ['a pod-level field', spec([main]), spec([main], { nodeSelector: { a: 'b' } }), 'add /nodeSelector'],
    ['an image added where none was', spec([{ name: 'main' }]), spec([main]), 'add /containers/0/image'],
  ] as const)('%s', (...row) => {
    const [, oldSpec, newSpec, found] = row;
    const errors = inPlaceOnlyViolations(oldSpec, newSpec, 'spec.template.spec');
    if (found === undefined) {
      expect(errors).toEqual([]);
    } else {
      expect(errors).toHaveLength(1);
      expect(errors[0]?.field).toBe('spec.template.spec');
      expect(errors[0]?.message).toContain(
        `Forbidden: only allowed to update images in spec for InPlaceOnly, but found ${found}`,
      );
    }
  });

  it('counts further changes after the first', () => {
    const errors = inPlaceOnlyViolations(
      spec([main]),
      spec([{ ...main, env: [], args: ['x'] }], { hostname: 'h' }),
      'spec.template.spec',
    );
    expect(errors[0]?.message).toMatch(/\(and 2 more\)$/);
  });
});
