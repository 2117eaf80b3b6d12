/**
 * Exact comparison and addition of resource quantities (Kubernetes' `Quantity.Cmp` and `Add`), on the
 * values @kruise-ts/revision's `quantityValue` reads: bigint mantissa × 10^exponent, no floating point.
 */
import { quantityValue } from './quantity.ts';
import type { Decimal } from './quantity.ts';

/** Beyond this spread of exponents two values are not aligned digit by digit (1e-9 vs 1e10000). */
const MAX_ALIGNMENT = 10_000;

function sign(value: bigint): number {
  return value > 0n ? 1 : value < 0n ? -1 : 0;
}

function digitCount(value: bigint): number {
  return (value < 0n ? -value : value).toString().length;
}

function aligned(a: Decimal, b: Decimal): { readonly a: bigint; readonly b: bigint } {
  const exponent = Math.min(a.exponent, b.exponent);
  if (Math.max(a.exponent, b.exponent) - exponent > MAX_ALIGNMENT) {
    throw new RangeError(
      `quantities ${String(a.mantissa)}e${String(a.exponent)} and ${String(b.mantissa)}e${String(b.exponent)} are too far apart to compute with`,
    );
  }
  return { a: a.mantissa * 10n ** BigInt(a.exponent - exponent), b: b.mantissa * 10n ** BigInt(b.exponent - exponent) };
}

/** -1, 0 or 1 as `a` is less than, equal to or greater than `b`. Example: 1Gi vs 1000Mi is 1. */
export function compareDecimals(a: Decimal, b: Decimal): number {
  const signs = sign(a.mantissa) - sign(b.mantissa);
  if (signs !== 0) {
    return Math.sign(signs);
  }
  if (a.mantissa === 0n) {
    return 0;
  }
  // Same sign: the order of magnitude decides unless equal, and then the alignment is short.
  const magnitude = digitCount(a.mantissa) + a.exponent - (digitCount(b.mantissa) + b.exponent);
  if (magnitude !== 0) {
    return Math.sign(magnitude) * sign(a.mantissa);
  }
  const values = aligned(a, b);
  return values.a === values.b ? 0 : values.a > values.b ? 1 : -1;
}

/** a + b. Throws a RangeError for absurdly distant exponents. */
export function addDecimals(a: Decimal, b: Decimal): Decimal {
  const values = aligned(a, b);
  return { mantissa: values.a + values.b, exponent: Math.min(a.exponent, b.exponent) };
}

/** The value of a quantity text, undefined when Kubernetes would not parse it. */
export function parseQuantityText(text: string): Decimal | undefined {
  try {
    return quantityValue(text);
  } catch {
    return undefined;
  }
}

/** Whether two quantity texts denote the same amount (`1Gi` and `1024Mi` do); unparsable texts compare as text. */
export function quantitiesEqual(a: string, b: string): boolean {
  const left = parseQuantityText(a);
  const right = parseQuantityText(b);
  return left === undefined || right === undefined ? a === b : compareDecimals(left, right) === 0;
}

/**
 * Whether two resource lists (`{cpu: '1', memory: '1Gi'}`) hold the same amounts for the same names.
 * An absent list equals an empty one.
 */
export function resourceListsEqual(
  a: Readonly<Record<string, string>> | undefined,
  b: Readonly<Record<string, string>> | undefined,
): boolean {
  const left = Object.entries(a ?? {});
  const right = b ?? {};
  return (
    left.length === Object.keys(right).length &&
    left.every(([name, value]) => Object.hasOwn(right, name) && quantitiesEqual(value, right[name] ?? ''))
  );
}
