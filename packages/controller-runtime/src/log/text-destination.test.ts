import { describe, expect, it } from 'vitest';

import { createLogger } from './logger.ts';
import { formatTextLine } from './text-destination.ts';

describe('text log lines', () => {
  it.each([
    {
      json: '{"level":"info","time":"2026-01-02T03:04:05.000Z","msg":"Scaling out","controller":"cloneset","creations":3}',
      text: '2026-01-02T03:04:05.000Z INFO  Scaling out controller=cloneset creations=3',
    },
    {
      json: '{"level":"warn","time":"t","msg":"Odd","reason":"two words","selected":["a","b"]}',
      text: 't WARN  Odd reason="two words" selected="[\\"a\\",\\"b\\"]"',
    },
    { json: 'not json', text: 'not json' },
  ])('$text', ({ json, text }) => {
    expect(formatTextLine(json)).toBe(text);
  });

  it('puts an error message in err= and its stack below', () => {
    const line = formatTextLine(
      JSON.stringify({
        level: 'error',
        time: 't',
        msg: 'Failed',
        err: { message: 'boom', stack: 'Error: boom\n    at x' },
      }),
    );
    expect(line).toBe('t ERROR Failed err=boom\n    Error: boom\n        at x');
  });

  it('is what createLogger writes with format text', () => {
    const lines: string[] = [];
    const logger = createLogger({
      level: 'info',
      format: 'text',
      base: { app: 'cloneset' },
      destination: { write: (text: string) => lines.push(text) },
    });
    logger.info({ name: 'web' }, 'Hello');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z INFO {2}Hello app=cloneset name=web\n$/);
  });
});
