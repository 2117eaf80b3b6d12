/**
 * Each contender's headline figures relative to the reference (the first contender of the run), so
 * the report can say "half the writes per pod" instead of leaving the division to the reader.
 */
import type { BenchResult, ContenderResult } from '../result.ts';

/** The figures that get a ratio. */
export const RATIO_FIGURES = [
  'wallSeconds',
  'writesPerPod',
  'podWritesPerPod',
  'requests',
  'peakRssBytes',
  'peakHeapUsedBytes',
  'cpuSeconds',
  'reconcileP99Seconds',
  'mutatingP99Seconds',
  'idleCpuCores',
  'rssBytesPer1000Pods',
] as const;
export type RatioFigure = (typeof RATIO_FIGURES)[number];

/** A value per figure; undefined where it was not measured. */
export type FigureValues = Readonly<Record<RatioFigure, number | undefined>>;

/** One contender's figures and their ratios to the reference's. */
export interface ContenderRatios {
  readonly name: string;
  readonly figures: FigureValues;
  /** `figure / reference figure`; undefined when either is missing or the reference's is 0. */
  readonly ratios: FigureValues;
}

function finite(value: number | undefined): number | undefined {
  return value !== undefined && Number.isFinite(value) ? value : undefined;
}

/**
 * A contender's figures (a latency summary of no requests counts as missing, not as 0 s). A steady
 * result written before every scenario had idle figures has them in its steady figures.
 */
export function figureValues(result: ContenderResult): FigureValues {
  const mutating = result.requests.mutatingLatency;
  return {
    wallSeconds: finite(result.wallSeconds),
    writesPerPod: finite(result.requests.writesPerPod),
    podWritesPerPod: finite(result.requests.podWritesPerPod),
    requests: finite(result.requests.total),
    peakRssBytes: finite(result.process.peakRssBytes),
    peakHeapUsedBytes: finite(result.metrics.peakHeapUsedBytes),
    cpuSeconds: finite(result.process.cpuSeconds),
    reconcileP99Seconds: finite(result.metrics.reconcileP99Seconds),
    mutatingP99Seconds: mutating.count > 0 ? finite(mutating.p99Seconds) : undefined,
    idleCpuCores: finite(result.idleCpuCores ?? result.steady?.idleCpuCoresUsed),
    rssBytesPer1000Pods: finite(result.rssBytesPer1000Pods ?? result.steady?.rssBytesPer1000Pods),
  };
}

/** `value / reference`; undefined when either is missing or not finite, or the reference is 0. */
export function ratio(value: number | undefined, reference: number | undefined): number | undefined {
  const numerator = finite(value);
  const denominator = finite(reference);
  return numerator === undefined || denominator === undefined || denominator === 0
    ? undefined
    : numerator / denominator;
}

/** Every contender's figures and ratios, in the order of the run (the first one's ratios are 1 where defined). */
export function contenderRatios(result: BenchResult): ContenderRatios[] {
  const reference = result.results[0] === undefined ? undefined : figureValues(result.results[0]);
  return result.results.map((contender) => {
    const figures = figureValues(contender);
    const ratios = Object.fromEntries(
      RATIO_FIGURES.map((figure) => [figure, ratio(figures[figure], reference?.[figure])]),
    ) as Record<RatioFigure, number | undefined>;
    return { name: contender.contender.name, figures, ratios };
  });
}
