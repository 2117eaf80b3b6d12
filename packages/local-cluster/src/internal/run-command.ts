import { spawn } from 'node:child_process';
import { openSync, closeSync } from 'node:fs';

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
}

/**
 * Runs a command to completion with its output in a log file, bounded by a timeout. Any failure
 * (missing executable, non-zero exit, timeout) becomes a LocalClusterError that quotes the log.
 */
export async function runCommand(options: RunCommandOptions): Promise<void> {
  const fd = openSync(options.logFile, 'a');
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(options.command, options.args, {
        cwd: options.cwd,
        env: options.env ?? process.env,
        stdio: ['ignore', fd, fd],
      });
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`timed out after ${Math.round(options.timeoutMs / 1000)}s`));
      }, options.timeoutMs);
      child.once('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        const hint = error.code === 'ENOENT' && options.missingHint !== undefined ? options.missingHint : error.message;
        reject(new Error(`cannot run ${options.command}: ${hint}`));
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        if (code === 0) {
          resolve();
        } else {
          reject(new Error(`exited with ${code === null ? `signal ${String(signal)}` : `code ${String(code)}`}`));
        }
      });
    });
  } catch (error) {
    const logTail = await readLogTail(options.logFile);
    throw new LocalClusterError(
      error instanceof Error ? error.message : String(error),
      { component: options.component, logFile: options.logFile, logTail },
      { cause: error },
    );
  } finally {
    closeSync(fd);
  }
}
