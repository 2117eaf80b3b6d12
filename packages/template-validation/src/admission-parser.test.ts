import { describe, expect, it } from 'vitest';

import { convertObject } from '@kruise-ts/api';
import type { ParsedObject } from '@kruise-ts/workload';

import { admissionParser } from './admission-parser.ts';

interface Thing {
  readonly size: number;
}

const readThing = (object: Thing): ParsedObject<Thing> =>
  typeof object.size === 'number'
    ? { kind: 'valid', object: { size: object.size + 1 } }
    : { kind: 'invalid', message: 'spec.size: Invalid input: expected number' };

describe('admissionParser', () => {
  const parse = admissionParser<Thing>('Thing', readThing);

  it.each([
    ['a string', 'x'],
    ['null', null],
    ['an array', [1]],
    ['a number', 7],
  ])('refuses %s before the parser sees it', (_what, object) => {
    expect(parse(object)).toEqual({ ok: false, message: 'the request carries no Thing object' });
  });

  it("gives the parser's value (defaults applied) or its message", () => {
    expect(parse({ size: 1 })).toEqual({ ok: true, value: { size: 2 } });
    expect(parse({ size: 'big' })).toEqual({ ok: false, message: 'spec.size: Invalid input: expected number' });
  });

  describe('with readAs, for a kind served in several versions', () => {
    const seen: unknown[] = [];
    const readAsV1beta1 = admissionParser<{ readonly apiVersion: string }>(
      'StatefulSet',
      (object) => {
        seen.push(object);
        return { kind: 'valid', object };
      },
      'apps.kruise.io/v1beta1',
    );
    const v1alpha1 = {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'StatefulSet',
      metadata: { name: 'web' },
      spec: { replicas: 1 },
    };

    it('converts an object of another version into it, as the CRD conversion webhook would, before the parser sees it', () => {
      const converted = convertObject(v1alpha1, 'apps.kruise.io/v1beta1');
      expect(readAsV1beta1(v1alpha1)).toEqual({ ok: true, value: converted.ok ? converted.object : undefined });
      expect(seen.at(-1)).toMatchObject({ apiVersion: 'apps.kruise.io/v1beta1', spec: { replicas: 1 } });
      // The request's own object is not changed.
      expect(v1alpha1.apiVersion).toBe('apps.kruise.io/v1alpha1');
    });

    it('passes an object already in it as it is', () => {
      const object = { ...v1alpha1, apiVersion: 'apps.kruise.io/v1beta1' };
      readAsV1beta1(object);
      expect(seen.at(-1)).toBe(object);
    });

    it('refuses an object that cannot be converted, saying why', () => {
      expect(readAsV1beta1({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'Thing' })).toEqual({
        ok: false,
        message:
          'it cannot be converted to apps.kruise.io/v1beta1: cannot convert Thing from apps.kruise.io/v1alpha1 to apps.kruise.io/v1beta1: no such version of the kind',
      });
    });
  });
});
