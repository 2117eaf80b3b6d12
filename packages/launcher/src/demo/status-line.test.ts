import { describe, expect, it } from 'vitest';

import { sameProgress, showLine, statusLine } from './status-line.ts';

describe('the demo status line', () => {
  it('shows the counters with the elapsed time', () => {
    expect(statusLine('sample', { desired: 5, replicas: 5, updated: 2, ready: 4, available: 3 }, 1234)).toBe('[  1.2s] sample  desired 5  replicas 5  updated 2  ready 4  available 3');
  });

  it('redraws in place on a terminal and prints new lines otherwise', () => {
    const written: string[] = [];
    showLine({ write: (text: string) => written.push(text), isTTY: true }, 'a');
    showLine({ write: (text: string) => written.push(text) }, 'b');
    expect(written).toEqual(['\r\x1b[Ka', 'b\n']);
  });

  it('compares progress field by field', () => {
    const p = { desired: 5, replicas: 5, updated: 5, ready: 5, available: 5 };
    expect(sameProgress(undefined, p)).toBe(false);
    expect(sameProgress({ ...p }, p)).toBe(true);
    expect(sameProgress({ ...p, ready: 4 }, p)).toBe(false);
  });
});
