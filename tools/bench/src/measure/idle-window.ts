/**
 * Every scenario's idle figures: the contender's CPU while nothing changes, once the preparation
 * has settled, and its resident memory per 1,000 pods it caches. A controller that is fast in a
 * rollout but burns a core doing nothing, or holds a megabyte per pod, shows it here.
 */
import { setTimeout as sleep } from 'node:timers/promises';

import type { ContenderResult } from '../result.ts';
import type { ProcessSampler } from './process-sampler.ts';

/** What the process tree did in an idle window. */
export interface IdleWindow {
  readonly seconds: number;
  /** CPU seconds per second over the window. */
  readonly cpuCores: number;
  /** The tree's resident memory at the window's end. */
  readonly rssBytes: number;
}

/** The idle figures of a result. */
export type IdleFigures = Pick<
  ContenderResult,
  'idleCpuCores' | 'idleWindowSeconds' | 'rssBytesPer1000Pods' | 'rssBasis'
>;

/**
 * Samples the tree for `seconds` with nothing changing. The window restarts the sampler's CPU count
 * and peak; the measured change marks its own window afterwards.
 */
export async function measureIdleWindow(
  sampler: Pick<ProcessSampler, 'markWindowStart' | 'snapshot'>,
  seconds: number,
  wait: (ms: number) => Promise<unknown> = sleep,
): Promise<IdleWindow> {
  await sampler.markWindowStart();
  await wait(seconds * 1000);
  const snapshot = await sampler.snapshot();
  return { seconds, cpuCores: idleCores(snapshot.cpuSeconds, seconds), rssBytes: snapshot.currentRssBytes };
}

/** Idle controllers use thousandths of a core: four decimals keep them. */
export function idleCores(cpuSeconds: number, seconds: number): number {
  return Number((cpuSeconds / seconds).toFixed(4));
}

/** Bytes per 1,000 pods, rounded to a byte; undefined for no pods. */
export function perThousandPods(bytes: number, pods: number): number | undefined {
  return pods > 0 ? Math.round((bytes / pods) * 1000) : undefined;
}

/**
 * The result's idle figures: CPU from the window; RSS per 1,000 pods from the window's end when the
 * preparation left pods, else (the scenario starts from none) from the end of the change, per pod of
 * the change.
 */
export function idleFigures(input: {
  window: IdleWindow;
  preparedPods: number;
  endOfChange?: { rssBytes: number; pods: number };
}): IdleFigures {
  const { window, preparedPods, endOfChange } = input;
  const rss =
    preparedPods > 0 || endOfChange === undefined
      ? { bytes: window.rssBytes, after: 'preparation' as const, pods: preparedPods }
      : { bytes: endOfChange.rssBytes, after: 'change' as const, pods: endOfChange.pods };
  const perThousand = perThousandPods(rss.bytes, rss.pods);
  return {
    idleCpuCores: window.cpuCores,
    idleWindowSeconds: window.seconds,
    ...(perThousand === undefined
      ? {}
      : { rssBytesPer1000Pods: perThousand, rssBasis: { after: rss.after, pods: rss.pods } }),
  };
}
