/**
 * A pino destination that writes human-readable lines instead of JSON (`--log-format=text`):
 *
 *   2026-11-21T17:02:03.456Z INFO  Scaling out controller=cloneset namespace=ns name=web creations=3
 *
 * Values that contain spaces, quotes or `=` are JSON-quoted, so a line stays parseable as logfmt.
 * Errors keep their message and stack on the lines below.
 */
import type { DestinationStream } from 'pino';

const FIXED_KEYS = new Set(['time', 'level', 'msg']);

function formatValue(value: unknown): string {
  const text = formatPlain(value);
  return /^[^\s"=]+$/.test(text) ? text : JSON.stringify(text);
}

/** A value as plain text: strings as they are, anything else as JSON. */
function formatPlain(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function errorStack(value: unknown): string | undefined {
  if (typeof value === 'object' && value !== null && 'stack' in value && typeof value.stack === 'string') {
    return value.stack;
  }
  return undefined;
}

/** One JSON log record as a text line (exported for tests). */
export function formatTextLine(json: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const text = (key: string): string => {
    const value = record[key];
    return value === undefined ? '' : formatPlain(value);
  };
  const level = text('level').toUpperCase().padEnd(5);
  const fields = Object.entries(record)
    .filter(([key]) => !FIXED_KEYS.has(key) && key !== 'err')
    .map(([key, value]) => `${key}=${formatValue(value)}`);
  const err = record['err'];
  const stack = errorStack(err);
  const errField =
    err === undefined
      ? []
      : [`err=${formatValue(typeof err === 'object' && err !== null && 'message' in err ? err.message : err)}`];
  const head = [text('time'), level, text('msg'), ...fields, ...errField].filter((part) => part !== '').join(' ');
  return stack === undefined ? head : `${head}\n${stack.replace(/^/gm, '    ')}`;
}

/** Anything lines can be written to: a stream or another pino destination. */
export interface TextSink {
  write(text: string): unknown;
}

/** A destination writing text lines to `sink` (stdout by default). */
export function textDestination(sink: TextSink = process.stdout): DestinationStream {
  const stream = sink;
  return {
    write: (chunk: string) => {
      for (const line of chunk.split('\n')) {
        if (line !== '') {
          stream.write(`${formatTextLine(line)}\n`);
        }
      }
    },
  };
}
