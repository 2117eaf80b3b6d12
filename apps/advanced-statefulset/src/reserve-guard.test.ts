import { describe, expect, it } from 'vitest';

import { parseReserveOrdinals } from './ordinals.ts';
import { reserveCondemnsEveryPod } from './reserve-guard.ts';

function guard(input: { replicas: number; start: number; reserve: (number | string)[]; pods: number[] }): boolean {
  return reserveCondemnsEveryPod({
    replicas: input.replicas,
    start: input.start,
    reserved: parseReserveOrdinals(input.reserve).reserved,
    podOrdinals: input.pods,
  });
}

describe('reserveCondemnsEveryPod', () => {
  it.each([
    // The reserve list condemns every pod: refused.
    { replicas: 2, start: 0, reserve: ['0-1'], pods: [0, 1], trips: true },
    { replicas: 2, start: 3, reserve: [3, 4], pods: [3, 4], trips: true },
    { replicas: 3, start: 0, reserve: ['0-100'], pods: [0, 2, 5], trips: true },
    // A reserve list that keeps one pod in place.
    { replicas: 2, start: 0, reserve: [0], pods: [0, 1], trips: false },
    // ordinals.start moves every pod (OpenKruise e2e: setting, increasing, removing the start).
    { replicas: 3, start: 2, reserve: [], pods: [0, 1], trips: false },
    { replicas: 2, start: 4, reserve: [], pods: [2, 3], trips: false },
    { replicas: 2, start: 0, reserve: [], pods: [3, 4], trips: false },
    // A moved start with a reserve list that is not what condemns the pods.
    { replicas: 2, start: 5, reserve: [0], pods: [0, 1], trips: false },
    { replicas: 2, start: 4, reserve: [7], pods: [2, 3], trips: false },
    // Nothing to guard: scaled to 0, or no pods yet.
    { replicas: 0, start: 0, reserve: [0], pods: [0], trips: false },
    { replicas: 2, start: 0, reserve: ['0-1'], pods: [], trips: false },
  ])('$replicas replicas from $start reserving $reserve with pods $pods: $trips', ({ trips, ...input }) => {
    expect(guard(input)).toBe(trips);
  });
});
