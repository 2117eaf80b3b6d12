import { describe, expect, it } from 'vitest';

import type { ParsedObject } from '@kruise-ts/workload';

import { admissionParser } from './admission-parser.ts';

interface Thing {
  readonly size: number;
}

const readThing = (object: Thing): ParsedObject<Thing> =>
  typeof object.size === 'number' ? { kind: 'valid', object: { size: object.size + 1 } } : { kind: 'invalid', message: 'spec.size: Invalid input: expected number' };

describe('admissionParser', () => {
  const parse = admissionParser<Thing>('Thing', readThing);

  it.each([['a string', 'x'], ['null', null], ['an array', [1]], ['a number', 7]])('refuses %s before the parser sees it', (_what, object) => {
    expect(parse(object)).toEqual({ ok: false, message: 'the request carries no Thing object' });
  });

  it("gives the parser's value (defaults applied) or its message", () => {
    expect(parse({ size: 1 })).toEqual({ ok: true, value: { size: 2 } });
    expect(parse({ size: 'big' })).toEqual({ ok: false, message: 'spec.size: Invalid input: expected number' });
  });
});
