/** The annotation `kubectl rollout restart` sets; a new value changes the template, so every pod is replaced. */
export const RESTARTED_AT_ANNOTATION = 'kubectl.kubernetes.io/restartedAt';

/** RFC 3339 in seconds, as Go's time.RFC3339 writes it (kubectl's value). */
export function rfc3339(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function restartPatch(now: Date): object {
  return { spec: { template: { metadata: { annotations: { [RESTARTED_AT_ANNOTATION]: rfc3339(now) } } } } };
}
