/**
 * Shows each look at a rollout: in a terminal, one frame redrawn in place; elsewhere (a pipe, a log,
 * CI), one plain line per change, kubectl's sentences, so that scripts read what kubectl prints.
 */
import { styleText } from 'node:util';

import { NO_COLOUR, progressFrame } from './progress-frame.ts';
import type { Palette } from './progress-frame.ts';
import type { RolloutProgress } from './rollout-progress.ts';

export type ProgressMode = 'bars' | 'lines';

export interface ProgressWriter {
  show(progress: RolloutProgress): void;
}

export interface WriterOptions {
  readonly mode: ProgressMode;
  readonly write: (text: string) => void;
  readonly title: string;
  readonly columns: number;
  readonly colour: boolean;
}

// The caller decides whether colour is wanted (a terminal, no NO_COLOR); styleText only paints.
const paint =
  (format: Parameters<typeof styleText>[0]) =>
  (text: string): string =>
    styleText(format, text, { validateStream: false });

const COLOURS: Palette = {
  done: paint('green'),
  todo: paint('gray'),
  mark: paint(['bold', 'yellow']),
  failed: paint('red'),
};

/** Lines mode: a sentence each time it changes (the final one always). */
function lineWriter(options: WriterOptions): ProgressWriter {
  let last: string | undefined;
  return {
    show: (progress) => {
      const line = progress.phase === 'failed' ? undefined : progress.message;
      if (line !== undefined && line !== last) {
        options.write(`${line}\n`);
        last = line;
      }
    },
  };
}

/** Bars mode: the frame, redrawn over the previous one (cursor up to its first line, erase below). */
function frameWriter(options: WriterOptions): ProgressWriter {
  const palette = options.colour ? COLOURS : NO_COLOUR;
  let previous: string[] = [];
  return {
    show: (progress) => {
      const frame = progressFrame(progress, { title: options.title, columns: options.columns, palette });
      if (frame.join('\n') === previous.join('\n')) {
        return;
      }
      const rewind = previous.length === 0 ? '' : `\u001b[${String(previous.length)}F\u001b[0J`;
      options.write(`${rewind}${frame.join('\n')}\n`);
      previous = frame;
    },
  };
}

export function progressWriter(options: WriterOptions): ProgressWriter {
  return options.mode === 'bars' ? frameWriter(options) : lineWriter(options);
}
