import { describe, expect, it } from 'vitest';

import { ReportMemory } from './report-memory.ts';

describe('ReportMemory', () => {
  it.each<{
    name: string;
    rounds: readonly { missed: string[]; reportable: string[] }[];
    fresh: string[];
    size: number;
  }>([
    {
      name: 'a pod is reported once',
      rounds: [
        { missed: ['a'], reportable: ['a'] },
        { missed: ['a'], reportable: ['a'] },
      ],
      fresh: [],
      size: 1,
    },
    {
      name: 'a pod no longer missed is forgotten',
      rounds: [
        { missed: ['a', 'b'], reportable: ['a', 'b'] },
        { missed: ['b'], reportable: ['b'] },
      ],
      fresh: [],
      size: 1,
    },
    {
      name: 'a pod missed again after it was forgotten is reported again',
      rounds: [
        { missed: ['a'], reportable: ['a'] },
        { missed: [], reportable: [] },
        { missed: ['a'], reportable: ['a'] },
      ],
      fresh: ['a'],
      size: 1,
    },
    {
      name: 'while reports are held back (a conflict), reported pods are kept and none is added',
      rounds: [
        { missed: ['a'], reportable: ['a'] },
        { missed: ['a', 'b'], reportable: [] },
      ],
      fresh: [],
      size: 1,
    },
  ])('$name', ({ rounds, fresh, size }) => {
    const memory = new ReportMemory();
    let last: string[] = [];
    for (const round of rounds) {
      last = memory.newlyMissed('mesh', round);
    }
    expect(last).toEqual(fresh);
    expect(memory.size().pods).toBe(size);
  });

  it('keeps the SidecarSets apart, and forgets one that goes', () => {
    const memory = new ReportMemory();
    expect(memory.newlyMissed('a', { missed: ['p'], reportable: ['p'] })).toEqual(['p']);
    expect(memory.newlyMissed('b', { missed: ['p'], reportable: ['p'] })).toEqual(['p']);
    expect(memory.conflictsChanged('b', 'x conflicts')).toBe(true);
    expect(memory.size()).toEqual({ sets: 2, pods: 2, conflicts: 1 });
    memory.forget('b');
    expect(memory.size()).toEqual({ sets: 1, pods: 1, conflicts: 0 });
  });

  it('reports a conflict when it changes, and holds nothing once there is none', () => {
    const memory = new ReportMemory();
    expect(memory.conflictsChanged('a', '')).toBe(false);
    expect(memory.conflictsChanged('a', 'one')).toBe(true);
    expect(memory.conflictsChanged('a', 'one')).toBe(false);
    expect(memory.conflictsChanged('a', 'two')).toBe(true);
    expect(memory.conflictsChanged('a', '')).toBe(true);
    expect(memory.size().conflicts).toBe(0);
  });
});
