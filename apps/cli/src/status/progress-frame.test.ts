import { describe, expect, it } from 'vitest';

import { NO_COLOUR, progressFrame } from './progress-frame.ts';
import type { Palette } from './progress-frame.ts';
import type { RolloutProgress } from './rollout-progress.ts';

const progress: RolloutProgress = {
  phase: 'waiting',
  message: 'Waiting for cloneset "web" rollout to finish: 3 out of 6 new replicas have been updated...',
  bars: [
    { label: 'updated', value: 3, total: 10, mark: 6 },
    { label: 'updated-ready', value: 2, total: 10, mark: 6 },
    { label: 'available', value: 9, total: 10 },
  ],
  notes: ['partition 4', 'revision web-5f6b7'],
  inFlight: [
    { name: 'web-a', state: 'updating in place' },
    { name: 'web-b', state: 'terminating' },
  ],
};

describe('progressFrame', () => {
  it('draws a bar per count (20 cells in 50 columns) with the partition mark after the 6th pod of 10, the pods in flight and the sentence', () => {
    expect(progressFrame(progress, { title: 'cloneset.apps.kruise.io/web', columns: 50, palette: NO_COLOUR })).toEqual([
      'cloneset.apps.kruise.io/web  (partition 4, revisi…',
      '  updated       ██████░░░░░░│░░░░░░░  3/10',
      '  updated-ready ████░░░░░░░░│░░░░░░░  2/10',
      '  available     ██████████████████░░  9/10',
      '  in flight     web-a (updating in place), web-b …',
      'Waiting for cloneset "web" rollout to finish: 3 o…',
    ]);
  });

  it('widens the bars to 40 cells in a wide terminal, and shows a done rollout without the in-flight line', () => {
    const done: RolloutProgress = {
      ...progress,
      phase: 'done',
      message: 'cloneset "web" successfully rolled out',
      inFlight: [],
      notes: [],
      bars: [{ label: 'updated', value: 10, total: 10 }],
    };
    expect(progressFrame(done, { title: 'cloneset.apps.kruise.io/web', columns: 200, palette: NO_COLOUR })).toEqual([
      'cloneset.apps.kruise.io/web',
      `  updated       ${'█'.repeat(40)}  10/10`,
      'cloneset "web" successfully rolled out',
    ]);
  });

  it('names six pods in flight and counts the rest; draws an empty bar for a total of 0', () => {
    const many: RolloutProgress = {
      ...progress,
      bars: [{ label: 'ready', value: 0, total: 0 }],
      notes: [],
      inFlight: Array.from({ length: 8 }, (_, index) => ({ name: `p${String(index)}`, state: 'pending' })),
    };
    const frame = progressFrame(many, { title: 't', columns: 300, palette: NO_COLOUR });
    expect(frame[1]).toBe(`  ready         ${'░'.repeat(40)}  0/0`);
    expect(frame[2]).toBe(
      '  in flight     p0 (pending), p1 (pending), p2 (pending), p3 (pending), p4 (pending), p5 (pending), and 2 more',
    );
  });

  it('colours each run of cells once and cuts lines by their visible width', () => {
    const brackets: Palette = {
      done: (text) => `\u001b[32m${text}\u001b[39m`,
      todo: (text) => text,
      mark: (text) => `\u001b[33m${text}\u001b[39m`,
      failed: (text) => `<${text}>`,
    };
    const failed: RolloutProgress = {
      ...progress,
      phase: 'failed',
      message: 'cloneset "web" exceeded its progress deadline',
      inFlight: [],
      bars: [{ label: 'updated', value: 1, total: 2, mark: 1 }],
    };
    const frame = progressFrame(failed, { title: 'c', columns: 60, palette: brackets });
    expect(frame[1]).toBe(
      `  updated       \u001b[32m${'█'.repeat(15)}\u001b[39m\u001b[33m│\u001b[39m${'░'.repeat(14)}  1/2`,
    );
    expect(frame[2]).toBe('<error: cloneset "web" exceeded its progress deadline>');
  });
});
