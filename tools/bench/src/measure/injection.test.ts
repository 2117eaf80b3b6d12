import { describe, expect, it } from 'vitest';

import type { InjectionStats } from '../result.ts';
import { injectionFailure, probeOfContender, windowHistogram } from './injection.ts';

const stats = (sidecarSet: boolean, podsWithSidecar: number, podsWithoutSidecar: number): InjectionStats => ({
  sidecarSet,
  podsWithSidecar,
  podsWithoutSidecar,
  webhookLatency: { count: 0, buckets: [] },
  podCreateLatency: { count: 0, p50Seconds: 0, p99Seconds: 0, maxSeconds: 0 },
});

describe('injectionFailure', () => {
  it('fails a SidecarSet phase with any pod admitted without the sidecar, and a phase without one where a pod got it', () => {
    expect(injectionFailure(stats(true, 999, 1))).toBe(
      "1 of 1000 pods were admitted without the SidecarSet's container (the webhook failed open for them)",
    );
    expect(injectionFailure(stats(false, 2, 998))).toBe('2 of 1000 pods got a sidecar with no SidecarSet');
  });

  it('passes every pod injected, none injected without a SidecarSet, and a scenario without injection', () => {
    expect(injectionFailure(stats(true, 1000, 0))).toBeUndefined();
    expect(injectionFailure(stats(false, 0, 1000))).toBeUndefined();
    expect(injectionFailure(undefined)).toBeUndefined();
  });
});

describe('windowHistogram', () => {
  it("counts the window's observations and interpolates p50 and p99 within the buckets, as PromQL does", () => {
    const histogram = windowHistogram([
      { le: 0.005, count: 600 },
      { le: 0.01, count: 980 },
      { le: 0.025, count: 1000 },
      { le: Infinity, count: 1000 },
    ]);
    expect(histogram.count).toBe(1000);
    expect(histogram.p50Seconds).toBeCloseTo(0.0041667, 6);
    // Rank 990 lies half-way into the 10-25 ms bucket.
    expect(histogram.p99Seconds).toBeCloseTo(0.0175, 6);
    expect(histogram.buckets).toHaveLength(4);
  });

  it('has no quantiles when nothing was observed', () => {
    expect(windowHistogram([])).toEqual({ count: 0, buckets: [] });
    expect(
      windowHistogram([
        { le: 0.005, count: 0 },
        { le: Infinity, count: 0 },
      ]),
    ).toEqual({
      count: 0,
      buckets: [
        { le: 0.005, count: 0 },
        { le: Infinity, count: 0 },
      ],
    });
  });
});

describe('probeOfContender', () => {
  const probe = { container: 'bench-sidecar', webhookPath: '/mutate-pod', webhookName: 'mpod.kruise-ts.io' };

  it("reads kube-apiserver's admission metrics under the name the contender's configuration gives its pod webhook", () => {
    expect(probeOfContender(probe, { podWebhookName: 'mpod.kb.io' })).toEqual({ ...probe, webhookName: 'mpod.kb.io' });
    expect(probeOfContender(probe, {})).toEqual(probe);
  });
});
