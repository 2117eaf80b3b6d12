import { describe, expect, it } from 'vitest';

import { createLatencyRecorder, nearestRank } from './latency-recorder.ts';

describe('nearestRank', () => {
  const oneToHundred = Array.from({ length: 100 }, (_, index) => index + 1);

  it.each([
    { values: [1, 2, 3, 4], q: 0.5, expected: 2 },
    { values: [1, 2, 3, 4, 5], q: 0.5, expected: 3 },
    { values: oneToHundred, q: 0.99, expected: 99 },
    { values: oneToHundred, q: 0.5, expected: 50 },
    { values: oneToHundred, q: 1, expected: 100 },
    { values: oneToHundred, q: 0, expected: 1 },
    { values: [7], q: 0.99, expected: 7 },
    { values: [], q: 0.5, expected: 0 },
  ])('q $q of $values.length values ⇒ $expected', ({ values, q, expected }) => {
    expect(nearestRank(values, q)).toBe(expected);
  });
});

describe('createLatencyRecorder', () => {
  it('summarizes nothing as zeros', () => {
    expect(createLatencyRecorder().summary()).toEqual({ count: 0, p50Seconds: 0, p99Seconds: 0, maxSeconds: 0 });
  });

  it('summarizes unordered durations', () => {
    const recorder = createLatencyRecorder();
    for (const seconds of [0.3, 0.1, 0.2, 1.5]) {
      recorder.record(seconds);
    }
    expect(recorder.count()).toBe(4);
    expect(recorder.summary()).toEqual({ count: 4, p50Seconds: 0.2, p99Seconds: 1.5, maxSeconds: 1.5 });
  });

  it('grows past its initial capacity and keeps recording after a summary', () => {
    const recorder = createLatencyRecorder();
    // 1..5000 ms in reverse, so the growth copies and the sort both matter.
    for (let ms = 5000; ms >= 1; ms -= 1) {
      recorder.record(ms / 1000);
    }
    expect(recorder.summary()).toEqual({ count: 5000, p50Seconds: 2.5, p99Seconds: 4.95, maxSeconds: 5 });
    recorder.record(9);
    expect(recorder.summary()).toEqual({ count: 5001, p50Seconds: 2.501, p99Seconds: 4.951, maxSeconds: 9 });
  });
});
