/** Timestamps as the API serves them (RFC 3339 strings) turned into epoch milliseconds. */

/**
 * Milliseconds since the epoch of an RFC 3339 timestamp; undefined when absent or unparsable, which
 * callers treat as Go's zero time.
 */
export function parseTimestamp(value: string | null | undefined): number | undefined {
  if (value === undefined || value === null || value === '') {
    return undefined;
  }
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
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
