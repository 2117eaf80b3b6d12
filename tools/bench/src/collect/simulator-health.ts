/**
 * What made a run noisy rather than what the contender did: watches the API server closed because
 * the watcher fell behind (kube-apiserver's log), and the simulated kubelets' failed requests (the
 * audit log). When kwok's pod watch is closed it watches again from resourceVersion 0 and replays
 * stages from old snapshots; its rejected status patches and the CPU they cost are the main
 * run-to-run variance of a rollout (docs/benchmarks.md, "The simulator's own waste").
 */
import type { FailedRequestCount, SimulatorHealth, WatchClosureCount } from '../result.ts';
import { parseAuditEvent, resourceName } from './audit-log.ts';
import { logLines } from './log-lines.ts';
import type { LogRange } from './log-lines.ts';

// klog line of k8s.io/apiserver's cacheWatcher (v1.34): `Forcing pods watcher close due to
// unresponsiveness: key: "/pods", labels: "", fields: "spec.nodeName!=". len(c.input) = 10, ...`
const WATCH_CLOSURE =
  /Forcing (\S+) watcher close due to unresponsiveness: key: "[^"]*", labels: "([^"]*)", fields: "([^"]*)"/;

/** The watcher a kube-apiserver log line says was closed for falling behind, if it says so. */
export function parseWatchClosure(line: string): Omit<WatchClosureCount, 'count'> | undefined {
  const match = WATCH_CLOSURE.exec(line);
  if (match === null) {
    return undefined;
  }
  const [, resource = '', labelSelector = '', fieldSelector = ''] = match;
  return { resource, labelSelector, fieldSelector };
}

/** Whether an audit user agent is the simulated kubelets' (`kwok/v0.8.0 (linux/amd64) ...`). */
export function isSimulatedKubelet(userAgent: string | undefined): boolean {
  return userAgent?.startsWith('kwok/') === true;
}

/** Counts per key, as rows sorted by count (descending), then key. */
function countRows<T extends object>(entries: Iterable<T>, keyOf: (entry: T) => string): (T & { count: number })[] {
  const rows = new Map<string, T & { count: number }>();
  for (const entry of entries) {
    const key = keyOf(entry);
    const row = rows.get(key);
    rows.set(key, { ...entry, count: (row?.count ?? 0) + 1 });
  }
  return [...rows.entries()]
    .sort(([keyA, a], [keyB, b]) => b.count - a.count || (keyA < keyB ? -1 : keyA > keyB ? 1 : 0))
    .map(([, row]) => row);
}

/** Watch closures in a range of kube-apiserver's log, by watcher. */
export async function readWatchClosures(apiServerLog: string, range: LogRange): Promise<WatchClosureCount[]> {
  const closures: Omit<WatchClosureCount, 'count'>[] = [];
  for await (const line of logLines(apiServerLog, range)) {
    const closure = parseWatchClosure(line);
    if (closure !== undefined) {
      closures.push(closure);
    }
  }
  return countRows(closures, (closure) =>
    JSON.stringify([closure.resource, closure.labelSelector, closure.fieldSelector]),
  );
}

/** The simulated kubelets' failed requests (response code 400 and up) in a range of the audit log. */
export async function readSimulatorFailures(auditLog: string, range: LogRange): Promise<FailedRequestCount[]> {
  const failures: Omit<FailedRequestCount, 'count'>[] = [];
  for await (const line of logLines(auditLog, range)) {
    const event = parseAuditEvent(line);
    const code = event?.responseStatus?.code;
    const resource = event === undefined ? undefined : resourceName(event);
    if (
      event !== undefined &&
      code !== undefined &&
      code >= 400 &&
      resource !== undefined &&
      isSimulatedKubelet(event.userAgent)
    ) {
      failures.push({ verb: event.verb, resource, code });
    }
  }
  return countRows(failures, (failure) => `${failure.verb} ${failure.resource} ${String(failure.code)}`);
}

/** Both, for one contender's window. */
export async function readSimulatorHealth(input: {
  readonly apiServerLog: string;
  readonly apiServerLogRange: LogRange;
  readonly auditLog: string;
  readonly auditLogRange: LogRange;
}): Promise<SimulatorHealth> {
  const [watchClosures, kubeletFailedRequests] = await Promise.all([
    readWatchClosures(input.apiServerLog, input.apiServerLogRange),
    readSimulatorFailures(input.auditLog, input.auditLogRange),
  ]);
  return { watchClosures, kubeletFailedRequests };
}
