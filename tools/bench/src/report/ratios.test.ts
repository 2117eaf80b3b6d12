import { describe, expect, it } from 'vitest';

import type { BenchResult } from '../result.ts';
import { contenderRatios, figureValues, ratio, RATIO_FIGURES } from './ratios.ts';
import { FIXTURE, withoutIdleFigures } from './test-fixture.ts';

const MIB = 1024 ** 2;

describe('ratio', () => {
  it.each([
    { value: 6, reference: 12, expected: 0.5 },
    { value: 0, reference: 12, expected: 0 },
    { value: 12, reference: 0, expected: undefined },
    { value: undefined, reference: 12, expected: undefined },
    { value: 6, reference: undefined, expected: undefined },
    { value: NaN, reference: 12, expected: undefined },
    { value: 6, reference: Infinity, expected: undefined },
  ])('$value / $reference ⇒ $expected', ({ value, reference, expected }) => {
    expect(ratio(value, reference)).toBe(expected);
  });
});

describe('figureValues', () => {
  it('reads every figure of a measured contender', () => {
    expect(figureValues(FIXTURE.results[0] ?? expect.fail('fixture'))).toEqual({
      wallSeconds: 12.3,
      writesPerPod: 2.01,
      podWritesPerPod: 2,
      requests: 2010,
      peakRssBytes: 150 * MIB,
      peakHeapUsedBytes: 80 * MIB,
      cpuSeconds: 8.5,
      reconcileP99Seconds: 0.02,
      mutatingP99Seconds: 0.012,
      idleCpuCores: 0.012,
      rssBytesPer1000Pods: 120 * MIB,
    });
  });

  it('leaves out what was not measured, and the latency of no requests', () => {
    expect(figureValues(FIXTURE.results[1] ?? expect.fail('fixture'))).toEqual({
      wallSeconds: 600,
      writesPerPod: 4.02,
      podWritesPerPod: 3.5,
      requests: 4020,
      peakRssBytes: 300 * MIB,
      peakHeapUsedBytes: undefined,
      cpuSeconds: 17,
      reconcileP99Seconds: undefined,
      mutatingP99Seconds: undefined,
      idleCpuCores: 0.018,
      rssBytesPer1000Pods: 240 * MIB,
    });
  });

  it('takes the idle figures of an older steady result from its steady figures', () => {
    const older = withoutIdleFigures(FIXTURE.results[0] ?? expect.fail('fixture'));
    const steady = {
      workloads: 10,
      podsPerWorkload: 10,
      idleCpuCoresUsed: 0.005,
      idleSeconds: 30,
      heapAfterFullGc: true,
      rssBytesPer1000Pods: 4 * MIB,
      churnedPods: 10,
      convergeSeconds: 1,
    };
    expect(figureValues({ ...older, steady })).toMatchObject({ idleCpuCores: 0.005, rssBytesPer1000Pods: 4 * MIB });
    expect(figureValues(older)).toMatchObject({ idleCpuCores: undefined, rssBytesPer1000Pods: undefined });
  });
});

describe('contenderRatios', () => {
  const rows = contenderRatios(FIXTURE);

  it('keeps the order of the run', () => {
    expect(rows.map((row) => row.name)).toEqual(['kruise-ts', 'native-deployment', 'other|ctl <x&y>']);
  });

  it('gives the reference 1 wherever it has a figure', () => {
    expect(Object.values(rows[0]?.ratios ?? {})).toEqual(RATIO_FIGURES.map(() => 1));
  });

  it('divides by the reference, undefined where either side is missing', () => {
    const native = rows[1]?.ratios;
    expect(native?.wallSeconds).toBeCloseTo(600 / 12.3, 10);
    expect(native).toMatchObject({
      writesPerPod: 2,
      requests: 2,
      peakRssBytes: 2,
      peakHeapUsedBytes: undefined,
      cpuSeconds: 2,
      reconcileP99Seconds: undefined,
      mutatingP99Seconds: undefined,
      rssBytesPer1000Pods: 2,
    });
    expect(native?.idleCpuCores).toBeCloseTo(1.5, 10);
    expect(rows[2]?.ratios).toMatchObject({
      writesPerPod: 0,
      requests: 0,
      peakRssBytes: 0.5,
      peakHeapUsedBytes: 0.5,
      cpuSeconds: 0.5,
      idleCpuCores: undefined,
      rssBytesPer1000Pods: undefined,
    });
  });

  it('has no ratios where the reference figure is 0', () => {
    const [first, ...rest] = FIXTURE.results;
    if (first === undefined) {
      return expect.fail('fixture');
    }
    const zeroReference: BenchResult = { ...FIXTURE, results: [{ ...first, wallSeconds: 0 }, ...rest] };
    expect(contenderRatios(zeroReference).map((row) => row.ratios.wallSeconds)).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('is empty for a run without contenders', () => {
    expect(contenderRatios({ ...FIXTURE, results: [] })).toEqual([]);
  });
});
