import pino from 'pino';
import type { Logger } from 'pino';

import { textDestination } from './text-destination.ts';

/** Log levels, from pino. */
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface LoggerOptions {
  readonly level: LogLevel;
  /** Added to every line, e.g. `{ app: 'cloneset' }`. */
  readonly base?: Readonly<Record<string, string>> | undefined;
  /** Where lines go; stdout by default. */
  readonly destination?: pino.DestinationStream | undefined;
  /** `json` (default) or `text` (human-readable lines, see text-destination.ts). */
  readonly format?: LogFormat | undefined;
}

/** Log line formats (`--log-format`). */
export type LogFormat = 'json' | 'text';

/**
 * A structured JSON logger. Keys follow Kubernetes' structured-logging conventions where they
 * exist (`controller`, `namespace`, `name`, `reconcileID`, `err`), so that the lines read like
 * controller-runtime's in a log pipeline; messages start with a capital letter and have no period.
 */
export function createLogger(options: LoggerOptions): Logger {
  return pino(
    {
      level: options.level,
      base: { ...options.base },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    options.format === 'text' ? textDestination(options.destination ?? process.stdout) : options.destination,
  );
}
