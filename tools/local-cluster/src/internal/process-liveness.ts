import { readFileSync } from 'node:fs';

/**
 * True when a process with this pid exists and has not exited. A zombie (exited, not yet reaped by
 * its parent) still answers signal 0, so on Linux its state in /proc decides.
 */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

function isZombie(pid: number): boolean {
  try {
    // The state follows the parenthesised command name, which may itself contain spaces.
    const stat = readFileSync(`/proc/${String(pid)}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}

/**
 * True when `pid` is alive and its command line contains `fragment`. Pids are reused by the kernel,
 * so a pid read from an old state file is only trusted (and only ever signalled) when the process
 * still runs the binary that was started under it.
 */
export function isOurProcess(pid: number, fragment: string): boolean {
  if (!isProcessAlive(pid)) {
    return false;
  }
  try {
    return readFileSync(`/proc/${String(pid)}/cmdline`, 'utf8').includes(fragment);
  } catch {
    return false;
  }
}
