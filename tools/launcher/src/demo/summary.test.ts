import { describe, expect, it } from 'vitest';

import { summaryLines, WRITES_NOT_COUNTED } from './summary.ts';
import type { DemoSummary } from './summary.ts';

const summary: DemoSummary = {
  scaleOutMs: 5300,
  partitionMs: 4100,
  finishMs: 6200,
  podsKept: 5,
  pods: 5,
  restarts: 5,
  writes: { pods: 31, updatePerPod: 3, all: 'clonesets/status patch 12, pods create 5' },
  statefulSet: { pods: 3, createdMs: 2500, updatedMs: 4000, podsKept: 3, claimsKept: 3 },
  broadcastJob: { name: 'demo-bcj', nodes: 4, parallelism: 2, succeeded: 4, failed: 0, completedMs: 9100 },
};

describe('the demo summary', () => {
  it('shows the writes the in-process controllers made', () => {
    expect(summaryLines(summary)).toEqual([
      '  scale out 0 → 5 pods, all available:        5.3s',
      '  in-place update up to the partition:       4.1s',
      '  the remaining pods after partition 0:      6.2s',
      '  pods kept through the update (same UID):   5/5, container restarts 5',
      '  controller writes per pod for the update:  3.0 (OpenKruise: 4)',
      '  controller writes to pods in all:          31',
      '  all controller writes:                     clonesets/status patch 12, pods create 5',
      '  Advanced StatefulSet demo-db: 3 pods with a PVC each in 2.5s, updated in place in 4.0s, pods kept 3/3, PVCs kept 3/3',
      '  BroadcastJob demo-bcj: 4 nodes, 2 pods at a time, completed in 9.1s, 4 succeeded, 0 failed',
    ]);
  });

  it("says the writes are not counted, not zero, when the controllers are the chart's apps", () => {
    const lines = summaryLines({ ...summary, writes: undefined });
    expect(lines.slice(4, 7)).toEqual([
      "  controller writes per pod for the update:  not counted (the apps run in the chart's pods)",
      "  controller writes to pods in all:          not counted (the apps run in the chart's pods)",
      "  all controller writes:                     not counted (the apps run in the chart's pods)",
    ]);
    expect(lines.filter((line) => line.includes(WRITES_NOT_COUNTED))).toHaveLength(3);
    expect(lines.slice(0, 4)).toEqual(summaryLines(summary).slice(0, 4));
    expect(lines.slice(7)).toEqual(summaryLines(summary).slice(7));
  });
});
