/**
 * One run of a container: a process group on this machine, its output appended to the container's
 * log file, its resident memory held to the container's memory limit (killed with SIGKILL and
 * reported OOMKilled above it, as the kernel's cgroup OOM killer would), stopped gracefully.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

export interface ContainerExit {
  readonly exitCode: number;
  readonly signal: NodeJS.Signals | null;
  readonly oomKilled: boolean;
  readonly finishedAt: Date;
}

export interface ContainerProcessSpec {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly logFile: string;
  /** Bytes; undefined: no limit. */
  readonly memoryLimit: number | undefined;
}

const MEMORY_POLL_MS = 250;
const SIGNAL_NUMBERS: Readonly<Partial<Record<NodeJS.Signals, number>>> = {
  SIGHUP: 1,
  SIGINT: 2,
  SIGKILL: 9,
  SIGSEGV: 11,
  SIGTERM: 15,
  SIGABRT: 6,
};

/** Resident memory of a process in bytes (VmRSS), or undefined once it is gone. */
export async function residentBytes(pid: number): Promise<number | undefined> {
  try {
    const status = await readFile(`/proc/${String(pid)}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+)\s+kB$/mu.exec(status);
    return match === null ? undefined : Number(match[1]) * 1024;
  } catch {
    return undefined;
  }
}

export class ContainerProcess {
  readonly pid: number;
  readonly startedAt = new Date();
  readonly exited: Promise<ContainerExit>;
  #oomKilled = false;
  #memoryTimer: NodeJS.Timeout | undefined;

  /** Throws (ENOENT and the like) when the command cannot be started. */
  static async start(spec: ContainerProcessSpec): Promise<ContainerProcess> {
    const log = openSync(spec.logFile, 'a');
    try {
      const child = spawn(spec.command, spec.args, {
        cwd: spec.cwd,
        env: spec.env,
        detached: true,
        stdio: ['ignore', log, log],
      });
      await new Promise<void>((resolve, reject) => {
        child.once('spawn', resolve);
        child.once('error', reject);
      });
      return new ContainerProcess(
        child.pid ?? 0,
        new Promise((resolve) =>
          child.once('exit', (code, signal) => {
            resolve({ code, signal });
          }),
        ),
        spec.memoryLimit,
      );
    } finally {
      closeSync(log);
    }
  }

  private constructor(
    pid: number,
    exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>,
    memoryLimit: number | undefined,
  ) {
    this.pid = pid;
    this.exited = exit.then(({ code, signal }) => {
      clearInterval(this.#memoryTimer);
      const exitCode = code ?? 128 + (signal === null ? 0 : (SIGNAL_NUMBERS[signal] ?? 0));
      return { exitCode, signal, oomKilled: this.#oomKilled, finishedAt: new Date() };
    });
    if (memoryLimit !== undefined) {
      this.#memoryTimer = setInterval(() => void this.#checkMemory(memoryLimit), MEMORY_POLL_MS);
    }
  }

  /** Signals the whole process group (the container's processes), ignoring one already gone. */
  signal(signal: NodeJS.Signals): void {
    try {
      process.kill(-this.pid, signal);
    } catch {
      // already exited
    }
  }

  /** SIGTERM, then SIGKILL after `graceMs` if it is still running; resolves when it exited. */
  async stop(graceMs: number): Promise<ContainerExit> {
    this.signal('SIGTERM');
    const timer = setTimeout(() => {
      this.signal('SIGKILL');
    }, graceMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  async #checkMemory(limit: number): Promise<void> {
    const bytes = await residentBytes(this.pid);
    if (bytes !== undefined && bytes > limit && !this.#oomKilled) {
      this.#oomKilled = true;
      this.signal('SIGKILL');
    }
  }
}
