/**
 * meta/v1 Time as a JSON round trip: UnmarshalJSON parses RFC 3339 (fractional seconds allowed),
 * MarshalJSON writes the instant in UTC without fractional seconds, and the zero time as `null`.
 */

/**
 * time.Parse(time.RFC3339, ...) tries a strict parser first and falls back to the general layout parser,
 * which also takes a one-digit hour, a comma before the fraction and zone offsets up to +24:60.
 */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{1,2}):(\d{2}):(\d{2})(?:[.,](\d+))?(?:Z|([+-])(\d{2}):(\d{2}))$/;

/** Go's zero time, 0001-01-01T00:00:00Z, which MarshalJSON writes as null. */
const GO_ZERO_TIME_MS = utcMs({ year: 1, month: 1, day: 1, hour: 0, minute: 0, second: 0 });

/** Raised for text that Go's `time.Parse(time.RFC3339, ...)` rejects. */
export class TimeError extends Error {
  constructor(text: string) {
    super(`time ${JSON.stringify(text)}: not an RFC 3339 timestamp Go accepts`);
    this.name = 'TimeError';
  }
}

interface Fields {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

/**
 * What Go writes for a meta/v1 Time decoded from `text`: e.g. `2024-05-01T10:20:30.123+02:00` →
 * `2024-05-01T08:20:30Z` (offset applied, fraction dropped); `0001-01-01T00:00:00Z` → null (Go's zero
 * time). Ranges are checked as Go checks them (month, day of month, hour ≤ 23, second ≤ 59).
 */
export function canonicalTime(text: string): string | null {
  const match = RFC3339.exec(text);
  const group = (index: number): number => Number(match?.[index] ?? 0);
  const fields: Fields = {
    year: group(1),
    month: group(2),
    day: group(3),
    hour: group(4),
    minute: group(5),
    second: group(6),
  };
  const offset = { hours: group(9), minutes: group(10) };
  if (match === null || !inRange(fields) || offset.hours > 24 || offset.minutes > 60) {
    throw new TimeError(text);
  }
  const sign = match[8] === '-' ? -1 : 1;
  const instant = utcMs(fields) - sign * (offset.hours * 60 + offset.minutes) * 60_000;
  // Go reads at most nine fraction digits (nanoseconds) and ignores the rest.
  const fraction = /[1-9]/.test((match[7] ?? '').slice(0, 9));
  if (instant === GO_ZERO_TIME_MS && !fraction) {
    return null;
  }
  return formatUtc(new Date(instant));
}

function utcMs(fields: Fields): number {
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not map years 0–99 to 1900–1999.
  date.setUTCFullYear(fields.year, fields.month - 1, fields.day);
  date.setUTCHours(fields.hour, fields.minute, fields.second, 0);
  return date.getTime();
}

function inRange(fields: Fields): boolean {
  const { month, day, hour, minute, second } = fields;
  return (
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysIn(fields.year, month) &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59
  );
}

function daysIn(year: number, month: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month, 0);
  return date.getUTCDate();
}

function formatUtc(date: Date): string {
  const year = date.getUTCFullYear();
  const pad = (value: number, width = 2): string => String(value).padStart(width, '0');
  // Go pads the year to four digits after the sign: -0001, 0050, 10000.
  return `${year < 0 ? '-' : ''}${pad(Math.abs(year), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}T${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}Z`;
}
