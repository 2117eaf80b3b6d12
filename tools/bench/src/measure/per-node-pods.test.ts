import { describe, expect, it } from 'vitest';

import { perNodeFailure, perNodeStats } from './per-node-pods.ts';

describe('perNodeStats', () => {
  it("times the last node's first pod: a node's second pod neither counts twice nor hides the first", () => {
    const stats = perNodeStats(
      [
        { node: 'a', startedAt: 1_500, succeededAt: 2_600 },
        { node: 'b', startedAt: 1_800, succeededAt: 3_000 },
        { node: 'b', startedAt: 2_900 },
        // Created, never bound.
        {},
      ],
      { nodes: 2, start: 1_000 },
    );
    expect(stats).toEqual({
      nodes: 2,
      podsCreated: 4,
      podsStarted: 3,
      allRunningSeconds: 0.8,
      podsSucceeded: 2,
      allSucceededSeconds: 2,
      nodesWithSeveralPods: 1,
    });
  });

  it('has no time while a node has no pod that ran (or succeeded)', () => {
    const stats = perNodeStats([{ node: 'a', startedAt: 1_200 }, { node: 'b' }], { nodes: 2, start: 1_000 });
    expect(stats.allRunningSeconds).toBeUndefined();
    expect(stats.allSucceededSeconds).toBeUndefined();
    expect(perNodeFailure(stats, false)).toBe('a pod ran on fewer than all 2 nodes (1 pods ran)');
  });
});

describe('perNodeFailure', () => {
  const base = {
    nodes: 2,
    podsCreated: 2,
    podsStarted: 2,
    allRunningSeconds: 1,
    podsSucceeded: 0,
    nodesWithSeveralPods: 0,
  };

  it("wants a job's pods to have succeeded on every node, a DaemonSet's only to run", () => {
    expect(perNodeFailure(base, false)).toBeUndefined();
    expect(perNodeFailure(base, true)).toBe('a pod succeeded on fewer than all 2 nodes (0 pods succeeded)');
    expect(perNodeFailure({ ...base, podsSucceeded: 2, allSucceededSeconds: 2 }, true)).toBeUndefined();
  });

  it('fails a node with two pods', () => {
    expect(perNodeFailure({ ...base, podsCreated: 3, nodesWithSeveralPods: 1 }, false)).toBe(
      '1 nodes got more than one pod',
    );
  });
});
