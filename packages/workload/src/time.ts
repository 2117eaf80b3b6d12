/** Timestamps as the API serves them (RFC 3339 strings) turned into epoch milliseconds. */

/**
 * Parsed timestamps by text. Every reconcile reads the Ready time of every pod, and the timestamps
 * have whole seconds, so a few thousand distinct values cover even a large rollout; a lookup costs a
 * tenth of `Date.parse`. Cleared when full rather than evicted one by one.
 */
const parsed = new Map<string, number | undefined>();
const PARSED_CAPACITY = 8192;

/**
 * Milliseconds since the epoch of an RFC 3339 timestamp; undefined when absent or unparsable, which
 * callers treat as Go's zero time.
 */
export function parseTimestamp(value: string | null | undefined): number | undefined {
  if (value === undefined || value === null || value === '') {
    return undefined;
  }
  const known = parsed.get(value);
  if (known !== undefined || parsed.has(value)) {
    return known;
  }
  const ms = Date.parse(value);
  const result = Number.isNaN(ms) ? undefined : ms;
  if (parsed.size >= PARSED_CAPACITY) {
    parsed.clear();
  }
  parsed.set(value, result);
  return result;
}

/**
 * Orders two optional times "more recent first, zero (unknown) before everything": Kubernetes'
 * `afterOrZero` as a comparator. Returns < 0 when `a` comes first.
 */
export function compareAfterOrZero(a: number | undefined, b: number | undefined): number {
  if (a === b) {
    return 0;
  }
  if (a === undefined || b === undefined) {
    return a === undefined ? -1 : 1;
  }
  return a > b ? -1 : 1;
}

/** RFC 3339 with second precision, as metav1.Time serialises: the form of every timestamp we write. */
export function metaTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
