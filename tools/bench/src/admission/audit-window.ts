/**
 * The loop's window in the API server's audit log: the server-side time of each CloneSet create
 * (request received → response complete, without the client's own overhead) and the launcher's
 * dry-run pod creates, the webhook's one API call per cache miss.
 */
import { logLines, parseAuditEvent, resourceName, timestampMicros } from '../collect/index.ts';
import type { AuditEvent, LogRange } from '../collect/index.ts';
import { millisecondStats } from './stats.ts';
import type { MillisecondStats } from './stats.ts';

const DRY_RUN = /[?&]dryRun=/;

/** Whose requests the window's figures are. */
export interface AuditWindowSelectors {
  /** The loop's namespace. */
  readonly namespace: string;
  /** The loop's client (its user agent; it shares the admin identity with the control plane). */
  readonly loopUserAgent: string;
  /** The launcher's identity. */
  readonly launcherUsername: string;
}

export interface AuditWindow {
  /** The loop's CloneSet creates, server-side. */
  readonly cloneSetCreates: MillisecondStats;
  /** The launcher's dry-run pod creates (the webhook's, and the controller's own template checks if any). */
  readonly dryRunPodCreates: MillisecondStats;
}

function isDryRun(event: AuditEvent): boolean {
  return DRY_RUN.test(event.requestURI ?? '');
}

/** One of the loop's CloneSet creates (not a dry run: the probes are). */
export function isLoopCreate(event: AuditEvent, selectors: AuditWindowSelectors): boolean {
  return (
    event.verb === 'create' &&
    resourceName(event) === 'clonesets' &&
    event.objectRef?.['namespace'] === selectors.namespace &&
    (event.userAgent ?? '').startsWith(selectors.loopUserAgent) &&
    !isDryRun(event)
  );
}

/** One of the launcher's dry-run pod creates. */
export function isLauncherDryRun(event: AuditEvent, selectors: AuditWindowSelectors): boolean {
  return (
    event.verb === 'create' &&
    resourceName(event) === 'pods' &&
    event.user.username === selectors.launcherUsername &&
    isDryRun(event)
  );
}

/** Milliseconds from request received to the event's stage; undefined when a timestamp does not parse. */
function serverMs(event: AuditEvent): number | undefined {
  const received = timestampMicros(event.requestReceivedTimestamp);
  const completed = timestampMicros(event.stageTimestamp);
  return received === undefined || completed === undefined ? undefined : Math.max(0, completed - received) / 1000;
}

/** Reads the window's ResponseComplete events of `file` in `range`. */
export async function readAuditWindow(
  file: string,
  range: LogRange,
  selectors: AuditWindowSelectors,
): Promise<AuditWindow> {
  const creates: number[] = [];
  const dryRuns: number[] = [];
  for await (const line of logLines(file, range)) {
    const event = parseAuditEvent(line);
    const ms = event?.stage === 'ResponseComplete' ? serverMs(event) : undefined;
    if (event === undefined || ms === undefined) {
      continue;
    }
    if (isLoopCreate(event, selectors)) {
      creates.push(ms);
    } else if (isLauncherDryRun(event, selectors)) {
      dryRuns.push(ms);
    }
  }
  return { cloneSetCreates: millisecondStats(creates), dryRunPodCreates: millisecondStats(dryRuns) };
}
