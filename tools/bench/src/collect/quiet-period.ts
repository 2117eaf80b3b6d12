/**
 * Waits until nobody has written a pod for a while, judged by the API server's audit log. A
 * scenario's preparation is "settled" as soon as the workload's status says so, but the simulated
 * kubelets may still be working off the preparation's events then (kwok replays stages from stale
 * snapshots, for seconds at 5,000 pods); a change started in that tail competes with it for the API
 * server. Waiting for quiet makes runs start from the same state.
 */
import { open } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

import { isPodResource, isWriteVerb, parseAuditEvent, resourceName } from './audit-log.ts';
import { timestampMicros } from './audit-time.ts';

export interface QuietPeriodOptions {
  /** How long no pod write may have been seen. */
  readonly quietMs: number;
  /** Give up (and say so) after this long. */
  readonly timeoutMs: number;
  /** How often the log is read. */
  readonly pollMs?: number;
}

export interface QuietPeriodOutcome {
  /** Whether the quiet period was reached before the timeout. */
  readonly quiet: boolean;
  /** How long the wait took. */
  readonly waitedSeconds: number;
  /** Pod writes seen while waiting. */
  readonly podWritesSeen: number;
}

/**
 * When an audit log line's pod write completed (milliseconds since the epoch); undefined when the
 * line is no completed write of a pod (or of one of its subresources).
 */
export function podWriteTime(line: string): number | undefined {
  // Most lines are other requests; the cheap check first.
  if (!line.includes('"pods"')) {
    return undefined;
  }
  const event = parseAuditEvent(line);
  if (event === undefined || event.stage !== 'ResponseComplete' || !isWriteVerb(event.verb)) {
    return undefined;
  }
  const resource = resourceName(event);
  if (resource === undefined || !isPodResource(resource)) {
    return undefined;
  }
  const micros = timestampMicros(event.stageTimestamp);
  return micros === undefined ? undefined : micros / 1000;
}

/** Reads the whole lines appended to `file` since `offset`; returns them and the offset after the last newline. */
async function readNewLines(file: string, offset: number): Promise<{ lines: string[]; offset: number }> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    if (size <= offset) {
      return { lines: [], offset };
    }
    const buffer = Buffer.alloc(size - offset);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset);
    const text = buffer.subarray(0, bytesRead).toString('utf8');
    const end = text.lastIndexOf('\n');
    if (end < 0) {
      return { lines: [], offset };
    }
    // A line still being written stays for the next read.
    return { lines: text.slice(0, end).split('\n'), offset: offset + Buffer.byteLength(text.slice(0, end + 1)) };
  } finally {
    await handle.close();
  }
}

/**
 * Waits until `file` (an audit log) shows no pod write for `quietMs`, reading it from `fromOffset`.
 * The log's own timestamps date the writes (the API server runs on this machine, with this clock), so
 * writes long past when the wait starts do not prolong it; a log without any pod write since
 * `fromOffset` makes it wait `quietMs` from its start.
 */
export async function waitForQuietPods(
  file: string,
  fromOffset: number,
  options: QuietPeriodOptions,
): Promise<QuietPeriodOutcome> {
  const pollMs = options.pollMs ?? 250;
  const started = Date.now();
  let offset = fromOffset;
  // Until the log shows a write, the start counts as one: an empty read proves no quiet yet.
  let lastWriteAt: number | undefined;
  let seen = 0;
  for (;;) {
    const read = await readNewLines(file, offset);
    offset = read.offset;
    for (const line of read.lines) {
      const at = podWriteTime(line);
      if (at !== undefined) {
        seen += 1;
        lastWriteAt = Math.max(lastWriteAt ?? at, at);
      }
    }
    const now = Date.now();
    const waitedSeconds = Number(((now - started) / 1000).toFixed(3));
    if (now - (lastWriteAt ?? started) >= options.quietMs) {
      return { quiet: true, waitedSeconds, podWritesSeen: seen };
    }
    if (now - started >= options.timeoutMs) {
      return { quiet: false, waitedSeconds, podWritesSeen: seen };
    }
    await sleep(pollMs);
  }
}
