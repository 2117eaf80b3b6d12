import { describe, expect, it } from 'vitest';

import { progressWriter } from './progress-writer.ts';
import type { RolloutProgress } from './rollout-progress.ts';

const look = (message: string, phase: RolloutProgress['phase'] = 'waiting', value = 1): RolloutProgress => ({
  phase,
  message,
  bars: [{ label: 'updated', value, total: 2 }],
  notes: [],
  inFlight: [],
});

function capture(mode: 'bars' | 'lines'): { output: () => string; show: (progress: RolloutProgress) => void } {
  let text = '';
  const writer = progressWriter({
    mode,
    write: (chunk) => {
      text += chunk;
    },
    title: 'cloneset.apps.kruise.io/web',
    columns: 60,
    colour: false,
  });
  return {
    output: () => text,
    show: (progress) => {
      writer.show(progress);
    },
  };
}

describe('progressWriter', () => {
  it('prints one line per change of the sentence, and nothing for a failure (the error goes to stderr)', () => {
    const lines = capture('lines');
    [look('a'), look('a'), look('b'), look('b'), look('done', 'done'), look('x', 'failed')].forEach(lines.show);
    expect(lines.output()).toBe('a\nb\ndone\n');
  });

  it('redraws the frame in place when it changes: cursor up to its first line, erase below', () => {
    const bars = capture('bars');
    [look('a'), look('a'), look('a', 'waiting', 2)].forEach(bars.show);
    const first = `cloneset.apps.kruise.io/web\n  updated       ${'█'.repeat(15)}${'░'.repeat(15)}  1/2\n  in flight     -\na\n`;
    const second = `cloneset.apps.kruise.io/web\n  updated       ${'█'.repeat(30)}  2/2\n  in flight     -\na\n`;
    expect(bars.output()).toBe(`${first}\u001b[4F\u001b[0J${second}`);
  });
});
