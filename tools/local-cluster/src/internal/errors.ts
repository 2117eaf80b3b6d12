/** Where a failure happened and what its log said, so the message alone is enough to act on. */
export interface FailureDetails {
  /** The component or tool that failed: `kube-apiserver`, `etcd`, `go build kube`, ... */
  readonly component: string;
  readonly logFile?: string;
  /** The last lines of the log file, when there is one. */
  readonly logTail?: string;
}

/**
 * The one error type of this package. Its message names the component, its log file and the last
 * lines of that log, because a test run that fails to start a cluster is read from CI output only.
 */
export class LocalClusterError extends Error {
  readonly details: FailureDetails;

  constructor(summary: string, details: FailureDetails, options?: ErrorOptions) {
    super(formatFailure(summary, details), options);
    this.name = 'LocalClusterError';
    this.details = details;
  }
}

function formatFailure(summary: string, details: FailureDetails): string {
  const lines = [`${details.component}: ${summary}`];
  if (details.logFile !== undefined) {
    lines.push(`log file: ${details.logFile}`);
  }
  if (details.logTail !== undefined && details.logTail.trim() !== '') {
    lines.push('last lines of the log:', indent(details.logTail.trimEnd()));
  }
  return lines.join('\n');
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  | ${line}`)
    .join('\n');
}
