import { describe, expect, it } from 'vitest';

import { crdMetaOf } from '../crd/schema-metadata.ts';
import type { IntOrString } from './int-or-string.ts';
import {
  intOrPercentSchema,
  intOrStringSchema,
  PERCENT_AT_MOST_100_PATTERN,
  PERCENT_PATTERN,
  parseIntOrPercent,
  scaledValueFromIntOrPercent,
} from './int-or-string.ts';

describe('intOrStringSchema', () => {
  it.each<IntOrString>([0, 5, -3, '20%', 'anything'])('accepts %j unchanged', (value) => {
    expect(intOrStringSchema.parse(value)).toBe(value);
  });

  it.each([1.5, 2 ** 31, true, null, {}])('rejects %j', (value) => {
    expect(intOrStringSchema.safeParse(value).success).toBe(false);
  });
});

describe('percentage patterns (the regexes the CEL rules use; RE2 and JavaScript agree on them)', () => {
  const percent = new RegExp(PERCENT_PATTERN);
  const atMost100 = new RegExp(PERCENT_AT_MOST_100_PATTERN);
  it.each([
    { value: '0%', any: true, upTo100: true },
    { value: '20%', any: true, upTo100: true },
    { value: '12.5%', any: true, upTo100: true },
    { value: '100%', any: true, upTo100: true },
    { value: '100.0%', any: true, upTo100: true },
    { value: '007%', any: true, upTo100: true },
    { value: '100.5%', any: true, upTo100: false },
    { value: '150%', any: true, upTo100: false },
    { value: '5', any: false, upTo100: false },
    { value: '-5%', any: false, upTo100: false },
    { value: '+5%', any: false, upTo100: false },
    { value: '1e1%', any: false, upTo100: false },
    { value: ' 5%', any: false, upTo100: false },
    { value: '5.%', any: false, upTo100: false },
    { value: '.5%', any: false, upTo100: false },
    { value: '%', any: false, upTo100: false },
    { value: '', any: false, upTo100: false },
  ])('$value: percentage $any, at most 100% $upTo100', ({ value, any, upTo100 }) => {
    expect(percent.test(value)).toBe(any);
    expect(atMost100.test(value)).toBe(upTo100);
  });
});

describe('intOrPercentSchema', () => {
  it('attaches a CEL rule whose message names the field and shows the value', () => {
    const schema = intOrPercentSchema({
      path: 'spec.updateStrategy.partition',
      description: 'd',
      atMost100Percent: true,
    });
    const [validation] = crdMetaOf(schema).validations ?? [];
    expect(validation?.rule).toBe(`type(self) == int ? self >= 0 : self.matches('${PERCENT_AT_MOST_100_PATTERN}')`);
    expect(validation?.messageExpression).toContain(
      "'spec.updateStrategy.partition: must be a non-negative integer or a percentage from",
    );
  });

  it('does not add the rule to the shared int-or-string schema', () => {
    intOrPercentSchema({ path: 'spec.x', description: 'd' });
    expect(crdMetaOf(intOrStringSchema).validations).toBeUndefined();
  });
});

describe('parseIntOrPercent', () => {
  it.each([
    { value: 3, parsed: { kind: 'int', value: 3 } },
    { value: '25%', parsed: { kind: 'percent', value: 25 } },
    { value: '12.5%', parsed: { kind: 'percent', value: 12.5 } },
    { value: '5', parsed: undefined },
    { value: 'x%', parsed: undefined },
  ])('$value', ({ value, parsed }) => {
    expect(parseIntOrPercent(value)).toEqual(parsed);
  });
});

describe('scaledValueFromIntOrPercent', () => {
  it.each([
    { value: 4, total: 10, roundUp: true, expected: 4 },
    { value: '20%', total: 10, roundUp: true, expected: 2 },
    { value: '15%', total: 10, roundUp: true, expected: 2 },
    { value: '15%', total: 10, roundUp: false, expected: 1 },
    { value: '12.5%', total: 10, roundUp: true, expected: 2 },
    { value: '12.5%', total: 10, roundUp: false, expected: 1 },
    { value: '99%', total: 5, roundUp: true, expected: 5 },
    { value: '0.5%', total: 3, roundUp: true, expected: 1 },
    { value: '10%', total: 0, roundUp: true, expected: 0 },
  ])('$value of $total (round up $roundUp) is $expected', ({ value, total, roundUp, expected }) => {
    expect(scaledValueFromIntOrPercent({ value, total, roundUp })).toBe(expected);
  });

  it('throws on a value that is neither an integer nor a percentage', () => {
    expect(() => scaledValueFromIntOrPercent({ value: '5', total: 10, roundUp: true })).toThrow(
      'invalid integer or percentage: "5"',
    );
  });
});
