import { describe, expect, it } from 'vitest';

import { updatePriorityStrategySchema } from './update-priority.ts';

describe('updatePriorityStrategySchema', () => {
  it('round-trips the examples of the documentation', () => {
    const weight = {
      weightPriority: [
        { weight: 50, matchSelector: { matchLabels: { 'test-key': 'foo' } } },
        { weight: 30, matchSelector: { matchLabels: { 'test-key': 'bar' } } },
      ],
    };
    const order = { orderPriority: [{ orderedKey: 'some-label-key' }] };
    expect(updatePriorityStrategySchema.parse(weight)).toEqual(weight);
    expect(updatePriorityStrategySchema.parse(order)).toEqual(order);
  });

  it.each([
    {
      name: 'a weight above 100',
      value: { weightPriority: [{ weight: 101, matchSelector: { matchLabels: { a: 'b' } } }] },
    },
    {
      name: 'a negative weight',
      value: { weightPriority: [{ weight: -1, matchSelector: { matchLabels: { a: 'b' } } }] },
    },
    { name: 'a term without selector', value: { weightPriority: [{ weight: 1 }] } },
    { name: 'an empty orderedKey', value: { orderPriority: [{ orderedKey: '' }] } },
  ])('rejects $name', ({ value }) => {
    expect(updatePriorityStrategySchema.safeParse(value).success).toBe(false);
  });
});
