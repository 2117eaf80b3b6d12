import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { LocalClusterError } from './errors.ts';
import { runCommand } from './run-command.ts';

let dir = '';

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'kruise-ts-run-command-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function shell(script: string, lines: string[]): Parameters<typeof runCommand>[0] {
  return {
    component: 'sh',
    command: '/bin/sh',
    args: ['-c', script],
    logFile: path.join(dir, 'run.log'),
    timeoutMs: 10_000,
    onStderrLine: (line) => lines.push(line),
    omitFromLog: (line) => line.startsWith('chatter'),
  };
}

describe('runCommand with stderr lines', () => {
  it('hands every stderr line over, the last one without a newline too, and logs all but the omitted ones', async () => {
    const lines: string[] = [];
    await runCommand(shell('echo out; echo chatter 1 >&2; echo kept >&2; printf "chatter 2" >&2', lines));
    expect(lines).toEqual(['chatter 1', 'kept', 'chatter 2']);
    expect(await readFile(path.join(dir, 'run.log'), 'utf8')).toBe('out\nkept\n');
  });

  it('quotes the kept lines when the command fails', async () => {
    const lines: string[] = [];
    const failure = await runCommand(shell('echo "main.go:1:1: broken" >&2; echo chatter >&2; exit 3', lines)).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(LocalClusterError);
    expect((failure as LocalClusterError).details.logTail).toBe('main.go:1:1: broken');
    expect((failure as LocalClusterError).message).toContain('exited with code 3');
  });
});
