/**
 * k8s.io/apimachinery `resource.Quantity` as a JSON round trip: what `UnmarshalJSON` followed by
 * `MarshalJSON` turns a quantity into. That is the canonical form (`1000m` → `1`, `0.5` → `500m`,
 * `1.5Gi` → `1536Mi`), except that ParseQuantity keeps the text it was given when that text is already
 * "canonical enough" by its own fast-path test (`+1k` and `01Ki` survive unchanged, `1E3` keeps its
 * capital E). Values are exact decimals (bigint mantissa, base-10 exponent), as Go's int64Amount and
 * inf.Dec are; nothing goes through floating point.
 */
import { goQuote } from './go-json.ts';

type Format = 'DecimalExponent' | 'DecimalSI' | 'BinarySI';

/** value = mantissa × 10^exponent */
export interface Decimal {
  readonly mantissa: bigint;
  readonly exponent: number;
}

interface Scanned {
  readonly positive: boolean;
  /** The numeric text as Go's inf.Dec would read it (sign, digits, point). */
  readonly value: string;
  /** Integer digits without leading zeros ("0" when there are none). */
  readonly num: string;
  readonly denom: string;
  readonly suffix: string;
}

interface Suffix {
  readonly base: 2 | 10;
  readonly exponent: number;
  readonly format: Format;
}

const DECIMAL_SUFFIXES = new Map<string, number>([
  ['n', -9],
  ['u', -6],
  ['m', -3],
  ['', 0],
  ['k', 3],
  ['M', 6],
  ['G', 9],
  ['T', 12],
  ['P', 15],
  ['E', 18],
]);
const BINARY_SUFFIXES = new Map<string, number>([
  ['Ki', 10],
  ['Mi', 20],
  ['Gi', 30],
  ['Ti', 40],
  ['Pi', 50],
  ['Ei', 60],
]);
const DECIMAL_SUFFIX_BY_EXPONENT = new Map([...DECIMAL_SUFFIXES].map(([suffix, exponent]) => [exponent, suffix]));
const BINARY_SUFFIX_BY_POWER = new Map([...BINARY_SUFFIXES].map(([suffix, exponent]) => [exponent / 10, suffix]));
const SUFFIX_SHAPE = /^[eEinumkKMGTP]*[-+]?[0-9]*$/;
const MAX_INT64 = 2n ** 63n - 1n;
const NANO = -9;
/**
 * Go's strings.TrimSpace set minus what JSON text cannot carry unescaped (control characters) or what
 * Go's encoder escapes (U+2028, U+2029): UnmarshalJSON trims the raw bytes between the quotes.
 */
const GO_TRIMMED_SPACE =
  /^[ \u0085\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]+|[ \u0085\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]+$/g;

/** Raised for text that `resource.ParseQuantity` rejects. */
export class QuantityError extends Error {
  constructor(text: string, reason: string) {
    super(`quantity ${JSON.stringify(text)}: ${reason}`);
    this.name = 'QuantityError';
  }
}

/**
 * What Go writes for a `resource.Quantity` decoded from a JSON string or number. A string is handled as
 * the raw bytes Go sees between its quotes (the API server serves Go-escaped JSON), then trimmed; a
 * number as its shortest decimal text.
 *
 * Worked examples: `1000m` → `1` (1000×10⁻³ = 1×10⁰, no suffix); `0.5` → `500m` (5×10⁻¹ rewritten
 * as 500×10⁻³ so that the exponent is a multiple of 3); `1.5Gi` → `1536Mi` (1.5×2³⁰ = 1536×1024², the
 * largest power of 1024 that divides it); `0.1Ki` → `102400m` (102.4 is below 1024, so DecimalSI);
 * `1e3` and `100M` stay as they are (the fast path keeps canonical text); `1.5e3` → `1500`.
 */
export function canonicalQuantity(input: string | number): string {
  const text = typeof input === 'number' ? String(input) : goQuote(input).slice(1, -1).replaceAll(GO_TRIMMED_SPACE, '');
  const parsed = parseQuantity(text);
  return parsed.preserved ?? canonicalize(parsed.value, parsed.format);
}

/**
 * The exact value of a quantity as `resource.ParseQuantity` reads it, for comparing and adding
 * quantities (Kubernetes' `Quantity.Cmp` and `Add` work on the same exact values): mantissa ×
 * 10^exponent, binary suffixes multiplied out, rounded away from zero to nano units. Examples:
 * `1.5Gi` → 16106127360 × 10⁻¹ (not normalised), `250m` → 250 × 10⁻³, `0.5n` → 1 × 10⁻⁹. Throws QuantityError for text
 * ParseQuantity rejects (no trimming: that belongs to JSON decoding).
 */
export function quantityValue(text: string): Decimal {
  return parseQuantity(text).value;
}

interface ParsedQuantity {
  readonly value: Decimal;
  readonly format: Format;
  /** The input text when ParseQuantity keeps it as the quantity's string form. */
  readonly preserved: string | undefined;
}

/** `resource.ParseQuantity`: the exact value, its format and whether the text itself is kept. */
function parseQuantity(text: string): ParsedQuantity {
  if (text === '') {
    throw new QuantityError(text, 'quantities must match the regular expression');
  }
  if (text === '0') {
    return { value: { mantissa: 0n, exponent: 0 }, format: 'DecimalSI', preserved: text };
  }
  const scanned = scanQuantity(text);
  const suffix = interpretSuffix(text, scanned.suffix);
  const preserved = fastPathKeepsText(text, scanned, suffix);
  if (!preserved.fast && !/[0-9]/.test(scanned.value)) {
    // The slow path hands `value` to inf.Dec, which needs at least one digit ("e-10" fails, "0e-10" is 0).
    throw new QuantityError(text, 'unable to parse numeric part of quantity');
  }
  return { ...adjustFormat(exactValue(scanned, suffix), suffix.format), preserved: preserved.text };
}

/** Port of parseQuantityString: sign, integer digits, fraction digits and the suffix. */
function scanQuantity(text: string): Scanned {
  const positive = text[0] !== '-';
  let pos = text[0] === '-' || text[0] === '+' ? 1 : 0;
  while (text[pos] === '0') {
    pos++;
  }
  if (pos >= text.length) {
    return { positive, value: '0', num: '0', denom: '', suffix: '' };
  }
  const numEnd = digitsEnd(text, pos);
  const num = text.slice(pos, numEnd) || '0';
  if (numEnd >= text.length || text[numEnd] !== '.') {
    return withSuffix(text, { positive, num, denom: '', end: numEnd });
  }
  const denomEnd = digitsEnd(text, numEnd + 1);
  return withSuffix(text, { positive, num, denom: text.slice(numEnd + 1, denomEnd), end: denomEnd });
}

function withSuffix(text: string, parts: { positive: boolean; num: string; denom: string; end: number }): Scanned {
  const suffix = text.slice(parts.end);
  if (!SUFFIX_SHAPE.test(suffix)) {
    throw new QuantityError(text, 'quantities must match the regular expression');
  }
  return { positive: parts.positive, value: text.slice(0, parts.end), num: parts.num, denom: parts.denom, suffix };
}

function digitsEnd(text: string, from: number): number {
  let end = from;
  while (end < text.length && (text[end] ?? '') >= '0' && (text[end] ?? '') <= '9') {
    end++;
  }
  return end;
}

function interpretSuffix(text: string, suffix: string): Suffix {
  const decimal = DECIMAL_SUFFIXES.get(suffix);
  if (decimal !== undefined) {
    return { base: 10, exponent: decimal, format: 'DecimalSI' };
  }
  const binary = BINARY_SUFFIXES.get(suffix);
  if (binary !== undefined) {
    return { base: 2, exponent: binary, format: 'BinarySI' };
  }
  const digits = suffix.slice(1);
  if (suffix.length > 1 && (suffix[0] === 'e' || suffix[0] === 'E') && /^[-+]?[0-9]+$/.test(digits)) {
    const exponent = BigInt(digits);
    if (exponent <= MAX_INT64 && exponent >= -MAX_INT64 - 1n) {
      // Go parses an int64 and then converts it to int32, wrapping.
      return { base: 10, exponent: Number(BigInt.asIntN(32, exponent)), format: 'DecimalExponent' };
    }
  }
  throw new QuantityError(text, "unable to parse quantity's suffix");
}

/**
 * ParseQuantity's int64 fast path, reduced to its one visible effect: whether it keeps the input text
 * as the quantity's string (then MarshalJSON writes it verbatim). Decimal: the scale is a multiple of 3,
 * the digits neither end in 000 nor start with 0. Binary: no fraction, and the digits are not a
 * multiple of 8.
 */
function fastPathKeepsText(text: string, scanned: Scanned, suffix: Suffix): FastPath {
  return suffix.format === 'BinarySI' ? binaryFastPath(text, scanned, suffix) : decimalFastPath(text, scanned, suffix);
}

interface FastPath {
  readonly fast: boolean;
  readonly text: string | undefined;
}

function binaryFastPath(text: string, scanned: Scanned, suffix: Suffix): FastPath {
  // Go: precision = 15 - len(num) - int(exponent*3/10) - 1, then int64Multiply must not overflow.
  const precision = 15 - scanned.num.length - Math.trunc((suffix.exponent * 3) / 10) - 1;
  const digits = BigInt(scanned.num);
  if (scanned.denom !== '' || precision < 0 || digits << BigInt(suffix.exponent) > MAX_INT64) {
    return { fast: false, text: undefined };
  }
  return { fast: true, text: (digits & 7n) !== 0n ? text : undefined };
}

function decimalFastPath(text: string, scanned: Scanned, suffix: Suffix): FastPath {
  const digits = scanned.num + scanned.denom;
  const scale = suffix.exponent - scanned.denom.length;
  if (18 - digits.length < 0 || scale < NANO) {
    return { fast: false, text: undefined };
  }
  const canonical = scale % 3 === 0 && !digits.endsWith('000') && !digits.startsWith('0');
  return { fast: true, text: canonical ? text : undefined };
}

/** The exact value, rounded away from zero to nano units as ParseQuantity does. */
function exactValue(scanned: Scanned, suffix: Suffix): Decimal {
  const digits = BigInt(scanned.num + scanned.denom) * (suffix.base === 2 ? 2n ** BigInt(suffix.exponent) : 1n);
  const mantissa = scanned.positive ? digits : -digits;
  const exponent = (suffix.base === 10 ? suffix.exponent : 0) - scanned.denom.length;
  if (exponent >= NANO) {
    return { mantissa, exponent };
  }
  const shift = NANO - exponent;
  // Below one nano the value rounds up to exactly 1n; deciding that by digit count avoids computing
  // 10^shift for absurd exponents such as 1e-2000000000.
  if (String(digits).length <= shift) {
    const magnitude = digits === 0n ? 0n : 1n;
    return { mantissa: scanned.positive ? magnitude : -magnitude, exponent: NANO };
  }
  const divisor = 10n ** BigInt(shift);
  const magnitude = digits / divisor + (digits % divisor === 0n ? 0n : 1n);
  return { mantissa: scanned.positive ? magnitude : -magnitude, exponent: NANO };
}

/** BinarySI values are capped at the int64 maximum; those strictly between -1 and 1 switch to DecimalSI. */
function adjustFormat(value: Decimal, format: Format): { value: Decimal; format: Format } {
  if (format !== 'BinarySI' || value.mantissa === 0n) {
    return { value, format };
  }
  const magnitude = abs(value.mantissa);
  const scaledMax = value.exponent >= 0 ? MAX_INT64 : MAX_INT64 * 10n ** BigInt(-value.exponent);
  const scaledMagnitude = value.exponent >= 0 ? magnitude * 10n ** BigInt(value.exponent) : magnitude;
  if (scaledMagnitude > scaledMax) {
    return { value: { mantissa: value.mantissa > 0n ? MAX_INT64 : -MAX_INT64, exponent: 0 }, format };
  }
  const one = value.exponent >= 0 ? 1n : 10n ** BigInt(-value.exponent);
  return { value, format: scaledMagnitude < one ? 'DecimalSI' : format };
}

/** Quantity.CanonicalizeBytes plus the suffix. */
function canonicalize(value: Decimal, format: Format): string {
  if (value.mantissa === 0n) {
    return '0';
  }
  // Only BinarySI needs the integer value; decimal exponents may be huge (1e2000000000).
  const integer = format === 'BinarySI' ? integerValue(value) : undefined;
  if (integer !== undefined && abs(integer) >= 1024n) {
    return canonicalBinary(integer);
  }
  return canonicalDecimal(value, format === 'DecimalExponent' ? 'DecimalExponent' : 'DecimalSI');
}

function canonicalDecimal(value: Decimal, format: Format): string {
  let { mantissa, exponent } = value;
  while (mantissa % 10n === 0n) {
    mantissa /= 10n;
    exponent++;
  }
  while (exponent % 3 !== 0) {
    mantissa *= 10n;
    exponent--;
  }
  if (format === 'DecimalExponent') {
    return exponent === 0 ? String(mantissa) : `${String(mantissa)}e${String(exponent)}`;
  }
  // An exponent without an SI suffix (above E or below n) gets none at all: Go drops it silently.
  return String(mantissa) + (DECIMAL_SUFFIX_BY_EXPONENT.get(exponent) ?? '');
}

function canonicalBinary(integer: bigint): string {
  let mantissa = integer;
  let power = 0;
  while (mantissa % 1024n === 0n) {
    mantissa /= 1024n;
    power++;
  }
  return String(mantissa) + (BINARY_SUFFIX_BY_POWER.get(power) ?? '');
}

function integerValue(value: Decimal): bigint | undefined {
  if (value.exponent >= 0) {
    return value.mantissa * 10n ** BigInt(value.exponent);
  }
  const divisor = 10n ** BigInt(-value.exponent);
  return value.mantissa % divisor === 0n ? value.mantissa / divisor : undefined;
}

function abs(value: bigint): bigint {
  return value < 0n ? -value : value;
}
