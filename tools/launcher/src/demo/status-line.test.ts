import { describe, expect, it } from 'vitest';

import type { BroadcastJob } from '@kruise-ts/api';

import { jobProgressText, showLine, statusLine, timedLine } from './status-line.ts';

describe('the demo status line', () => {
  it('shows the counters with the elapsed time', () => {
    expect(statusLine('sample', { desired: 5, replicas: 5, updated: 2, ready: 4, available: 3 }, 1234)).toBe(
      '[  1.2s] sample  desired 5  replicas 5  updated 2  ready 4  available 3',
    );
  });

  it('redraws in place on a terminal and prints new lines otherwise', () => {
    const written: string[] = [];
    showLine({ write: (text: string) => written.push(text), isTTY: true }, 'a');
    showLine({ write: (text: string) => written.push(text) }, 'b');
    expect(written).toEqual(['\r\x1b[Ka', 'b\n']);
  });

  it("shows a BroadcastJob's counters and phase, and a job without a status yet as pending", () => {
    const job = {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'BroadcastJob',
      metadata: { name: 'demo-bcj' },
      spec: { template: {} },
    } as unknown as BroadcastJob;
    expect(timedLine('demo-bcj', jobProgressText(job), 0)).toBe(
      '[  0.0s] demo-bcj  desired 0  active 0  succeeded 0  failed 0  pending',
    );
    expect(
      jobProgressText({ ...job, status: { desired: 4, active: 2, succeeded: 1, failed: 0, phase: 'running' } }),
    ).toBe('desired 4  active 2  succeeded 1  failed 0  running');
  });
});
