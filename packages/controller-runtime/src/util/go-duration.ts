/**
 * Go's time.ParseDuration, the syntax of every duration a Kubernetes or OpenKruise flag takes: an
 * optional sign, then one or more decimal numbers each with a unit (`ns`, `us`, `µs`, `ms`, `s`, `m`,
 * `h`), e.g. `300ms`, `1.5h`, `1h30m`, `-1s`; a bare `0` needs no unit. Arithmetic is Go's: whole
 * nanoseconds (a fraction below a nanosecond is dropped) and at most 2^63-1 of them.
 */

const NANOSECONDS_PER_UNIT: Readonly<Record<string, bigint>> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n, // U+00B5 MICRO SIGN
  μs: 1_000n, // U+03BC GREEK SMALL LETTER MU
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

const MAX_NANOSECONDS = 2n ** 63n - 1n;
/** A negative duration may reach -2^63. */
const LIMIT = 2n ** 63n;
const NANOSECONDS_PER_MILLISECOND = 1_000_000n;
/** One component: digits, an optional fraction (either side of the point may be empty, not both), a unit. */
const COMPONENT = /^(\d*)(?:\.(\d*))?([^\d.]*)/u;

/** A duration Go would refuse, with Go's message. */
export class GoDurationError extends Error {
  override readonly name = 'GoDurationError';
}

/** Milliseconds of a Go duration (fractional below a millisecond); throws {@link GoDurationError}. */
export function parseGoDuration(text: string): number {
  const nanoseconds = parseGoDurationNanoseconds(text);
  const milliseconds = nanoseconds / NANOSECONDS_PER_MILLISECOND;
  return (
    Number(milliseconds) +
    Number(nanoseconds - milliseconds * NANOSECONDS_PER_MILLISECOND) / Number(NANOSECONDS_PER_MILLISECOND)
  );
}

/** Nanoseconds of a Go duration, exactly as Go computes them; throws {@link GoDurationError}. */
export function parseGoDurationNanoseconds(text: string): bigint {
  const quoted = JSON.stringify(text);
  const negative = text.startsWith('-');
  const body = negative || text.startsWith('+') ? text.slice(1) : text;
  if (body === '0') {
    return 0n;
  }
  if (body === '') {
    throw new GoDurationError(`time: invalid duration ${quoted}`);
  }
  let total = 0n;
  for (let rest = body; rest !== '';) {
    const { nanoseconds, length } = parseComponent(rest, quoted);
    total += nanoseconds;
    if (total > LIMIT) {
      throw new GoDurationError(`time: invalid duration ${quoted}`);
    }
    rest = rest.slice(length);
  }
  if (!negative && total > MAX_NANOSECONDS) {
    throw new GoDurationError(`time: invalid duration ${quoted}`);
  }
  return negative ? -total : total;
}

function parseComponent(rest: string, quoted: string): { readonly nanoseconds: bigint; readonly length: number } {
  const { length, whole, fraction, unit } = matchComponent(rest);
  if (whole === '' && fraction === '') {
    throw new GoDurationError(`time: invalid duration ${quoted}`);
  }
  if (unit === '') {
    throw new GoDurationError(`time: missing unit in duration ${quoted}`);
  }
  const perUnit = NANOSECONDS_PER_UNIT[unit];
  if (perUnit === undefined) {
    throw new GoDurationError(`time: unknown unit ${JSON.stringify(unit)} in duration ${quoted}`);
  }
  const value = BigInt(`0${whole}`);
  const nanoseconds = value * perUnit + fractionNanoseconds(fraction, perUnit);
  if (value > LIMIT / perUnit || nanoseconds > LIMIT) {
    throw new GoDurationError(`time: invalid duration ${quoted}`);
  }
  return { nanoseconds, length };
}

function matchComponent(rest: string): {
  readonly length: number;
  readonly whole: string;
  readonly fraction: string;
  readonly unit: string;
} {
  const match = COMPONENT.exec(rest);
  return {
    length: match?.[0].length ?? 0,
    whole: match?.[1] ?? '',
    fraction: match?.[2] ?? '',
    unit: match?.[3] ?? '',
  };
}

/**
 * The fraction's nanoseconds as Go computes them: the digits that fit in an int64, scaled in float64
 * and truncated (so `0.3333333333333333333h` is exactly 20 minutes, as in Go).
 */
function fractionNanoseconds(digits: string, perUnit: bigint): bigint {
  let value = 0n;
  let scale = 1;
  for (const digit of digits) {
    const next = value * 10n + BigInt(digit);
    if (next > MAX_NANOSECONDS) {
      break;
    }
    value = next;
    scale *= 10;
  }
  return value === 0n ? 0n : BigInt(Math.trunc(Number(value) * (Number(perUnit) / scale)));
}
