import { describe, expect, it } from 'vitest';

import { planSteps, resolveMaxSurge } from './plan.ts';
import type { Replicas } from './plan.ts';

/** Steps as `cloneSet/deployment` pairs, for short tables. */
function steps(target: number, current: Replicas, maxSurge: number): string[] {
  return planSteps({ target, current, maxSurge }).map((step) => `${String(step.cloneSet)}/${String(step.deployment)}`);
}

describe('planSteps', () => {
  it.each([
    [10, 1, ['1/9', '2/8', '3/7', '4/6', '5/5', '6/4', '7/3', '8/2', '9/1', '10/0']],
    [10, 3, ['3/7', '6/4', '9/1', '10/0']],
    [10, 5, ['5/5', '10/0']],
    [10, 10, ['10/0']],
    [10, 25, ['10/0']],
    [1, 1, ['1/0']],
    [3, 2, ['2/1', '3/0']],
  ])('moves %i pods %i at a time', (target, maxSurge, expected) => {
    expect(steps(target, { cloneSet: 0, deployment: target }, maxSurge)).toEqual(expected);
  });

  it.each([
    // Interrupted after the CloneSet was scaled up: the step's scale-down comes first.
    [{ cloneSet: 4, deployment: 7 }, 1, ['4/6', '5/5', '6/4', '7/3', '8/2', '9/1', '10/0']],
    [{ cloneSet: 10, deployment: 1 }, 1, ['10/0']],
    [{ cloneSet: 6, deployment: 10 }, 3, ['6/4', '9/1', '10/0']],
    // Interrupted after a step completed.
    [{ cloneSet: 4, deployment: 6 }, 2, ['6/4', '8/2', '10/0']],
    // Someone scaled the Deployment down meanwhile: it is not scaled back up.
    [{ cloneSet: 2, deployment: 5 }, 2, ['4/5', '6/4', '8/2', '10/0']],
    // Nothing left to do.
    [{ cloneSet: 10, deployment: 0 }, 1, []],
  ])('resumes from %j, %i at a time', (current, maxSurge, expected) => {
    expect(steps(10, current, maxSurge)).toEqual(expected);
  });

  it('never runs more than target + maxSurge pods, nor moves the Deployment below what the CloneSet replaced', () => {
    for (const target of [1, 2, 7, 10, 33]) {
      for (const maxSurge of [1, 2, 3, 10, 50]) {
        let previous: Replicas = { cloneSet: 0, deployment: target };
        for (const step of planSteps({ target, current: previous, maxSurge })) {
          expect(step.cloneSet + previous.deployment).toBeLessThanOrEqual(target + maxSurge);
          expect(step.cloneSet + step.deployment).toBe(target);
          expect(step.cloneSet).toBeGreaterThan(previous.cloneSet);
          previous = step;
        }
        expect(previous).toEqual({ cloneSet: target, deployment: 0 });
      }
    }
  });

  it.each([
    [{ cloneSet: 11, deployment: 0 }, 1],
    [{ cloneSet: -1, deployment: 10 }, 1],
    [{ cloneSet: 0, deployment: 10 }, 0],
    [{ cloneSet: 0, deployment: 10 }, 1.5],
  ])('refuses to plan from %j with maxSurge %d', (current, maxSurge) => {
    expect(() => planSteps({ target: 10, current, maxSurge })).toThrow(RangeError);
  });
});

describe('resolveMaxSurge', () => {
  it.each([
    [{ count: 1 }, 10, 1],
    [{ count: 4 }, 10, 4],
    [{ count: 40 }, 10, 40],
    [{ percent: 25 }, 10, 3],
    [{ percent: 25 }, 4, 1],
    [{ percent: 1 }, 10, 1],
    [{ percent: 100 }, 10, 10],
    [{ percent: 50 }, 1, 1],
  ])('%j of %i pods is %i', (maxSurge, target, expected) => {
    expect(resolveMaxSurge(maxSurge, target)).toBe(expected);
  });
});
