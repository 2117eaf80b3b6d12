/**
 * Human units for the report, written out by hand (no Intl) so that the output is the same on every
 * machine and locale: the Markdown tests compare it byte for byte.
 */

/** What a figure that was not measured prints as. */
export const MISSING = '–';

const MIB = 1024 ** 2;
const GIB = 1024 ** 3;

/** An integer with thousands separators: 12345.6 ⇒ `12,346`. */
export function groupThousands(value: number): string {
  const rounded = Math.round(value);
  const digits = String(Math.abs(rounded));
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return rounded < 0 ? `-${grouped}` : grouped;
}

/** About three significant digits: `1.23`, `12.3`, `123`, `1,234` (never exponent notation). */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) {
    return MISSING;
  }
  const magnitude = Math.abs(value);
  // Rounding first decides the width: 9.996 prints as 10.0, not 10.00.
  if (Math.abs(Number(value.toFixed(2))) < 10) {
    return value.toFixed(2);
  }
  return magnitude < 99.95 ? value.toFixed(1) : groupThousands(value);
}

/** Seconds: `12.3 s`. */
export function formatSeconds(seconds: number): string {
  return `${formatNumber(seconds)} s`;
}

/** A latency: milliseconds below one second (`4.20 ms`), seconds from there (`1.50 s`). */
export function formatLatency(seconds: number): string {
  return seconds < 0.9995 ? `${formatNumber(seconds * 1000)} ms` : formatSeconds(seconds);
}

/** CPU cores of an idle process: thousandths of a core, so three decimals, not three significant digits (`0.012`). */
export function formatCores(cores: number): string {
  return cores.toFixed(3);
}

/** Bytes in MiB: `123 MiB`. */
export function formatMiB(bytes: number): string {
  return `${formatNumber(bytes / MIB)} MiB`;
}

/** Bytes in GiB: `7.77 GiB`. */
export function formatGiB(bytes: number): string {
  return `${formatNumber(bytes / GIB)} GiB`;
}

/** A ratio to the reference contender: `0.52×`. */
export function formatRatio(ratio: number): string {
  return `${formatNumber(ratio)}×`;
}

/** `format(value)`, or {@link MISSING} when there is no value. */
export function orMissing(value: number | undefined, format: (value: number) => string): string {
  return value === undefined || !Number.isFinite(value) ? MISSING : format(value);
}
