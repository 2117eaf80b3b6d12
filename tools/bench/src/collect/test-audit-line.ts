/**
 * Audit log lines shaped like the API server writes them (level Metadata), for the tests of the
 * audit log readers (imported by tests only).
 */

/** The contender's user in the lines (a ServiceAccount, as the benchmark gives each contender). */
export const CONTENDER = 'system:serviceaccount:kruise-system:kruise-ts';

export interface EventInput {
  readonly verb: string;
  readonly resource?: string;
  readonly subresource?: string;
  readonly user?: string;
  readonly agent?: string;
  readonly stage?: string;
  /** When the request was received, in milliseconds since the epoch (default 2024-05-01T12:00:00Z). */
  readonly receivedAt?: number;
  /** Server-side latency in microseconds. */
  readonly micros?: number;
  readonly code?: number;
  /** The request's query, e.g. `dryRun=All`. */
  readonly query?: string;
}

const DEFAULT_RECEIVED_AT = Date.parse('2024-05-01T12:00:00Z');

/** RFC 3339 with microseconds, as audit events carry their timestamps. */
function rfc3339Micros(micros: number): string {
  const millis = new Date(Math.floor(micros / 1000)).toISOString();
  return `${millis.slice(0, -1)}${String(micros % 1000).padStart(3, '0')}Z`;
}

/** One audit log line (a single JSON object, no newline). */
export function auditLine(input: EventInput): string {
  const received = Math.round((input.receivedAt ?? DEFAULT_RECEIVED_AT) * 1000);
  const objectRef =
    input.resource === undefined
      ? undefined
      : { resource: input.resource, subresource: input.subresource, namespace: 'bench', name: 'x', apiVersion: 'v1' };
  return JSON.stringify({
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level: 'Metadata',
    auditID: '6f0c5b7e-0000-4000-8000-000000000000',
    stage: input.stage ?? 'ResponseComplete',
    requestURI: `/api/v1/namespaces/bench/pods/x${input.query === undefined ? '' : `?${input.query}`}`,
    verb: input.verb,
    user: { username: input.user ?? CONTENDER, groups: ['system:authenticated'] },
    sourceIPs: ['127.0.0.1'],
    userAgent: input.agent ?? 'kruise-ts/0.0.0',
    objectRef,
    responseStatus: { metadata: {}, code: input.code ?? 200 },
    requestReceivedTimestamp: rfc3339Micros(received),
    stageTimestamp: rfc3339Micros(received + (input.micros ?? 1000)),
    annotations: { 'authorization.k8s.io/decision': 'allow' },
  });
}
