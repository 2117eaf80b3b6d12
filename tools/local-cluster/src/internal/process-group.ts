import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

import { LocalClusterError } from './errors.ts';
import { isOurProcess } from './process-liveness.ts';

export interface ProcessSpec {
  /** Component name used in logs and errors. */
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  /** stdout and stderr are appended here. */
  readonly logFile: string;
}

export interface ExitInfo {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** One started component. */
export interface StartedProcess {
  readonly name: string;
  readonly pid: number;
  readonly command: string;
  readonly logFile: string;
  /** Resolves when the process exits, for whatever reason. */
  readonly exited: Promise<ExitInfo>;
  /** Set once the process has exited. */
  exitInfo(): ExitInfo | undefined;
}

const STOP_GRACE_MS = 10_000;

/**
 * The processes of one cluster, stopped in reverse start order. Every child runs in its own process
 * group so that Ctrl-C in a terminal reaches only us and we shut the cluster down in order; in turn
 * nothing else may leave them running, which is what `killAllNow` (on exit) and the reaper are for.
 */
export class ProcessGroup {
  readonly #processes: StartedProcess[] = [];

  get processes(): readonly StartedProcess[] {
    return this.#processes;
  }

  /** Starts a process with its output in its log file. Throws when it cannot be spawned. */
  start(spec: ProcessSpec): StartedProcess {
    const fd = openSync(spec.logFile, 'a');
    let child;
    try {
      child = spawn(spec.command, spec.args, { detached: true, stdio: ['ignore', fd, fd] });
    } finally {
      closeSync(fd);
    }
    const { pid } = child;
    if (pid === undefined) {
      throw new LocalClusterError(`cannot start ${spec.command}`, { component: spec.name, logFile: spec.logFile });
    }
    child.unref();
    let exitInfo: ExitInfo | undefined;
    const exited = new Promise<ExitInfo>((resolve) => {
      child.once('exit', (code, signal) => {
        exitInfo = { code, signal };
        resolve(exitInfo);
      });
    });
    const started: StartedProcess = {
      name: spec.name,
      pid,
      command: spec.command,
      logFile: spec.logFile,
      exited,
      exitInfo: () => exitInfo,
    };
    this.#processes.push(started);
    return started;
  }

  /** Stops one process (SIGTERM, then SIGKILL after the grace period) and forgets it. */
  async stop(child: StartedProcess, graceMs: number = STOP_GRACE_MS): Promise<void> {
    await stopProcess(child, graceMs);
    const index = this.#processes.indexOf(child);
    if (index >= 0) {
      this.#processes.splice(index, 1);
    }
  }

  /** SIGTERM in reverse start order, SIGKILL for any that outlive the grace period. */
  async stopAll(graceMs: number = STOP_GRACE_MS): Promise<void> {
    for (const child of [...this.#processes].reverse()) {
      await stopProcess(child, graceMs);
    }
    this.#processes.length = 0;
  }

  /** Synchronous last resort for `process.on('exit')`, where no promise can be awaited. */
  killAllNow(): void {
    for (const child of this.#processes) {
      if (child.exitInfo() === undefined) {
        signal(child.pid, 'SIGKILL');
      }
    }
  }
}

async function stopProcess(child: StartedProcess, graceMs: number): Promise<void> {
  if (child.exitInfo() !== undefined) {
    return;
  }
  signal(child.pid, 'SIGTERM');
  const timedOut = Symbol('timeout');
  const result = await Promise.race([child.exited, sleep(graceMs, timedOut)]);
  if (result === timedOut) {
    signal(child.pid, 'SIGKILL');
    await child.exited;
  }
}

/**
 * Stops processes this module did not spawn itself (they come from a state file), trusting a pid only
 * while its command line still names the binary started under it.
 */
export async function stopRecordedProcesses(
  records: readonly { pid: number; command: string }[],
  graceMs: number = STOP_GRACE_MS,
): Promise<void> {
  for (const record of [...records].reverse()) {
    if (!isOurProcess(record.pid, record.command)) {
      continue;
    }
    signal(record.pid, 'SIGTERM');
    const deadline = Date.now() + graceMs;
    while (isOurProcess(record.pid, record.command) && Date.now() < deadline) {
      await sleep(100);
    }
    if (isOurProcess(record.pid, record.command)) {
      signal(record.pid, 'SIGKILL');
    }
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}
