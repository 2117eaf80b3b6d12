/**
 * The terminal view of a rollout: the object and its notes, one bar per count with the partition
 * marked, the pods in flight, and kubectl's sentence. Pure: the caller redraws it in place.
 */
import { stripVTControlCharacters } from 'node:util';

import type { PodInFlight, ProgressBar, RolloutProgress } from './rollout-progress.ts';

/** Colours of the bar parts; identity where the output has none. */
export interface Palette {
  readonly done: (text: string) => string;
  readonly todo: (text: string) => string;
  readonly mark: (text: string) => string;
  readonly failed: (text: string) => string;
}

export const NO_COLOUR: Palette = {
  done: (text) => text,
  todo: (text) => text,
  mark: (text) => text,
  failed: (text) => text,
};

const MAX_BAR_WIDTH = 40;
const MIN_BAR_WIDTH = 10;
const LABEL_WIDTH = 14;
const MAX_NAMED_PODS = 6;

/** The bar cells filled for `value` of `total` (a total of 0 draws an empty bar). */
function cellsFor(value: number, total: number, width: number): number {
  return total <= 0 ? 0 : Math.min(width, Math.round((Math.max(0, value) * width) / total));
}

function drawBar(bar: ProgressBar, width: number, palette: Palette): string {
  const filled = cellsFor(bar.value, bar.total, width);
  // The mark sits just after the last cell the update may fill.
  const mark =
    bar.mark !== undefined && bar.mark < bar.total
      ? Math.min(width - 1, cellsFor(bar.mark, bar.total, width))
      : undefined;
  const run = (paint: (text: string) => string, text: string): string => (text === '' ? '' : paint(text));
  const cells = (from: number, to: number): string =>
    run(palette.done, '█'.repeat(Math.max(0, Math.min(to, filled) - from))) +
    run(palette.todo, '░'.repeat(Math.max(0, to - Math.max(from, filled))));
  const drawn = mark === undefined ? cells(0, width) : `${cells(0, mark)}${palette.mark('│')}${cells(mark + 1, width)}`;
  return `  ${bar.label.padEnd(LABEL_WIDTH)}${drawn}  ${String(bar.value)}/${String(bar.total)}`;
}

function inFlightLine(pods: readonly PodInFlight[]): string {
  const named = pods.slice(0, MAX_NAMED_PODS).map((pod) => `${pod.name} (${pod.state})`);
  const more = pods.length > MAX_NAMED_PODS ? `, and ${String(pods.length - MAX_NAMED_PODS)} more` : '';
  return `  ${'in flight'.padEnd(LABEL_WIDTH)}${pods.length === 0 ? '-' : named.join(', ') + more}`;
}

export interface FrameOptions {
  /** `cloneset.apps.kruise.io/web`. */
  readonly title: string;
  /** The terminal's width; lines are cut to it so that redrawing in place counts lines right. */
  readonly columns: number;
  readonly palette: Palette;
}

/** The frame's lines, without line ends. */
export function progressFrame(progress: RolloutProgress, options: FrameOptions): string[] {
  const width = Math.max(MIN_BAR_WIDTH, Math.min(MAX_BAR_WIDTH, options.columns - LABEL_WIDTH - 16));
  const notes = progress.notes.length === 0 ? '' : `  (${progress.notes.join(', ')})`;
  const message = progress.phase === 'failed' ? options.palette.failed(`error: ${progress.message}`) : progress.message;
  const lines = [`${options.title}${notes}`, ...progress.bars.map((bar) => drawBar(bar, width, options.palette))];
  if (progress.inFlight.length > 0 || progress.phase === 'waiting') {
    lines.push(inFlightLine(progress.inFlight));
  }
  lines.push(message);
  return lines.map((line) => cutToWidth(line, options.columns));
}

/** The line cut to `columns` visible characters; an overlong coloured line loses its colours. */
function cutToWidth(line: string, columns: number): string {
  const visible = stripVTControlCharacters(line);
  return visible.length <= columns ? line : `${visible.slice(0, columns - 1)}…`;
}
