/**
 * Resident memory and CPU time of a process and all its descendants, read from /proc. A contender
 * may be any command (`sh -c "npm run ..."` starts several processes), so the figures are those of
 * the whole tree, sampled at a fixed interval.
 */
import { readdir, readFile, readlink } from 'node:fs/promises';
import path from 'node:path';

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ, 100 on Linux for every architecture we run on). */
const TICKS_PER_SECOND = 100;
const PAGE_SIZE_BYTES = 4096;

interface ProcStat {
  readonly pid: number;
  readonly ppid: number;
  /** utime + stime + cutime + cstime: the process and its reaped children. */
  readonly cpuTicks: number;
  readonly rssBytes: number;
}

/** Parses /proc/<pid>/stat; the command name may hold spaces and parentheses, so fields are counted after the last ')'. */
export function parseProcStat(pid: number, text: string): ProcStat | undefined {
  const close = text.lastIndexOf(')');
  if (close < 0) {
    return undefined;
  }
  // Fields after the name start at field 3 (state); ppid is 4, utime 14, stime 15, cutime 16, cstime 17, rss 24.
  const fields = text
    .slice(close + 2)
    .trim()
    .split(' ');
  const field = (n: number): number => Number(fields[n - 3] ?? Number.NaN);
  const cpuTicks = field(14) + field(15) + field(16) + field(17);
  const rssPages = field(24);
  if (!Number.isFinite(cpuTicks) || !Number.isFinite(rssPages)) {
    return undefined;
  }
  return { pid, ppid: field(4), cpuTicks, rssBytes: rssPages * PAGE_SIZE_BYTES };
}

/** CPU seconds a process (with its reaped children) has used so far; undefined when it is gone. */
export async function processCpuSeconds(pid: number): Promise<number | undefined> {
  const stat = await readStat(pid);
  return stat === undefined ? undefined : stat.cpuTicks / TICKS_PER_SECOND;
}

/** A process's resident memory now (its own, not its children's); undefined when it is gone. */
export async function processRssBytes(pid: number): Promise<number | undefined> {
  return (await readStat(pid))?.rssBytes;
}

async function readStat(pid: number): Promise<ProcStat | undefined> {
  try {
    return parseProcStat(pid, await readFile(`/proc/${String(pid)}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Every process in /proc (one read per process; a few hundred on a test machine). */
async function allStats(): Promise<ProcStat[]> {
  const entries = await readdir('/proc');
  const pids = entries.filter((entry) => /^\d+$/.test(entry)).map(Number);
  const stats = await Promise.all(pids.map(readStat));
  return stats.filter((stat): stat is ProcStat => stat !== undefined);
}

/** The root and its descendants among `stats`. */
export function processTree(rootPid: number, stats: readonly ProcStat[]): ProcStat[] {
  const children = new Map<number, ProcStat[]>();
  for (const stat of stats) {
    children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), stat]);
  }
  const root = stats.find((stat) => stat.pid === rootPid);
  if (root === undefined) {
    return [];
  }
  const tree: ProcStat[] = [];
  const pending = [root];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    tree.push(next);
    pending.push(...(children.get(next.pid) ?? []));
  }
  return tree;
}

/**
 * Whether the process runs the Node.js binary. Its command name says nothing: Node.js 24 names its
 * main thread, and so /proc/<pid>/comm, "MainThread" (a check of comm = "node" signalled nobody).
 */
async function runsNode(pid: number): Promise<boolean> {
  const executable = await readlink(`/proc/${String(pid)}/exe`).catch(() => '');
  return path.basename(executable) === 'node';
}

/**
 * Sends `signal` to the Node.js processes of the tree under `rootPid`; returns how many got it. A
 * shell in the tree would die of SIGUSR2, so only those.
 */
export async function signalNodeProcesses(rootPid: number, signal: NodeJS.Signals): Promise<number> {
  const tree = processTree(rootPid, await allStats());
  let sent = 0;
  for (const stat of tree) {
    if (await runsNode(stat.pid)) {
      process.kill(stat.pid, signal);
      sent += 1;
    }
  }
  return sent;
}

/** A running sampler of one process tree. */
export interface ProcessSampler {
  /** Starts a measured window: CPU seconds and peak RSS count from now. */
  markWindowStart(): Promise<void>;
  /** Peak RSS (of the tree, summed) and CPU seconds since the window started. */
  snapshot(): Promise<{ readonly peakRssBytes: number; readonly cpuSeconds: number; readonly currentRssBytes: number }>;
  stop(): void;
}

/**
 * Samples the tree under `rootPid` every `intervalMs`. CPU time of a process that exits during the
 * window is kept at its last sampled value (its parent's cutime takes it over once reaped, which is
 * why a pid's figure is only ever allowed to grow).
 */
export function startProcessSampler(rootPid: number, intervalMs: number): ProcessSampler {
  const lastTicks = new Map<number, number>();
  let windowStartTicks = 0;
  let peakRssBytes = 0;
  let currentRssBytes = 0;
  const totalTicks = (): number => [...lastTicks.values()].reduce((sum, ticks) => sum + ticks, 0);
  const sample = async (): Promise<void> => {
    const tree = processTree(rootPid, await allStats());
    currentRssBytes = tree.reduce((sum, stat) => sum + stat.rssBytes, 0);
    peakRssBytes = Math.max(peakRssBytes, currentRssBytes);
    for (const stat of tree) {
      lastTicks.set(stat.pid, Math.max(lastTicks.get(stat.pid) ?? 0, stat.cpuTicks));
    }
  };
  let sampling = Promise.resolve();
  const timer = setInterval(() => {
    sampling = sampling.then(sample);
  }, intervalMs);
  return {
    async markWindowStart() {
      await sampling;
      await sample();
      windowStartTicks = totalTicks();
      peakRssBytes = currentRssBytes;
    },
    async snapshot() {
      await sampling;
      await sample();
      return { peakRssBytes, cpuSeconds: (totalTicks() - windowStartTicks) / TICKS_PER_SECOND, currentRssBytes };
    },
    stop() {
      clearInterval(timer);
    },
  };
}
