/**
 * metav1.Time and MicroTime as their MarshalJSON writes them: UTC, RFC 3339 to the second
 * (`2026-11-29T06:58:29Z`) or to the microsecond (`2026-11-29T06:58:29.123456Z`), Go's zero time as null.
 */

/** Go's zero time.Time, 0001-01-01T00:00:00Z, in Unix seconds: IsZero, so null in JSON. */
export const GO_ZERO_TIME_SECONDS = -62135596800;

/** The seconds a JavaScript Date can hold (±8.64e15 ms). */
const MAX_SECONDS = 8.64e12;

/** Years 0000-9999: toISOString writes them as RFC 3339 does. */
const FOUR_DIGIT_YEARS = { from: -62167219200, to: 253402300799 } as const;

let lastSeconds = Number.NaN;
let lastText = '';

/** RFC 3339 in UTC to the second, or undefined when a Date cannot hold the time. */
export function formatSeconds(seconds: number): string | undefined {
  // Objects of one list share their times (created, started, transitioned in the same second).
  if (seconds === lastSeconds) {
    return lastText;
  }
  const text = formatFraction(seconds, '');
  if (text !== undefined) {
    lastSeconds = seconds;
    lastText = text;
  }
  return text;
}

/** RFC 3339 in UTC with six fractional digits (RFC3339Micro). */
export function formatMicros(seconds: number, micros: number): string | undefined {
  return formatFraction(seconds, `.${String(micros).padStart(6, '0')}`);
}

function formatFraction(seconds: number, fraction: string): string | undefined {
  if (Math.abs(seconds) > MAX_SECONDS) {
    return undefined;
  }
  const date = new Date(seconds * 1000);
  if (seconds >= FOUR_DIGIT_YEARS.from && seconds <= FOUR_DIGIT_YEARS.to) {
    return `${date.toISOString().slice(0, 19)}${fraction}Z`;
  }
  return `${goYear(date.getUTCFullYear())}${date.toISOString().slice(-20, -5)}${fraction}Z`;
}

/** Go's `2006` for years outside 0-9999: at least four digits, a minus sign before negative ones. */
function goYear(year: number): string {
  return year < 0 ? `-${String(-year).padStart(4, '0')}` : String(year).padStart(4, '0');
}
