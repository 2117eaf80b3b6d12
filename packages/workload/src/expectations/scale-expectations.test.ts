import { describe, expect, it } from 'vitest';

import { FakeClock } from '@kruise-ts/controller-runtime/testing';
import { ScaleExpectations } from './scale-expectations.ts';
import type { ScaleAction, ScaleExpectationTimeout } from './scale-expectations.ts';

type Step = readonly ['expect' | 'observe', ScaleAction, string] | readonly ['delete'];

const OWNER = 'default/web';

function setup(timeoutMs = 60_000): {
  clock: FakeClock;
  timeouts: ScaleExpectationTimeout[];
  expectations: ScaleExpectations;
} {
  const clock = new FakeClock();
  const timeouts: ScaleExpectationTimeout[] = [];
  const expectations = new ScaleExpectations({ timeoutMs, clock, onTimeout: (event) => timeouts.push(event) });
  return { clock, timeouts, expectations };
}

function run(expectations: ScaleExpectations, steps: readonly Step[]): void {
  for (const step of steps) {
    if (step[0] === 'delete') {
      expectations.delete(OWNER);
    } else {
      expectations[step[0]](OWNER, step[1], step[2]);
    }
  }
}

describe('ScaleExpectations', () => {
  it.each<{ name: string; steps: readonly Step[]; satisfied: boolean; create?: string[]; delete?: string[] }>([
    { name: 'nothing expected', steps: [], satisfied: true },
    { name: 'a pending create', steps: [['expect', 'create', 'web-a']], satisfied: false, create: ['web-a'] },
    {
      name: 'a create observed',
      steps: [
        ['expect', 'create', 'web-a'],
        ['observe', 'create', 'web-a'],
      ],
      satisfied: true,
    },
    {
      name: 'creates and deletes, partly observed, sorted',
      steps: [
        ['expect', 'create', 'web-c'],
        ['expect', 'create', 'web-a'],
        ['expect', 'delete', 'web-x'],
        ['expect', 'create', 'web-b'],
        ['observe', 'create', 'web-c'],
      ],
      satisfied: false,
      create: ['web-a', 'web-b'],
      delete: ['web-x'],
    },
    {
      name: 'observed under the other action',
      steps: [
        ['expect', 'create', 'web-a'],
        ['observe', 'delete', 'web-a'],
      ],
      satisfied: false,
      create: ['web-a'],
    },
    {
      name: 'the same name expected twice counts once',
      steps: [
        ['expect', 'delete', 'web-a'],
        ['expect', 'delete', 'web-a'],
        ['observe', 'delete', 'web-a'],
      ],
      satisfied: true,
    },
    {
      name: 'unknown names and owners observed are harmless',
      steps: [
        ['observe', 'create', 'nope'],
        ['expect', 'create', 'web-a'],
        ['observe', 'create', 'nope'],
      ],
      satisfied: false,
      create: ['web-a'],
    },
    { name: 'deleted owner', steps: [['expect', 'create', 'web-a'], ['delete']], satisfied: true },
  ])('$name', ({ steps, satisfied, create = [], delete: deleted = [] }) => {
    const { expectations, timeouts } = setup();
    run(expectations, steps);
    const result = expectations.satisfied(OWNER);
    expect(result).toMatchObject({ satisfied, pending: { create, delete: deleted }, timedOut: false });
    expect(timeouts).toEqual([]);
  });

  it('keeps owners apart', () => {
    const { expectations } = setup();
    expectations.expect('ns/a', 'create', 'x');
    expect(expectations.satisfied('ns/b').satisfied).toBe(true);
    expect(expectations.satisfied('ns/a').satisfied).toBe(false);
  });

  it('counts unsatisfied time from the first check that finds it unsatisfied', () => {
    const { clock, expectations } = setup(60_000);
    expectations.expect(OWNER, 'create', 'web-a');
    clock.advance(10_000);
    expect(expectations.satisfied(OWNER)).toMatchObject({ satisfied: false, unsatisfiedForMs: 0, remainingMs: 60_000 });
    clock.advance(15_000);
    expectations.expect(OWNER, 'create', 'web-b');
    expect(expectations.satisfied(OWNER)).toMatchObject({
      satisfied: false,
      unsatisfiedForMs: 15_000,
      remainingMs: 45_000,
    });
  });

  it('drops stale names after the timeout, reports once per action and then reads satisfied', () => {
    const { clock, timeouts, expectations } = setup(60_000);
    expectations.expect(OWNER, 'create', 'web-b');
    expectations.expect(OWNER, 'create', 'web-a');
    expectations.expect(OWNER, 'delete', 'web-z');
    expectations.satisfied(OWNER);
    clock.advance(59_999);
    expect(expectations.satisfied(OWNER)).toMatchObject({ satisfied: false, remainingMs: 1 });
    clock.advance(1);
    expect(expectations.satisfied(OWNER)).toEqual({
      satisfied: true,
      pending: { create: [], delete: [] },
      unsatisfiedForMs: 60_000,
      remainingMs: 0,
      timedOut: true,
      dropped: { create: ['web-a', 'web-b'], delete: ['web-z'] },
    });
    expect(timeouts).toEqual([
      { ownerKey: OWNER, action: 'create', names: ['web-a', 'web-b'], ageMs: 60_000 },
      { ownerKey: OWNER, action: 'delete', names: ['web-z'], ageMs: 60_000 },
    ]);
    clock.advance(60_000);
    expect(expectations.satisfied(OWNER)).toMatchObject({ satisfied: true, timedOut: false });
    expect(timeouts).toHaveLength(2);
    // A late event for a dropped name changes nothing.
    expectations.observe(OWNER, 'create', 'web-a');
    expect(expectations.satisfied(OWNER).satisfied).toBe(true);
  });

  it('starts a fresh timer for expectations recorded after a timeout', () => {
    const { clock, timeouts, expectations } = setup(60_000);
    expectations.expect(OWNER, 'create', 'web-a');
    expectations.satisfied(OWNER);
    clock.advance(60_000);
    expect(expectations.satisfied(OWNER).timedOut).toBe(true);
    expectations.expect(OWNER, 'create', 'web-b');
    expect(expectations.satisfied(OWNER)).toMatchObject({
      satisfied: false,
      unsatisfiedForMs: 0,
      pending: { create: ['web-b'] },
    });
    clock.advance(30_000);
    expect(expectations.satisfied(OWNER)).toMatchObject({ satisfied: false, unsatisfiedForMs: 30_000 });
    expectations.observe(OWNER, 'create', 'web-b');
    expect(expectations.satisfied(OWNER).satisfied).toBe(true);
    expect(timeouts).toHaveLength(1);
  });

  it('stays unblocked even when onTimeout throws', () => {
    const clock = new FakeClock();
    const expectations = new ScaleExpectations({
      timeoutMs: 1000,
      clock,
      onTimeout: () => {
        throw new Error('logger broke');
      },
    });
    expectations.expect(OWNER, 'create', 'web-a');
    expectations.satisfied(OWNER);
    clock.advance(1000);
    expect(() => expectations.satisfied(OWNER)).toThrow('logger broke');
    expect(expectations.satisfied(OWNER).satisfied).toBe(true);
  });

  it('defaults to the 5 minute OpenKruise timeout', () => {
    const clock = new FakeClock();
    const expectations = new ScaleExpectations({ clock });
    expectations.expect(OWNER, 'delete', 'web-a');
    expectations.satisfied(OWNER);
    clock.advance(5 * 60_000 - 1);
    expect(expectations.satisfied(OWNER).satisfied).toBe(false);
    clock.advance(1);
    expect(expectations.satisfied(OWNER)).toMatchObject({ satisfied: true, timedOut: true });
  });

  it.each([0, -1, NaN, Infinity])('rejects a timeout of %s', (timeoutMs) => {
    expect(() => new ScaleExpectations({ timeoutMs })).toThrow(/positive, finite/);
  });
});
