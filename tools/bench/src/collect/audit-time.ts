/**
 * Audit timestamps (RFC 3339 with microseconds, `2024-05-01T12:00:00.123456Z`) to the microsecond:
 * Date.parse keeps only milliseconds, and most API requests of a local control plane take less than
 * one. Microseconds since the epoch (~1.7e15) are exact in a double.
 */

const RFC3339 = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})$/i;

/** Microseconds since the epoch; digits below the microsecond are rounded; undefined when it is no RFC 3339 time. */
export function timestampMicros(text: string): number | undefined {
  const match = RFC3339.exec(text);
  if (match === null) {
    return undefined;
  }
  const [, seconds = '', fraction = '', zone = ''] = match;
  const millis = Date.parse(`${seconds}${zone.toUpperCase()}`);
  if (Number.isNaN(millis)) {
    return undefined;
  }
  return millis * 1000 + Math.round(Number(`0.${fraction || '0'}`) * 1e6);
}
