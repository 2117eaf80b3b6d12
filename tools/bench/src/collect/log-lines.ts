/** Reading the measured window's part of a log file, line by line, without holding the file in memory. */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

/** A byte range of a log file: the measured window's part. */
export interface LogRange {
  readonly fromOffset: number;
  /** Exclusive; the end of the file when absent. */
  readonly toOffset?: number | undefined;
}

/** The lines in `range` of `file` (a partial first line included); none when the range is empty. */
export async function* logLines(file: string, range: LogRange): AsyncGenerator<string> {
  const start = range.fromOffset;
  if (range.toOffset !== undefined && range.toOffset <= start) {
    // Nothing was written in the window (createReadStream's `end` is inclusive and cannot express it).
    return;
  }
  const bounds = range.toOffset === undefined ? { start } : { start, end: range.toOffset - 1 };
  yield* createInterface({ input: createReadStream(file, bounds), crlfDelay: Infinity });
}
