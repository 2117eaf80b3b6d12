import { describe, expect, it } from 'vitest';

import { idleFigures, measureIdleWindow, perThousandPods } from './idle-window.ts';

const MIB = 1024 ** 2;

describe('measureIdleWindow', () => {
  it("restarts the sampler's window, waits, and reads its CPU per second and current RSS", async () => {
    const calls: string[] = [];
    const sampler = {
      markWindowStart: () => {
        calls.push('mark');
        return Promise.resolve();
      },
      snapshot: () => {
        calls.push('snapshot');
        return Promise.resolve({ peakRssBytes: 300 * MIB, cpuSeconds: 0.123, currentRssBytes: 250 * MIB });
      },
    };
    const window = await measureIdleWindow(sampler, 10, (ms) => {
      calls.push(`wait ${String(ms)}`);
      return Promise.resolve();
    });
    expect(calls).toEqual(['mark', 'wait 10000', 'snapshot']);
    expect(window).toEqual({ seconds: 10, cpuCores: 0.0123, rssBytes: 250 * MIB });
  });
});

describe('perThousandPods', () => {
  it('divides by the pods, per 1,000, to the byte; nothing for no pods', () => {
    expect(perThousandPods(300 * MIB, 2_000)).toBe(150 * MIB);
    expect(perThousandPods(1_000, 3)).toBe(333_333);
    expect(perThousandPods(300 * MIB, 0)).toBeUndefined();
  });
});

describe('idleFigures', () => {
  const window = { seconds: 10, cpuCores: 0.004, rssBytes: 200 * MIB };

  it('reads RSS per pod of the preparation at the end of the idle window', () => {
    expect(idleFigures({ window, preparedPods: 1_000 })).toEqual({
      idleCpuCores: 0.004,
      idleWindowSeconds: 10,
      rssBytesPer1000Pods: 200 * MIB,
      rssBasis: { after: 'preparation', pods: 1_000 },
    });
  });

  it('reads it per pod of the change at its end when the preparation left none', () => {
    expect(idleFigures({ window, preparedPods: 0, endOfChange: { rssBytes: 500 * MIB, pods: 2_000 } })).toEqual({
      idleCpuCores: 0.004,
      idleWindowSeconds: 10,
      rssBytesPer1000Pods: 250 * MIB,
      rssBasis: { after: 'change', pods: 2_000 },
    });
  });

  it('has CPU but no RSS per pod when there were no pods at all', () => {
    expect(idleFigures({ window, preparedPods: 0, endOfChange: { rssBytes: 500 * MIB, pods: 0 } })).toEqual({
      idleCpuCores: 0.004,
      idleWindowSeconds: 10,
    });
    expect(idleFigures({ window, preparedPods: 0 })).toEqual({ idleCpuCores: 0.004, idleWindowSeconds: 10 });
  });
});
