import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { closeSync, openSync, writeSync } from 'node:fs';

import { LocalClusterError } from './errors.ts';
import { readLogTail } from './log-tail.ts';

export interface RunCommandOptions {
  /** Name used in errors: `go build kube`, `openssl`, ... */
  readonly component: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** stdout and stderr are appended here. */
  readonly logFile: string;
  readonly timeoutMs: number;
  /** Printed when the command cannot be started at all (ENOENT). */
  readonly missingHint?: string;
  /** Gets each line of stderr as it arrives; stderr goes to the log file too. */
  readonly onStderrLine?: (line: string) => void;
  /**
   * Lines of stderr to leave out of the log file: progress chatter (thousands of package names from
   * `go build -v`) would otherwise push the errors out of the log tail that a failure quotes.
   */
  readonly omitFromLog?: (line: string) => boolean;
}

/**
 * Runs a command to completion with its output in a log file, bounded by a timeout. Any failure
 * (missing executable, non-zero exit, timeout) becomes a LocalClusterError that quotes the log.
 */
export async function runCommand(options: RunCommandOptions): Promise<void> {
  const fd = openSync(options.logFile, 'a');
  const child = spawn(options.command, options.args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['ignore', fd, options.onStderrLine === undefined ? fd : 'pipe'],
  });
  if (options.onStderrLine !== undefined) {
    const { onStderrLine, omitFromLog } = options;
    teeStderr(child, (line) => {
      onStderrLine(line);
      if (omitFromLog?.(line) !== true) {
        writeSync(fd, `${line}\n`);
      }
    });
  }
  try {
    await new Promise<void>((resolve, reject) => {
      settleOnExit(child, options, { resolve, reject });
    });
  } catch (error) {
    const logTail = await readLogTail(options.logFile);
    throw new LocalClusterError(
      error instanceof Error ? error.message : String(error),
      { component: options.component, logFile: options.logFile, logTail },
      { cause: error },
    );
  } finally {
    // After a timeout the killed command's own children may still write to the pipe; nothing may
    // reach the file descriptor once it is closed (its number may already belong to another file).
    child.stderr?.destroy();
    closeSync(fd);
  }
}

/** Hands each line of stderr to `onLine`, the last one even without a newline. */
function teeStderr(child: ChildProcess, onLine: (line: string) => void): void {
  let partial = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    lines.forEach(onLine);
  });
  child.stderr?.once('end', () => {
    if (partial !== '') {
      onLine(partial);
    }
  });
}

function settleOnExit(
  child: ChildProcess,
  options: RunCommandOptions,
  settle: { resolve: () => void; reject: (error: Error) => void },
): void {
  const timer = setTimeout(() => {
    child.kill('SIGKILL');
    settle.reject(new Error(`timed out after ${Math.round(options.timeoutMs / 1000)}s`));
  }, options.timeoutMs);
  child.once('error', (error: NodeJS.ErrnoException) => {
    clearTimeout(timer);
    const hint = error.code === 'ENOENT' && options.missingHint !== undefined ? options.missingHint : error.message;
    settle.reject(new Error(`cannot run ${options.command}: ${hint}`));
  });
  // 'close', not 'exit': a piped stderr may still hold the last lines when the process has exited,
  // and the log file is closed (and quoted) right after this settles.
  child.once('close', (code, signal) => {
    clearTimeout(timer);
    if (code === 0) {
      settle.resolve();
    } else {
      settle.reject(new Error(`exited with ${code === null ? `signal ${String(signal)}` : `code ${String(code)}`}`));
    }
  });
}
