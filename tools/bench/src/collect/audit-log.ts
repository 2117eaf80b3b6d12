/**
 * API requests per contender, counted from the API server's audit log: the only view that sees
 * every request of every contender the same way (client-side metrics differ per client library, and
 * kube-controller-manager has none per controller). The log is JSON lines of `audit.k8s.io/v1`
 * Events; each request's ResponseComplete event carries its verb, resource, user, user agent and the
 * server-side latency (requestReceived → stageTimestamp).
 */
import { z } from 'zod';

import type { RequestCount, RequestStats } from '../result.ts';
import { timestampMicros } from './audit-time.ts';
import { createLatencyRecorder } from './latency-recorder.ts';
import { logLines } from './log-lines.ts';

// Loose on purpose: only the fields read here are checked; the rest of the Event passes through.
const auditEventSchema = z.looseObject({
  kind: z.literal('Event').optional(),
  stage: z.string(),
  verb: z.string(),
  user: z.looseObject({ username: z.string().optional() }),
  userAgent: z.string().optional(),
  objectRef: z.looseObject({ resource: z.string().optional(), subresource: z.string().optional() }).optional(),
  requestReceivedTimestamp: z.string(),
  stageTimestamp: z.string(),
  responseStatus: z.looseObject({ code: z.number().optional() }).optional(),
  requestURI: z.string().optional(),
});

/** The fields of an audit Event the aggregation reads (others are kept, unchecked). */
export type AuditEvent = z.infer<typeof auditEventSchema>;

/** Decides whether an event is one of the contender's requests. */
export type AuditSelector = (event: AuditEvent) => boolean;

/** Aggregates audit log lines one at a time, so a log of a million requests is never held in memory. */
export interface AuditAggregator {
  /** Takes one line of the log; blank lines are skipped, lines that are no audit Event are counted in `ignoredLines`. */
  readonly add: (line: string) => void;
  /** The figures so far; `podsTouched` is the denominator of writes per pod. */
  readonly result: (podsTouched: number) => RequestStats;
  /** Lines that were not audit Events (not JSON, or not shaped like one). */
  readonly ignoredLines: number;
}

/** Verbs that change state (the `writes` of RequestStats and its mutating latency). */
const WRITE_VERBS: ReadonlySet<string> = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);
const DRY_RUN = /[?&]dryRun=/;
// watch is left out: it is a long-running request whose "latency" is how long the watch stayed open.
const READ_VERBS: ReadonlySet<string> = new Set(['get', 'list']);

/**
 * An aggregator of the completed resource requests (`stage: ResponseComplete`, with an objectRef)
 * that `select` accepts. Every response code counts: a conflict or a rejected write is still a
 * request the contender made.
 */
export function createAuditAggregator(select: AuditSelector): AuditAggregator {
  const counts = new Map<string, { verb: string; resource: string; count: number }>();
  const mutating = createLatencyRecorder();
  const reads = createLatencyRecorder();
  let ignored = 0;

  const record = (event: AuditEvent, resource: string): void => {
    // A dry run (a template validated before pods are made from it) stores nothing: counted apart, never as a write.
    const verb = DRY_RUN.test(event.requestURI ?? '') ? `${event.verb} (dry run)` : event.verb;
    const key = `${verb} ${resource}`;
    const entry = counts.get(key) ?? { verb, resource, count: 0 };
    entry.count += 1;
    counts.set(key, entry);
    const seconds = durationSeconds(event);
    const recorder = WRITE_VERBS.has(verb) ? mutating : READ_VERBS.has(verb) ? reads : undefined;
    if (seconds !== undefined) {
      recorder?.record(seconds);
    }
  };

  return {
    add: (line) => {
      if (line.trim() === '') {
        return;
      }
      const event = parseAuditEvent(line);
      if (event === undefined) {
        ignored += 1;
        return;
      }
      const resource = resourceName(event);
      if (event.stage === 'ResponseComplete' && resource !== undefined && select(event)) {
        record(event, resource);
      }
    },
    result: (podsTouched) => {
      const byVerbAndResource = sortCounts([...counts.values()]);
      const total = byVerbAndResource.reduce((sum, entry) => sum + entry.count, 0);
      const writes = byVerbAndResource.reduce((sum, entry) => sum + (WRITE_VERBS.has(entry.verb) ? entry.count : 0), 0);
      const podWrites = byVerbAndResource.reduce(
        (sum, entry) => sum + (WRITE_VERBS.has(entry.verb) && isPodResource(entry.resource) ? entry.count : 0),
        0,
      );
      const perPod = (count: number): number => (podsTouched > 0 ? Math.round((count / podsTouched) * 100) / 100 : 0);
      return {
        byVerbAndResource,
        total,
        writes,
        writesPerPod: perPod(writes),
        podWritesPerPod: perPod(podWrites),
        mutatingLatency: mutating.summary(),
        readLatency: reads.summary(),
      };
    },
    get ignoredLines() {
      return ignored;
    },
  };
}

/** Whether an audit event's verb changes state (a write). */
export function isWriteVerb(verb: string): boolean {
  return WRITE_VERBS.has(verb);
}

/** `pods` and its subresources (`pods/status`, `pods/resize`, ...). */
export function isPodResource(resource: string): boolean {
  return resource === 'pods' || resource.startsWith('pods/');
}

/** One line as an audit Event; undefined when it is not JSON or not shaped like an Event. */
export function parseAuditEvent(line: string): AuditEvent | undefined {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return undefined;
  }
  const parsed = auditEventSchema.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}

/** `resource` or `resource/subresource`; undefined for non-resource URLs (/healthz, /metrics, discovery). */
export function resourceName(event: AuditEvent): string | undefined {
  const resource = event.objectRef?.resource;
  if (resource === undefined || resource === '') {
    return undefined;
  }
  const subresource = event.objectRef?.subresource;
  return subresource === undefined || subresource === '' ? resource : `${resource}/${subresource}`;
}

/** Server-side latency in seconds (never negative); undefined when a timestamp does not parse. */
function durationSeconds(event: AuditEvent): number | undefined {
  const received = timestampMicros(event.requestReceivedTimestamp);
  const completed = timestampMicros(event.stageTimestamp);
  if (received === undefined || completed === undefined) {
    return undefined;
  }
  return Math.max(0, completed - received) / 1e6;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** By count (descending), then verb and resource, as RequestStats promises. */
function sortCounts(counts: readonly RequestCount[]): RequestCount[] {
  return counts
    .map(({ verb, resource, count }) => ({ verb, resource, count }))
    .sort((a, b) => b.count - a.count || compareText(a.verb, b.verb) || compareText(a.resource, b.resource));
}

/** Where and how much of the audit log {@link readAuditLog} reads. */
export interface ReadAuditLogOptions {
  /** Pods the scenario created or updated (the denominator of writes per pod). */
  readonly podsTouched: number;
  /**
   * Byte offset to start at: the log's size before the measured window, so that only the window's
   * requests count. If it falls inside a line, that partial line is counted as ignored.
   */
  readonly fromOffset?: number;
  /** Byte offset to stop before (exclusive); the end of the file when absent. */
  readonly toOffset?: number;
}

/** Streams the audit log `file` (from `fromOffset`) through an aggregator of `select`'s requests. */
export async function readAuditLog(
  file: string,
  select: AuditSelector,
  options: ReadAuditLogOptions,
): Promise<RequestStats> {
  const aggregator = createAuditAggregator(select);
  for await (const line of logLines(file, { fromOffset: options.fromOffset ?? 0, toOffset: options.toOffset })) {
    aggregator.add(line);
  }
  return aggregator.result(options.podsTouched);
}

/** Selects the requests of one user (a contender with its own credentials). */
export function byUsername(name: string): AuditSelector {
  return (event) => event.user.username === name;
}

/**
 * Selects requests whose user agent ends with one of `suffixes`: kube-controller-manager's
 * controllers share one username, but each appends its name to the agent
 * (`kube-controller-manager/v1.33.1 (linux/amd64) kubernetes/abc1234/deployment-controller`).
 */
export function byUserAgentSuffix(suffixes: readonly string[]): AuditSelector {
  return (event) => {
    const agent = event.userAgent;
    return agent !== undefined && suffixes.some((suffix) => agent.endsWith(suffix));
  };
}

const AUDIT_POLICY = `apiVersion: audit.k8s.io/v1
kind: Policy
# The RequestReceived stage would double every request; ResponseComplete carries all that is counted.
omitStages:
  - RequestReceived
rules:
  # Every non-resource URL (/healthz, /readyz, /livez, /metrics, /openapi/*, /api, /apis, /version):
  # probes and discovery are no controller work, and they have no objectRef to count by.
  - level: None
    nonResourceURLs:
      - "*"
  # Every resource request: who, which verb on what, when and the response code; no bodies.
  - level: Metadata
`;

/**
 * The audit Policy the benchmark's API server runs with: Metadata (no request or response bodies,
 * which would make the log and the server's work grow with object sizes) for every resource request,
 * nothing for non-resource URLs.
 */
export function auditPolicyYaml(): string {
  return AUDIT_POLICY;
}
