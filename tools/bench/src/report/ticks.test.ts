import { describe, expect, it } from 'vitest';

import { niceStep, niceTicks, tickLabel } from './ticks.ts';

describe('niceStep', () => {
  it.each([
    { max: 1000, target: 5, step: 200 },
    { max: 10_000, target: 5, step: 2000 },
    { max: 12.3, target: 6, step: 2.5 },
    { max: 600, target: 6, step: 100 },
    { max: 7, target: 5, step: 2 },
    { max: 1, target: 5, step: 0.2 },
    { max: 0.03, target: 6, step: 0.005 },
    { max: 0, target: 5, step: 1 },
    { max: NaN, target: 5, step: 1 },
    { max: Infinity, target: 5, step: 1 },
  ])('max $max, about $target ticks ⇒ step $step', ({ max, target, step }) => {
    expect(niceStep(max, target)).toBeCloseTo(step, 12);
  });
});

describe('niceTicks', () => {
  it.each([
    { max: 1000, target: 5, ticks: [0, 200, 400, 600, 800, 1000] },
    { max: 12.3, target: 6, ticks: [0, 2.5, 5, 7.5, 10] },
    { max: 1, target: 5, ticks: [0, 0.2, 0.4, 0.6, 0.8, 1] },
    { max: 0.7, target: 6, ticks: [0, 0.2, 0.4, 0.6] }, // 3 × 0.2 is 0.6000000000000001 unrounded
    { max: 37, target: 5, ticks: [0, 10, 20, 30] },
    { max: 0, target: 5, ticks: [0] },
  ])('max $max ⇒ $ticks', ({ max, target, ticks }) => {
    expect(niceTicks(max, target)).toEqual(ticks);
  });
});

describe('tickLabel', () => {
  it.each([
    { value: 0, label: '0' },
    { value: 2.5, label: '2.5' },
    { value: 0.3, label: '0.3' },
    { value: 10_000, label: '10,000' },
  ])('$value ⇒ $label', ({ value, label }) => {
    expect(tickLabel(value)).toBe(label);
  });
});
