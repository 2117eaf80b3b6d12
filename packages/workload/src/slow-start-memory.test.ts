import { describe, expect, it } from 'vitest';

import { SlowStartMemory } from './slow-start-memory.ts';

describe('SlowStartMemory', () => {
  it.each([
    { name: 'a new workload starts at 1', runs: [], next: 1 },
    {
      name: 'a run that went through starts the next at its largest batch',
      runs: [{ errors: [], largestBatch: 64 }],
      next: 64,
    },
    {
      name: 'a small run does not lower what a large one found',
      runs: [
        { errors: [], largestBatch: 64 },
        { errors: [], largestBatch: 2 },
      ],
      next: 64,
    },
    {
      name: 'any failure starts the next at 1 again',
      runs: [
        { errors: [], largestBatch: 64 },
        { errors: ['quota exceeded'], largestBatch: 0 },
      ],
      next: 1,
    },
    {
      name: 'a failure after some batches went through still starts at 1',
      runs: [{ errors: ['forbidden'], largestBatch: 8 }],
      next: 1,
    },
    { name: 'a run without any batch remembers nothing', runs: [{ errors: [], largestBatch: 0 }], next: 1 },
  ])('$name', ({ runs, next }) => {
    const memory = new SlowStartMemory();
    for (const run of runs) {
      memory.record('ns/a', run);
    }
    expect(memory.initialBatchSize('ns/a')).toBe(next);
    expect(memory.initialBatchSize('ns/b')).toBe(1);
  });

  it('forgets a workload that is gone', () => {
    const memory = new SlowStartMemory();
    memory.record('ns/a', { errors: [], largestBatch: 32 });
    memory.forget('ns/a');
    expect(memory.initialBatchSize('ns/a')).toBe(1);
  });
});
