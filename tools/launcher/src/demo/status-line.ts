/** How the demo shows a workload's or a job's progress: one line, redrawn in place on a terminal. */
import type { BroadcastJob, CloneSet } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

/** The counters the line shows. */
export interface Progress {
  readonly desired: number;
  readonly replicas: number;
  readonly updated: number;
  readonly ready: number;
  readonly available: number;
}

export function progressOf(cs: DeepReadonly<CloneSet>): Progress {
  return {
    desired: cs.spec.replicas,
    replicas: cs.status?.replicas ?? 0,
    updated: cs.status?.updatedReplicas ?? 0,
    ready: cs.status?.readyReplicas ?? 0,
    available: cs.status?.availableReplicas ?? 0,
  };
}

/** `desired 5  replicas 5  updated 2  ready 5  available 5` */
export function progressText(progress: Progress): string {
  const { desired, replicas, updated, ready, available } = progress;
  return `desired ${String(desired)}  replicas ${String(replicas)}  updated ${String(updated)}  ready ${String(ready)}  available ${String(available)}`;
}

/** `desired 4  active 2  succeeded 1  failed 0  running`: a BroadcastJob's counters and phase. */
export function jobProgressText(job: DeepReadonly<BroadcastJob>): string {
  const status = job.status ?? { desired: 0, active: 0, succeeded: 0, failed: 0 };
  const counters = `desired ${String(status.desired)}  active ${String(status.active)}  succeeded ${String(status.succeeded)}  failed ${String(status.failed)}`;
  return `${counters}  ${status.phase ?? 'pending'}`;
}

/** `[  1.2s] <name>  <text>` */
export function timedLine(name: string, text: string, elapsedMs: number): string {
  const seconds = `${(elapsedMs / 1000).toFixed(1)}s`.padStart(6);
  return `[${seconds}] ${name}  ${text}`;
}

/** `[  1.2s] sample  desired 5  replicas 5  updated 2  ready 5  available 5` */
export function statusLine(name: string, progress: Progress, elapsedMs: number): string {
  return timedLine(name, progressText(progress), elapsedMs);
}

/** Where the demo writes: a terminal gets the line redrawn in place, anything else one line per change. */
export interface Output {
  write(text: string): unknown;
  readonly isTTY?: boolean | undefined;
}

/** Shows `line`: on a terminal over the previous one, else as a new line. */
export function showLine(out: Output, line: string): void {
  out.write(out.isTTY === true ? `\r\x1b[K${line}` : `${line}\n`);
}

/** Ends a redrawn line so that the next output starts below it. */
export function endLine(out: Output): void {
  if (out.isTTY === true) {
    out.write('\n');
  }
}
